"""Each service's OpenAPI 3.1 document, derived from its operation declarations."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from twlookup import __version__
from twlookup.platform.service import Service

PROBLEM_SCHEMA = {
    "type": "object",
    "description": "RFC 9457 problem details",
    "properties": {
        "type": {"type": "string", "format": "uri"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"parameter": {"type": "string"}, "message": {"type": "string"}, "allowed": {}},
            },
        },
    },
    "required": ["type", "title", "status", "detail"],
}


def _problem(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }


def _text(media_type: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {media_type: {"schema": {"type": "string"}}}}


def build_openapi(service: Service, server_url: str, prices: dict[str, str] | None = None) -> dict[str, Any]:
    from twlookup.platform.review import Receipt  # a submission route answers with a review receipt

    prices = prices or {}
    models: list[tuple[type[BaseModel], JsonSchemaMode]] = []
    for op in service.operations:
        models.append((op.params, "validation"))
        models.append((op.result, "serialization"))
    refs, schema = models_json_schema(models, ref_template="#/components/schemas/{model}")
    components = dict(schema.get("$defs", {}))
    components["Problem"] = PROBLEM_SCHEMA
    paths: dict[str, Any] = {}
    for op in service.operations:
        param_schema = components.get(op.params.__name__, {"properties": {}})
        result_ref = refs[(op.result, "serialization")]
        item: dict[str, Any] = {
            "operationId": op.name,
            "summary": op.summary,
            "description": op.description,
            "tags": ["pro (x402)"] if op.paid else ["free"],
            "responses": {
                "200": {"description": "OK", "content": {"application/json": {"schema": result_ref}}},
                "422": _problem("A parameter is missing, unknown or out of range; the body names it."),
                "429": _problem("Rate limit exceeded; see Retry-After."),
            },
        }
        if op.tool:
            item["x-mcp-tool"] = op.tool
        if getattr(op.fn, "__twlookup_auth__", None) == "operator":  # platform/review.py operator routes
            item["security"] = [{"operatorToken": []}]
            item["responses"]["401"] = _problem("No operator token, or not a valid one.")
            item["responses"]["403"] = _problem("The token is another service's operator token.")
            item["responses"]["409"] = _problem("A submission named was already decided.")
        if op.result is Receipt:  # platform/review.py submissions: deduplicated, limited per client
            item["responses"]["409"] = _problem("The same submission was already received; the body names it.")
            item["responses"]["429"] = _problem("Rate limit or this client's hourly submission limit; see Retry-After.")
        if op.paid:
            price = prices.get(op.path, op.price)
            item["x-price-usd"] = price
            item["responses"]["403"] = _problem("This paid route is switched off on this server (not open).")
            item["responses"]["503"] = _problem("The payment facilitator is unavailable; nothing was charged.")
            if op.rests_on:  # platform/payments/sale.py: checked before any payment is asked for
                rests = [_basis_name(service, x) for x in op.rests_on]
                item["x-rests-on"] = rests
                item["responses"]["503"] = _problem(
                    f"Not for sale now: the data it rests on ({', '.join(rests)}) is sample, empty or older than "
                    "twice its feed's cadence (the body names the feed and its age; see x-for-sale), or the "
                    "payment facilitator is unavailable. Nothing was charged."
                )
            item["responses"]["402"] = {
                "description": f"Payment required ({price} in USDC via x402); PAYMENT-REQUIRED header carries the terms.",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
        if service.free_quota and not op.paid:  # past the per-minute free quota a call is paid (x402) or needs a pass
            item["responses"]["402"] = {
                "description": "Free quota used up: pay this call via x402 (PAYMENT-REQUIRED terms) or send a pass.",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
            item["responses"]["401"] = _problem("The pass sent is not valid.")
        if op.is_async:  # async operations are the ones that call out (architecture, principle 2)
            item["responses"]["503"] = _problem(
                ("The payment facilitator or an upstream" if op.paid else "An upstream")
                + " could not be reached (see Retry-After); nothing was charged."
            )
        if op.body_params:
            item["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": refs[(op.params, "validation")]}},
            }
            item["responses"]["400"] = _problem("The body is not valid JSON.")
            item["responses"]["413"] = _problem("The body is too large.")
        else:
            required = set(param_schema.get("required", []))
            item["parameters"] = [
                {
                    "name": name,
                    "in": "path" if name in op.path_params else "query",
                    "required": name in required or name in op.path_params,
                    "description": prop.get("description", ""),
                    "schema": {k: v for k, v in prop.items() if k not in ("description", "title")},
                }
                for name, prop in param_schema.get("properties", {}).items()
            ]
        item["responses"]["404"] = _problem("An identifier names nothing we know; the body names it.")
        paths.setdefault(op.path, {})[op.method.lower()] = item
        if op.markdown:
            page = dict(
                item, operationId=f"{op.name}_markdown", summary=f"{op.summary} (Markdown page)", tags=["markdown"]
            )
            page.pop("x-mcp-tool", None)
            page["description"] = f"The same answer as GET {op.path}, rendered as a Markdown page."
            page["responses"] = dict(item["responses"], **{"200": _text("text/markdown", "The page in Markdown")})
            paths[op.path + ".md"] = {"get": page}
    for path in service.text_routes:
        paths[path] = {
            "get": {
                "operationId": "text_" + "".join(ch if ch.isalnum() else "_" for ch in path.strip("/")),
                "summary": f"{path} as plain text",
                "tags": ["text"],
                "responses": {
                    "200": _text("text/plain", "Plain text"),
                    "429": _problem("Rate limit exceeded; see Retry-After."),
                },
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": f"twlookup {service.name}: {service.title}",
            "version": __version__,
            "description": service.description,
        },
        "servers": [{"url": server_url}],
        "paths": paths,
        "components": {"schemas": components, **_security(service)},
    }


def _basis_name(service: Service, item: Any) -> str:
    if isinstance(item, str):
        return item if "." in item else f"{service.name}.{item}"
    return str(getattr(item, "full_name", None) or getattr(item, "__tablename__", item))


def with_sale_state(doc: dict[str, Any], states: dict[tuple[str, str], dict[str, Any]]) -> dict[str, Any]:
    """The document with each paid route's `x-for-sale` (and why not) as of now, beside its price."""
    paths = dict(doc["paths"])
    for (method, path), state in states.items():
        item = dict(paths[path][method.lower()])
        item["x-for-sale"] = state["open"]
        if state.get("not_for_sale"):
            item["x-not-for-sale"] = state["not_for_sale"]
        paths[path] = {**paths[path], method.lower(): item}
    return {**doc, "paths": paths}


def _security(service: Service) -> dict[str, Any]:
    if not any(getattr(op.fn, "__twlookup_auth__", None) for op in service.operations):
        return {}
    return {
        "securitySchemes": {
            "operatorToken": {"type": "http", "scheme": "bearer", "description": "an operator token of this service"}
        }
    }
