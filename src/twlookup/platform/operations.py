"""The one declaration of an operation, from which REST, MCP and the x402 price are derived.

An operation is a function `fn(params) -> result` whose parameter is a pydantic model (the
inputs, with descriptions and bounds) and whose return annotation is a pydantic model (the
result). REST reads the parameters from the query string (GET) or the JSON body (POST); MCP
reads them from the tool arguments; both go through `Operation.call`, so they accept the same
inputs, return the same data and fail with the same text.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from twlookup.platform.errors import Problem, from_validation_error


class Params(BaseModel):
    """Base of every operation's parameter model: unknown parameters are an error, not ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class NoParams(Params):
    pass


@dataclass
class Operation:
    fn: Callable[[Any], BaseModel]
    method: str
    path: str
    tool: str | None
    price: str | None
    summary: str
    description: str
    params: type[Params]
    result: type[BaseModel]
    allowed: dict[str, Any] = field(default_factory=dict)
    path_params: tuple[str, ...] = ()
    pattern: re.Pattern[str] | None = None  # for paths with {name} segments
    markdown: Callable[[Any], str] | None = None  # renders the result as the page at `<path>.md`

    @property
    def name(self) -> str:
        return self.fn.__name__

    @property
    def paid(self) -> bool:
        return self.price is not None

    @property
    def body_params(self) -> bool:
        return self.method == "POST"

    def parse(self, raw: Any) -> Params:
        if not isinstance(raw, dict):
            raise Problem(422, "The parameters must be a JSON object.", kind="invalid-parameter")
        try:
            return self.params.model_validate(raw)
        except ValidationError as exc:
            raise from_validation_error(exc, self.allowed) from None

    def call(self, raw: Any) -> BaseModel:
        """Validate raw inputs and run the operation; raises Problem on bad input."""
        return self.fn(self.parse(raw))

    def dump_json(self, result: BaseModel) -> bytes:
        return result.__pydantic_serializer__.to_json(result)

    def dump(self, result: BaseModel) -> dict[str, Any]:
        return result.model_dump(mode="json")


def build_operation(
    fn: Callable[..., BaseModel],
    method: str,
    path: str,
    tool: str | None,
    price: str | None,
    markdown: Callable[[Any], str] | None = None,
) -> Operation:
    hints = typing.get_type_hints(fn)
    arguments = [p for p in inspect.signature(fn).parameters]
    if len(arguments) > 1:
        raise TypeError(f"{fn.__name__}: an operation takes one Params model, got {arguments}")
    params = hints[arguments[0]] if arguments else NoParams
    if not (isinstance(params, type) and issubclass(params, Params)):
        raise TypeError(f"{fn.__name__}: parameter must be a twlookup Params model")
    result = hints.get("return")
    if not (isinstance(result, type) and issubclass(result, BaseModel)):
        raise TypeError(f"{fn.__name__}: return annotation must be a pydantic model")
    doc = inspect.getdoc(fn) or fn.__name__.replace("_", " ")
    summary, _, description = doc.partition("\n\n")
    call = fn if arguments else (lambda _p, _fn=fn: _fn())
    op = Operation(
        fn=call,
        method=method,
        path=path,
        tool=tool,
        price=price,
        summary=summary.strip(),
        description=description.strip() or summary.strip(),
        params=params,
        result=result,
        allowed=allowed_values(params),
        markdown=markdown,
    )
    op.fn.__name__ = fn.__name__
    names = tuple(re.findall(r"\{(\w+)\}", path))
    if names:
        missing = [n for n in names if n not in params.model_fields]
        if missing:
            raise TypeError(f"{fn.__name__}: path parameters {missing} are not fields of {params.__name__}")
        op.path_params = names
        op.pattern = re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(path)) + "$")
    return op


def allowed_values(params: type[Params]) -> dict[str, Any]:
    """What each parameter accepts, in words a client can use (enums and numeric bounds)."""
    schema = TypeAdapter(params).json_schema()
    out: dict[str, Any] = {}
    for name, prop in schema.get("properties", {}).items():
        options = prop.get("anyOf", [prop])
        described = None
        for option in options:
            if "enum" in option:
                described = option["enum"]
            elif "const" in option:
                described = [option["const"]]
            elif any(k in option for k in ("minimum", "maximum", "pattern", "format", "maxLength")):
                described = {k: option[k] for k in ("minimum", "maximum", "pattern", "format", "maxLength") if k in option}
        out[name] = described
    return out
