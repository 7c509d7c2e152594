"""A service's MCP tools by name: the declared tools, then every paid route as a `pro_` tool.

The MCP endpoint answers them, and the service page and listing name them; both read this table.
"""

from __future__ import annotations

import re

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
