"""The one declaration of an operation, from which REST, MCP and the x402 price are derived.

An operation is a function `fn(params) -> result` whose parameter is a pydantic model (the
inputs, with descriptions and bounds) and whose return annotation is a pydantic model (the
result). REST reads the parameters from the query string (GET) or the JSON body (POST); MCP
reads them from the tool arguments; both await `Operation.call`, so they accept the same
inputs, return the same data and fail with the same text.

An operation may be `async def` (it calls out: a knowledge base, a user's URL) and is awaited
on the event loop; it must bound its own waits. A plain `def` operation reads reference data
through `Reference` caches: when a cache of its service could touch the store
(`Reference.due(group)`), that service's caches are refreshed in a worker thread first, and the
operation then runs on the loop from memory, which keeps the hot path free of a thread hop. An operation that reads the store itself, or
does slow work, is declared `blocking=True` and always runs in a worker thread. Waits are
bounded by `Operation.timeout_seconds` (TWLOOKUP_REQUEST_TIMEOUT_SECONDS): past it, or when the
store is unreachable, the answer is a 503 problem with Retry-After.
"""

from __future__ import annotations

import functools
import inspect
import logging
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from anyio import fail_after, to_thread
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from twlookup.platform.errors import Problem, from_validation_error
from twlookup.platform.schemas import LazyModel
from twlookup.platform.store.errors import is_store_error, store_unavailable
from twlookup.platform.store.reference import Reference, group_of

log = logging.getLogger("twlookup.store")
R = TypeVar("R")


class Params(LazyModel):
    """Base of every operation's parameter model: unknown parameters are an error, not ignored,
    and JSON `true`/`false` is not taken for a number or a string (pydantic's lax mode would read
    `{"id": true}` as id 1)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*", mode="before")
    @classmethod
    def _no_booleans_for_other_types(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, bool) and info.field_name and not _takes_bool(cls, info.field_name):
            raise PydanticCustomError("bool_not_allowed", "must not be true or false here")
        return value


class NoParams(Params):
    pass


@functools.cache
def _takes_bool(model: type[BaseModel], name: str) -> bool:
    """Whether the field's type admits a bool anywhere at its top level (bool, bool | None, Any)."""
    pending = [model.model_fields[name].annotation]
    while pending:
        hint = pending.pop()
        if hint is bool or hint is Any:
            return True
        pending.extend(typing.get_args(hint))
    return False


@dataclass
class Operation:
    fn: Callable[[Any], Any]  # the answer, or (an async operation) a coroutine of it
    method: str
    path: str
    tool: str | None
    price: str | None
    summary: str
    description: str
    params: type[Params]
    result: type[BaseModel]
    _allowed: dict[str, Any] | None = field(default=None, repr=False)
    path_params: tuple[str, ...] = ()
    pattern: re.Pattern[str] | None = None  # for paths with {name} segments
    markdown: Callable[[Any], str] | None = None  # renders the result as the page at `<path>.md`
    is_async: bool = False  # declared `async def`: awaited on the loop
    blocking: bool = False  # reads the store directly or does slow work: always in a worker thread
    check: Callable[[Any], None] | None = None  # paid routes: finds unknown ids (404) before payment
    example: dict[str, Any] | None = None  # paid routes: an input example for discovery (bazaar)
    example_output: bool = True  # discovery may show the answer to `example` (False: it has effects)
    group: str | None = None  # the service whose reference caches it reads (None: all of them)
    rests_on: tuple[Any, ...] = ()  # paid routes: feeds and tables it is sold on (platform/payments/sale.py)
    writes: bool = False  # it changes something outside its answer (a submission, a post to a search engine)
    varies: bool = False  # the same inputs on the same day and data may answer differently (a random draw)
    timeout_seconds: ClassVar[float] = 15.0  # bound on one run (set from settings by create_app)

    @property
    def name(self) -> str:
        return self.fn.__name__

    @property
    def allowed(self) -> dict[str, Any]:
        """What each parameter accepts (see `allowed_values`), worked out when first needed (a
        422 or a page), not for every operation at start."""
        if self._allowed is None:
            self._allowed = allowed_values(self.params)
        return self._allowed

    @property
    def described(self) -> dict[str, str | None]:
        """Each parameter's description (it says the form a value takes), for error messages."""
        return {name: field.description for name, field in self.params.model_fields.items()}

    @property
    def open_world(self) -> bool:
        """It reaches outside this server (a register, a knowledge base, a user's site, DNS, a
        search engine): the `async def` operations are exactly those that call out."""
        return self.is_async

    @property
    def hints(self) -> dict[str, bool]:
        """The MCP tool annotations, derived from the declaration: a reader is read-only and so
        idempotent; a writer here only adds (a submission, URLs sent to IndexNow), so it is not
        destructive, and not idempotent (the same call posts again)."""
        return {
            "read_only_hint": not self.writes,
            "destructive_hint": False,
            "idempotent_hint": not self.writes,
            "open_world_hint": self.open_world,
        }

    @functools.cached_property  # (read on every request: an attribute after the first)
    def repeatable(self) -> bool:
        """A free GET lookup that answers from memory: its answer is a function of its parameters,
        today's date and the reference data, so it may be kept and given again
        (platform/answer_cache.py). Not: paid routes, POST, `async def` (it calls out), `blocking`
        (it reads the store), `writes`, `varies`."""
        return (
            self.method == "GET"
            and self.price is None
            and not (self.is_async or self.blocking or self.writes or self.varies)
        )

    @functools.cached_property
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
            raise from_validation_error(exc, self.allowed, self.described) from None

    async def run(self, params: Params) -> BaseModel:
        """Run the operation on validated parameters; the store is never read on the event loop.
        A run past `timeout_seconds` is abandoned (its thread finishes on its own) and answered
        503; a store that refuses, drops or times out is 503 too, never 500."""
        return await _bounded(self.fn, params, self.is_async, self.blocking, self.group)

    async def precheck(self, params: Params) -> None:
        """A paid route's cheap check that the ids it names exist, run before payment is asked
        for (a 404 then costs the client nothing); bounded like `run`."""
        if self.check is not None:
            await _bounded(self.check, params, inspect.iscoroutinefunction(self.check), group=self.group)

    async def call(self, raw: Any) -> BaseModel:
        """Validate raw inputs and run the operation; raises Problem on bad input."""
        return await self.run(self.parse(raw))

    def dump_json(self, result: BaseModel) -> bytes:
        return result.__pydantic_serializer__.to_json(result)

    def dump(self, result: BaseModel) -> dict[str, Any]:
        return result.model_dump(mode="json")


async def _bounded(
    fn: Callable[[Any], Any], params: Params, is_async: bool, blocking: bool = False, group: str | None = None
) -> Any:
    """`fn(params)` within `Operation.timeout_seconds`: awaited if async, in a worker thread if
    blocking, otherwise on the loop once the reference caches are fresh (refreshed in a thread)
    or servable from memory while the store stalls (see platform/store/reference.py). Work that
    waits on the store waits at most `Reference.stall_wait_seconds` while the store is suspect."""
    limit = Operation.timeout_seconds
    try:
        if not is_async and not blocking:  # the hot path: from memory, on the loop
            if Reference.due(group):
                limit = _store_wait(limit)
                await _refresh(group, limit)
            return Reference.in_memory(fn, params)
        if not is_async:
            limit = _store_wait(limit)
        with fail_after(limit):
            if is_async:
                return await fn(params)
            return await to_thread.run_sync(fn, params, abandon_on_cancel=True)
    except TimeoutError:
        if is_async:  # it waited on something of its own (an upstream), not only on the store
            raise Problem(
                503,
                f"The answer did not come within {limit:g} s; nothing was charged. Try again shortly.",
                kind="timeout",
                headers={"Retry-After": "5"},
            ) from None
        Reference.store_failed()
        raise store_unavailable(waited=limit) from None
    except Problem:
        raise
    except Exception as exc:
        if is_store_error(exc):
            Reference.store_failed()
            raise store_unavailable(exc) from None
        raise


async def read_store(fn: Callable[[], R]) -> R:
    """`fn()`, a store read, in a worker thread within `Operation.timeout_seconds`: a store that
    does not answer in time, or fails, is the 503 store-unavailable problem (payments' pass key
    and sale facts, read from the event loop)."""
    limit = Operation.timeout_seconds
    try:
        with fail_after(limit):
            return await to_thread.run_sync(fn, abandon_on_cancel=True)
    except TimeoutError:
        raise store_unavailable(waited=limit) from None
    except Exception as exc:
        if is_store_error(exc):
            raise store_unavailable(exc) from None
        raise


def _store_wait(limit: float) -> float:
    """How long work that waits on the store may wait: less while the store is suspect."""
    return min(limit, Reference.stall_wait_seconds) if Reference.suspect() else limit


async def _refresh(group: str | None, limit: float) -> None:
    """Bring `group`'s reference caches up to the store's data version. When they can be served
    from memory, wait for the store at most `stall_wait_seconds`, and not at all while it is
    suspect (a check then runs in the background); otherwise wait up to `limit`."""
    if not Reference.servable(group):
        with fail_after(limit):
            await to_thread.run_sync(Reference.refresh, group, abandon_on_cancel=True)
        return
    if Reference.suspect():
        Reference.check_in_background(group)
        return
    try:
        with fail_after(Reference.stall_wait_seconds):
            await to_thread.run_sync(Reference.refresh, group, abandon_on_cancel=True)
    except TimeoutError:
        log.warning("the store did not answer the data version check; answering from memory")
    except Exception as exc:
        if not is_store_error(exc):
            raise
        log.warning("the store failed the data version check (%s); answering from memory", type(exc).__name__)


def build_operation(
    fn: Callable[..., BaseModel],
    method: str,
    path: str,
    tool: str | None,
    price: str | None,
    markdown: Callable[[Any], str] | None = None,
    blocking: bool = False,
    check: Callable[[Any], None] | None = None,
    example: dict[str, Any] | None = None,
    rests_on: tuple[Any, ...] = (),
    writes: bool = False,
    varies: bool = False,
) -> Operation:
    hints = typing.get_type_hints(fn)
    arguments = list(inspect.signature(fn).parameters)
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
    is_async = inspect.iscoroutinefunction(fn)
    call: Callable[[Any], Any]
    if arguments:
        call = fn
    elif is_async:

        async def call(_p: Any, _fn: Any = fn) -> Any:
            return await _fn()
    else:
        call = lambda _p: fn()  # noqa: E731
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
        markdown=markdown,
        is_async=is_async,
        blocking=blocking,
        check=check,
        example=example,
        writes=writes,
        varies=varies,
        group=group_of(fn.__module__),
        rests_on=tuple(rests_on),
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
                described = {
                    k: option[k] for k in ("minimum", "maximum", "pattern", "format", "maxLength") if k in option
                }
        out[name] = described
    return out
