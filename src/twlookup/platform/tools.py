"""A service's MCP tools: their names (the declared tools, then every paid route as a `pro_`
tool), descriptions and output schemas.

The MCP endpoint answers them, and the service page and listing name them; both read this table.
"""

from __future__ import annotations

import re
from typing import Any

from twlookup.platform.operations import Operation
from twlookup.platform.service import Service


def paid_tool_name(op: Operation) -> str:
    """A paid route's tool: `pro_` and the words of its path (`/api/pro/invoice/check-batch` is
    `pro_invoice_check_batch`; path parameters are arguments, not words)."""
    words = [w for w in op.path.removeprefix("/api/pro/").split("/") if w and not w.startswith("{")]
    return "pro_" + "_".join(re.sub(r"[^a-z0-9]+", "_", w.lower()).strip("_") for w in words)


def tool_table(service: Service, paid: bool) -> dict[str, Operation]:
    """Tool name -> operation. With `paid` (payments are on), every paid route is a tool too, one
    per path: a path paid by GET and by POST takes the same arguments, so it is one tool, the
    first declared."""
    by_tool = {op.tool: op for op in service.tools if op.tool}
    if paid:
        for op in service.operations:
            if op.paid:
                by_tool.setdefault(paid_tool_name(op), op)
    return by_tool


# What a failed call's structuredContent holds (isError: true): the RFC 9457 problem REST answers
# with, and for a paid tool the x402 PaymentRequired object. Declared in each tool's outputSchema
# beside the answer, since some clients (MCP Inspector, the TypeScript SDK 1.x) validate an error
# result's structuredContent against the outputSchema too.
PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Problem",
    "description": "The tool failed (isError: true): the RFC 9457 problem the REST route answers with",
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "errors": {"type": "array", "items": {"type": "object"}},
        "retry_after": {"type": "integer", "description": "seconds to wait before trying again"},
    },
    "required": ["type", "title", "status", "detail"],
}
PAYMENT_REQUIRED_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "PaymentRequired",
    "description": "Payment is needed (isError: true): the x402 version 2 terms; pay in _meta['x402/payment']",
    "properties": {
        "x402Version": {"type": "integer"},
        "error": {"type": "string"},
        "resource": {"type": "object"},
        "accepts": {"type": "array", "items": {"type": "object"}},
        "extensions": {"type": "object"},
    },
    "required": ["x402Version", "accepts"],
}


def output_schema(op: Operation, paid: bool = False) -> dict[str, Any]:
    """The answer's schema, or (isError) a problem, or for a paid tool the payment terms."""
    answer = op.result.model_json_schema()
    defs = answer.pop("$defs", None)
    failures = [PROBLEM_SCHEMA, PAYMENT_REQUIRED_SCHEMA] if paid else [PROBLEM_SCHEMA]
    schema: dict[str, Any] = {"type": "object", "anyOf": [answer, *failures]}
    if defs:
        schema["$defs"] = defs  # the answer's references (#/$defs/...) still resolve from the root
    return schema


def tool_description(op: Operation) -> str:
    """What the tool does (its summary) first, then the notes of its docstring, if any."""
    if op.description == op.summary or op.description.startswith(op.summary):
        return op.description
    return f"{op.summary}\n\n{op.description}"
