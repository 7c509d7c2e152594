"""x402 for MCP tools: the paid routes as tools, paid the way the x402 SDK's MCP support
(`x402.mcp`) and the x402 MCP transport specification (v2) describe it.

- A call without `_meta["x402/payment"]` gets a tool result with `isError: true` whose
  `structuredContent` is the `PaymentRequired` object and whose `content[0].text` is the same
  object as JSON (what the SDK's `x402MCPSession`/`x402MCPClient` read).
- A call with a payment: the payment is decoded and matched to what the tool accepts, verified
  by the facilitator, the tool runs, and only a successful answer is settled; the receipt (the
  `SettleResponse`) is in the result's `_meta["x402/payment-response"]`. A payment that does not
  decode, match or verify gets the `PaymentRequired` again with the reason in `error`.
- A tool that fails charges nothing: the caller turns its problem into a tool error.
- Settlement refused after the tool ran: the `PaymentRequired` with the failed settlement under
  `x402/payment-response`, and not the answer (as the specification says).

It drives the same `PaymentGate` as the REST routes (its resource server, requirements,
facilitator guard and discovery output example), so a tool and its route have one price and one
set of networks. The resource named in the challenge is the service's MCP endpoint, with the
tool as fragment (`https://host/models/mcp#pro_audit`), and the bazaar extension is the SDK's MCP
form (`declare_mcp_discovery_extension`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from twlookup.platform.payments.discovery import inline_refs
from twlookup.platform.payments.gate import PaymentGate, _at_facilitator, _code
from twlookup.platform.payments.payload import reason_text, refusal_text, validated_payload

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from x402 import PaymentPayload

    from twlookup.platform.operations import Operation

PAYMENT_KEY = "x402/payment"
RECEIPT_KEY = "x402/payment-response"


class ToolPayments:
    def __init__(self, gate: PaymentGate) -> None:
        self.gate = gate
        self._extensions: dict[str, dict[str, Any]] = {}

    async def serve(
        self,
        op: Operation,
        tool: str,
        url: str,
        meta: Any,
        run: Callable[[], Awaitable[dict[str, Any]]],
        price: str | None = None,
        why: str = "Payment required",
        problem: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The tool result: a payment-required error, or `run()`'s answer with its receipt.
        `price` overrides the route's own (a free tool past its quota); `why` opens the error
        text; `problem` (RFC 9457 fields) is merged into the payment-required object for a
        client that does not speak x402."""
        gate = self.gate
        raw = meta.get(PAYMENT_KEY) if isinstance(meta, dict) else None
        if raw is None:
            error = f"{why}: send an x402 version 2 payment in _meta['{PAYMENT_KEY}'] of tools/call."
            return await self.required(op, tool, url, error, price, problem)
        accepts = await gate.requirements(op, price)  # the SDK is loaded from here on
        payload, (reason, message) = decode(raw)
        if payload is None:
            return await self.required(op, tool, url, f"{reason}: {message}", price, problem)
        try:
            matched = gate.server.find_matching_requirements(accepts, payload)
        except Exception:  # a payload odd enough to trip the matcher is still only a bad payload
            matched = None
        if matched is None:
            error = (
                "invalid_payment_requirements: the payment's scheme, network, asset, amount or receiver "
                "differs from what this tool accepts."
            )
            return await self.required(op, tool, url, error, price, problem)
        verified = (await _at_facilitator("verify", gate.server.verify_payment(payload, matched))).verify
        if verified is None or not verified.is_valid:
            code = _code(verified.invalid_reason if verified else None, "unexpected_verify_error")
            why = refusal_text(code, matched.network, gate.settings.facilitator == "local")
            return await self.required(op, tool, url, f"{code}: {why}", price, problem)
        answer = await run()  # a Problem raised here is the tool's failure: nothing is settled
        settled = await _at_facilitator("settle", gate.server.settle_payment(payload, matched))
        receipt = settled.model_dump(by_alias=True, exclude_none=True, mode="json")
        if not settled.success:
            code = _code(settled.error_reason, "unexpected_settle_error")
            failed = await self.required(op, tool, url, f"{code}: {reason_text(code)}", price, problem)
            failed["structuredContent"][RECEIPT_KEY] = receipt
            failed["content"] = [{"type": "text", "text": json.dumps(failed["structuredContent"])}]
            return failed
        return dict(answer, _meta={RECEIPT_KEY: receipt})

    async def required(
        self,
        op: Operation,
        tool: str,
        url: str,
        error: str,
        price: str | None = None,
        problem: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The payment-required tool result (x402 MCP transport: structuredContent and the same
        object as JSON in content[0].text)."""
        gate = self.gate
        accepts = await gate.requirements(op, price)
        from x402 import ResourceInfo

        resource = ResourceInfo(url=url, description=op.summary, mime_type="application/json")
        required = await gate.server.create_payment_required_response(
            accepts, resource, error, await self.extensions(op, tool)
        )
        body = required.model_dump(by_alias=True, exclude_none=True, mode="json")
        content = [{"type": "text", "text": json.dumps(body)}]
        if problem:  # for a client (or model) that does not speak x402: the problem, in words too
            body.update({k: v for k, v in problem.items() if k not in body})
            content = [{"type": "text", "text": json.dumps(body)}, {"type": "text", "text": problem["detail"]}]
        return {"content": content, "structuredContent": body, "isError": True}

    async def extensions(self, op: Operation, tool: str) -> dict[str, Any]:
        """The bazaar discovery extension in its MCP form, built once per tool."""
        cached = self._extensions.get(tool)
        if cached is None:
            from x402.extensions.bazaar import DeclareMcpDiscoveryConfig, declare_mcp_discovery_extension

            output, final = await self.gate._output(op)
            cached = declare_mcp_discovery_extension(
                DeclareMcpDiscoveryConfig(
                    tool_name=tool,
                    description=op.summary,
                    input_schema=inline_refs(op.params.model_json_schema()),
                    transport="streamable-http",
                    example=op.example,
                    output=output,
                )
            )
            if final:
                self._extensions[tool] = cached
        return cached


def decode(raw: Any) -> tuple[PaymentPayload | None, tuple[str, str]]:
    """`_meta["x402/payment"]` as a version 2 payload, or the x402 reason and sentence why not.
    The SDK's clients send the object itself; a JSON string of it is accepted too."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except (ValueError, RecursionError):
            return None, ("invalid_payload", f"_meta['{PAYMENT_KEY}'] is not a JSON object.")
    if not isinstance(raw, dict):
        return None, ("invalid_payload", f"_meta['{PAYMENT_KEY}'] must be an x402 PaymentPayload object.")
    if raw.get("x402Version") != 2:
        return None, ("invalid_x402_version", reason_text("invalid_x402_version"))
    return validated_payload(raw, "the payment")
