"""The x402 gate in front of a service's /api/pro routes (pure ASGI, only on those paths).

The whole flow goes through the x402 SDK's resource server: payment requirements from the
operation's price and the service's network, decoding of the payment header, matching it to
what was asked, verification and settlement by the facilitator, and the response headers.

- No payment header: 402 with the version 2 PaymentRequired body and `PAYMENT-REQUIRED` header.
- A payment that cannot be decoded, does not match (amount, receiver, asset, network), or that
  the facilitator finds invalid (signature, validity window, balance, used nonce): 402 whose
  `error` names the reason.
- A valid payment: the route runs first; only a successful answer is settled, and only a
  settled payment gets the content, with the `PAYMENT-RESPONSE` header. A route that fails
  (4xx/5xx) charges nothing.
- The facilitator unreachable or failing: 503 problem, nothing served, nothing charged.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from x402 import PaymentPayload, ResourceConfig, ResourceInfo, x402ResourceServer
from x402.http.utils import (
    decode_payment_signature_header,
    encode_payment_required_header,
    encode_payment_response_header,
)
from x402.extensions.bazaar import bazaar_resource_server_extension, declare_discovery_extension
from x402.mechanisms.evm.exact import ExactEvmServerScheme
from x402.mechanisms.svm.exact import ExactSvmServerScheme
from x402.schemas import SchemeNotFoundError

from twlookup.platform.errors import Problem
from twlookup.platform.http import header, send_bytes
from twlookup.platform.operations import Operation
from twlookup.settings import Settings

log = logging.getLogger("twlookup.payments")
T = TypeVar("T")
PAYMENT_HEADERS = (b"payment-signature", b"x-payment")


class PaymentGate:
    def __init__(
        self,
        settings: Settings,
        network: str,
        facilitator: Any,
        prices: dict[str, str],
        solana: bool = False,
        private: bool = False,
    ) -> None:
        self.settings = settings
        # A private service's query (health readings) stays out of the challenge's resource URL,
        # which the client signs into its payment and a remote facilitator then receives.
        self.private = private
        self.prices = prices  # paid path -> USD price ("$0.05")
        self.network = network
        self.server = x402ResourceServer(facilitator)
        self.server.register(network, ExactEvmServerScheme())
        # Where payment is accepted: (network, receiving address). USDC on Solana is a second
        # option (food, share) when a receiving address is configured; it is offered only where
        # the facilitator settles on Solana (the local ledger does not).
        self.options = [(network, settings.pay_to_evm)]
        if solana and settings.pay_to_svm:
            self.server.register(settings.svm_mainnet, ExactSvmServerScheme())
            self.options.append((settings.svm_mainnet, settings.pay_to_svm))
        self.server.register_extension(bazaar_resource_server_extension)
        self._initialized = False
        self._discovery: dict[str, dict[str, Any]] = {}
        self._requirements: dict[tuple[str, str], list[Any]] = {}

    def requirements(self, op: Operation, price: str | None = None) -> list[Any]:
        price = price or self.prices[op.path]
        if not self._initialized:
            try:
                self.server.initialize()
            except Exception as exc:  # facilitator unreachable: tell the client, retry next time
                log.warning("x402 facilitator unavailable: %s", exc)
                raise _unavailable() from exc
            self._initialized = True
        cached = self._requirements.get((op.path, price))
        if cached is None:
            cached = []
            for network, pay_to in self.options:
                config = ResourceConfig(
                    scheme="exact",
                    pay_to=pay_to,
                    price=price,
                    network=network,
                    max_timeout_seconds=self.settings.payment_timeout_seconds,
                )
                try:
                    cached += self.server.build_payment_requirements(config)
                except SchemeNotFoundError:
                    if network == self.network:  # the service's own network must be payable
                        raise
                    log.warning("the facilitator does not settle on %s; not offering it", network)
            self._requirements[(op.path, price)] = cached
        return cached

    def discovery(self, op: Operation) -> dict[str, Any]:
        """The bazaar extension: how to call this paid route (method and input schema). The SDK
        publishes an output schema only beside a sample output, which we do not invent; the
        output schema is in the service's OpenAPI document and its /api/pro listing."""
        cached = self._discovery.get(op.path)
        if cached is None:
            declared = declare_discovery_extension(
                input_schema=op.params.model_json_schema(), body_type="json" if op.body_params else None
            )
            cached = self.server.enrich_extensions(declared, SimpleNamespace(method=op.method, route_pattern=None))
            self._discovery[op.path] = cached
        return cached

    async def challenge(self, scope: dict[str, Any], op: Operation, send: Any, error: str, price: str | None = None) -> None:
        resource = ResourceInfo(url=_url(scope, query=not self.private), description=op.summary, mime_type="application/json")
        required = await self.server.create_payment_required_response(
            self.requirements(op, price), resource, error, self.discovery(op)
        )
        body = required.model_dump_json(by_alias=True, exclude_none=True).encode()
        encoded = encode_payment_required_header(required).encode()
        await send_bytes(send, 402, body, b"application/json", [(b"payment-required", encoded)])

    async def serve(
        self,
        scope: dict[str, Any],
        op: Operation,
        run: Callable[[], BaseModel],
        send: Any,
        price: str | None = None,
        why: str = "Payment required",
    ) -> None:
        """Answer a paid request: challenge, refuse, or run `run`, settle, and send the result.
        `price` overrides the route's own (a free route past its quota); `why` opens the 402 text."""

        async def refuse(reason: str | None, message: str | None, default: str) -> None:
            await self.challenge(scope, op, send, f"{reason or 'invalid_payment'}: {message or default}", price)

        raw = next((v for name in PAYMENT_HEADERS if (v := header(scope, name))), None)
        if raw is None:
            await self.challenge(scope, op, send, f"{why}: send a PAYMENT-SIGNATURE header (x402 version 2).", price)
            return
        accepts = self.requirements(op, price)
        try:
            payload = decode_payment_signature_header(raw.decode("latin-1"))
        except (ValueError, ValidationError, UnicodeDecodeError) as exc:
            await self.challenge(scope, op, send, f"invalid_payment_header: not a base64 JSON x402 payload ({type(exc).__name__}).", price)
            return
        if not isinstance(payload, PaymentPayload):
            await self.challenge(scope, op, send, "unsupported_x402_version: send an x402 version 2 payload.", price)
            return
        matched = self.server.find_matching_requirements(accepts, payload)
        if matched is None:
            await self.challenge(
                scope, op, send,
                "payment_requirements_mismatch: the payment's scheme, network, asset, amount or receiver "
                "differs from what this route accepts.",
                price,
            )  # fmt: skip
            return
        verified = (await _at_facilitator("verify", self.server.verify_payment(payload, matched))).verify
        if not verified.is_valid:
            await refuse(verified.invalid_reason, verified.invalid_message, "the payment was refused.")
            return
        body = op.dump_json(run())  # a Problem raised here answers 4xx and charges nothing
        settled = await _at_facilitator("settle", self.server.settle_payment(payload, matched))
        if not settled.success:
            await refuse(settled.error_reason or "settlement_failed", settled.error_message, "the payment could not be settled.")
            return
        receipt = encode_payment_response_header(settled).encode()
        await send_bytes(send, 200, b"" if scope["method"] == "HEAD" else body, b"application/json", [(b"payment-response", receipt)])


async def _at_facilitator(step: str, call: Awaitable[T]) -> T:
    """Await a facilitator call; any failure there is a 503 for the client, never a 500."""
    try:
        return await call
    except Exception as exc:
        log.warning("x402 %s failed at the facilitator: %s", step, exc)
        raise _unavailable() from exc


def _unavailable() -> Problem:
    return Problem(
        503,
        "The payment facilitator is unavailable; nothing was served and nothing was charged. Try again later.",
        kind="facilitator-unavailable",
        headers={"Retry-After": "30"},
    )


def _url(scope: dict[str, Any], query: bool = True) -> str:
    host = header(scope, b"host")
    scheme = scope.get("scheme", "http")
    base = f"{scheme}://{host.decode('latin-1')}" if host else ""
    path = scope.get("root_path", "") + scope["path"]
    raw = scope.get("query_string", b"") if query else b""
    return base + path + (("?" + raw.decode("latin-1")) if raw else "")
