"""The bazaar discovery extension of a paid route's 402: how to call it and what it returns.

Valid by the SDK's own validator (`validate_discovery_extension`) for every paid route:

- query and path parameters are typed as the strings they are on the wire (an integer is a
  string of digits; an enum lists its values as strings), each with its description;
- a JSON body keeps its schema, with every `$ref` inlined so nothing points outside it;
- routes with path parameters carry `routeTemplate` (":name" segments) and `pathParams`;
- the input example is the route's declared `example` (Service.operation(example=...));
- the output schema (inlined, structure only: no titles or descriptions) is given with an output example: the route's own
  answer to the input example, computed once per process, its lists cut to one item (or to the
  fewest the schema allows) and its long texts shortened.
"""

from __future__ import annotations

import copy
import re
from typing import Any

WIRE_INTEGER = r"^-?[0-9]+$"
WIRE_NUMBER = r"^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$"


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with every local `#/$defs/...` reference replaced by its definition."""
    defs = schema.get("$defs", {})

    def walk(node: Any, depth: int = 0) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/") and depth < 20:
                target = copy.deepcopy(defs.get(ref.removeprefix("#/$defs/"), {}))
                rest = {k: v for k, v in node.items() if k != "$ref"}
                return walk({**target, **rest}, depth + 1)
            return {k: walk(v, depth) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(v, depth) for v in node]
        return node

    return walk(schema)


def strip_titles(node: Any) -> Any:
    """The schema without titles and descriptions: it travels in a response header, so only its
    structure is kept (the service's OpenAPI document has the words)."""
    if isinstance(node, dict):
        return {
            k: strip_titles(v) for k, v in node.items() if k not in ("title", "description") or not isinstance(v, str)
        }
    if isinstance(node, list):
        return [strip_titles(v) for v in node]
    return node


def wire_property(prop: dict[str, Any]) -> dict[str, Any]:
    """A parameter's schema as the string it is in a query string or a path segment."""
    options = [o for o in prop.get("anyOf", [prop]) if o.get("type") != "null"]
    option = options[0] if options else {}
    out: dict[str, Any] = {"type": "string"}
    if prop.get("description"):
        out["description"] = prop["description"]
    kind = option.get("type")
    if "enum" in option:
        out["enum"] = [_wire(v) for v in option["enum"]]
    elif "const" in option:
        out["enum"] = [_wire(option["const"])]
    elif kind == "integer":
        out["pattern"] = WIRE_INTEGER
        bounds = [f"{k} {option[k]}" for k in ("minimum", "maximum") if k in option]
        out["description"] = (
            out.get("description", "") + f" (integer{'; ' + ', '.join(bounds) if bounds else ''})"
        ).strip()
    elif kind == "number":
        out["pattern"] = WIRE_NUMBER
    elif kind == "boolean":
        out["enum"] = ["true", "false"]
    elif kind == "string":
        for key in ("pattern", "maxLength", "minLength", "format"):
            if key in option:
                out[key] = option[key]
    if "default" in prop and prop["default"] is not None:
        out["default"] = _wire(prop["default"])
    return out


def wire_schema(schema: dict[str, Any], names: list[str]) -> dict[str, Any]:
    props = schema.get("properties", {})
    return {
        "type": "object",
        "properties": {name: wire_property(props[name]) for name in names if name in props},
        "required": [n for n in schema.get("required", []) if n in names],
        "additionalProperties": False,
    }


def wire_values(example: dict[str, Any], names: list[str]) -> dict[str, str]:
    return {k: _wire(v) for k, v in example.items() if k in names and v is not None}


def route_template(path: str) -> str:
    return re.sub(r"\{(\w+)\}", r":\1", path)


def trim_example(value: Any) -> Any:
    """An answer cut down to show its shape: each list keeps its first item, long texts their
    first 120 characters and an ellipsis."""
    if isinstance(value, dict):
        return {k: trim_example(v) for k, v in value.items()}
    if isinstance(value, list):
        return [trim_example(v) for v in value[:1]]
    if isinstance(value, str) and len(value) > 120:
        return value[:119] + "…"
    return value


def fitted_example(answer: Any, schema: dict[str, Any]) -> Any:
    """`trim_example` of an answer, then each list the schema wants longer (`minItems`) given
    back as many of its own items as it needs: valid by the schema, and still short (the whole
    answer, a thousand glossary terms say, would not fit in a response header). An example the
    schema refuses for any other reason is the whole answer."""
    import jsonschema  # loaded with the first 402 of a process, not at start

    validator = jsonschema.Draft202012Validator(schema)
    example = trim_example(answer)
    for _ in range(64):
        errors = list(validator.iter_errors(example))
        if not errors:
            return example
        if any(e.validator != "minItems" for e in errors):
            return answer
        for error in errors:
            path = list(error.absolute_path)
            whole = _at(answer, path)
            if not isinstance(whole, list):
                return answer
            longer = [trim_example(v) for v in whole[: error.validator_value]]
            if not path:
                example = longer
            else:
                _at(example, path[:-1])[path[-1]] = longer
    return answer


def _at(value: Any, path: list[Any]) -> Any:
    for key in path:
        try:
            value = value[key]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _wire(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(_wire(v) for v in value)
    return str(value)
