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
- The facilitator unreachable or failing: 503 problem, nothing served, nothing charged. Its
  first contact is off the event loop and bounded, and a failure is remembered with back-off
  (`GuardedFacilitator`), so free routes never wait on it.
- A header that is not a well-formed payload (too large, not JSON, not an object, deep nesting,
  wrong field types, amounts that are not integers) is a 402 `invalid_payload`, never a 5xx; an
  `x402Version` other than the JSON integer 2 is a 402 `invalid_x402_version`. The header's size
  and nesting are checked before it is decoded (platform/payments/header.py).
- HEAD never settles: it gets the challenge. Error reasons are x402 reason codes with a short
  sentence of ours; the facilitator's own message and exception text go to the log only.
- 402 and paid answers carry `Cache-Control: no-store`; the challenge's resource URL is built
  from the configured public base URL, never from the request's Host header.
- The x402 SDK (and the Ethereum and Solana libraries under it) is loaded when the first paid
  request arrives, in a worker thread, not when the process starts: a process whose clients
  never pay never loads it. Loading it keeps the interpreter's recursion limit (which `py_ecc`
  raises; platform/payments/sdk.py).

Why the SDK's `x402ResourceServer` and not its HTTP wrapper `x402HTTPResourceServer`: the wrapper
matches routes from its own route table and reads the request through a framework adapter, then
leaves the handler's own checks for after the payment. Here the dispatcher has already matched the
declared operation, validated its parameters and looked up its ids (a 422 or 404 costs nothing,
before any 402), HEAD must never settle, and every facilitator call must be bounded and its
failure remembered. So the gate uses the same core the wrapper drives (requirements, matching,
verification, settlement, the bazaar extension) and the SDK's header encoders, and applies the
wrapper's cache rule itself: `no-store` on the 402, and on paid answers (stricter than the
wrapper's `private`, since a paid answer is one client's purchase).
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, TypeVar

from anyio import to_thread
from pydantic import BaseModel

from twlookup.platform.errors import Problem
from twlookup.platform.http import header, send_bytes
from twlookup.platform.operations import Operation
from twlookup.platform.payments import sdk
from twlookup.platform.payments.discovery import (
    fitted_example,
    inline_refs,
    route_template,
    strip_titles,
    wire_schema,
    wire_values,
)
from twlookup.platform.payments.guard import FacilitatorUnavailable, GuardedFacilitator
from twlookup.platform.payments.header import decode_payment_header
from twlookup.platform.payments.payload import reason_text, refusal_text
from twlookup.platform.public_origin import PublicOrigin
from twlookup.platform.store.errors import is_store_error
from twlookup.settings import Settings

if TYPE_CHECKING:
    from x402.extensions.bazaar.resource_service import OutputConfig

log = logging.getLogger("twlookup.payments")
_build_lock = threading.Lock()
T = TypeVar("T")
PAYMENT_HEADERS = (b"payment-signature", b"x-payment")
NO_STORE = (b"cache-control", b"no-store")
BAZAAR_KEY = "bazaar"


def _required(op: Operation) -> bool:
    return any(field.is_required() for field in op.params.model_fields.values())


class PaymentGate:
    def __init__(
        self,
        settings: Settings,
        network: str,
        facilitator: Any,
        prices: dict[str, str],
        solana: bool = False,
        private: bool = False,
        service: str | None = None,
        public: PublicOrigin | None = None,
    ) -> None:
        self.settings = settings
        self.service = service
        self.public = public or PublicOrigin.from_settings(settings)  # where clients reach us
        if not isinstance(facilitator, GuardedFacilitator):  # bounded calls, remembered failures
            facilitator = GuardedFacilitator(
                facilitator, settings.facilitator_timeout_seconds, settings.facilitator_retry_max_seconds
            )
        self.facilitator = facilitator
        # A private service's query (health readings) stays out of the challenge's resource URL,
        # which the client signs into its payment and a remote facilitator then receives.
        self.private = private
        self.prices = prices  # paid path -> USD price ("$0.05")
        self.network = network
        # Where payment is accepted: (network, receiving address). USDC on Solana is a second
        # option (food, share) when a receiving address is configured; it is offered only where
        # the facilitator settles on Solana (the local ledger does not).
        self.options = [(network, settings.pay_to_evm)]
        if solana and settings.pay_to_svm:
            self.options.append((settings.svm_mainnet, settings.pay_to_svm))
        self.server: Any = None  # the SDK's resource server, built on the first paid request
        self._initialized = False
        self._discovery: dict[tuple[str, str], dict[str, Any]] = {}
        self._requirements: dict[tuple[str, str], list[Any]] = {}

    def _build_server(self) -> Any:
        """The SDK's resource server for this gate's networks (imports the SDK: call it off the loop)."""
        sdk.load()
        with _build_lock:
            if self.server is None:
                from x402 import x402ResourceServer
                from x402.extensions.bazaar import bazaar_resource_server_extension
                from x402.mechanisms.evm.exact import ExactEvmServerScheme

                server = x402ResourceServer(self.facilitator)
                server.register(self.network, ExactEvmServerScheme())  # type: ignore[arg-type]  # x402 types payment_flows as a dict of lists, its protocol as PaymentFlowConfig
                if len(self.options) > 1:
                    from x402.mechanisms.svm.exact import ExactSvmServerScheme

                    server.register(self.settings.svm_mainnet, ExactSvmServerScheme())  # type: ignore[arg-type]  # as above
                server.register_extension(bazaar_resource_server_extension)  # type: ignore[arg-type]  # x402's own bazaar extension does not match its ResourceServerExtension protocol
                self.server = server
            return self.server

    async def requirements(self, op: Operation, price: str | None = None) -> list[Any]:
        price = price or self.prices[op.path]
        if not self._initialized:
            try:
                await self.facilitator.prepare()  # off the loop, bounded, remembered on failure
                if self.server is None:
                    await to_thread.run_sync(self._build_server)
                self.server.initialize()  # now only reads the facilitator's cached answer
            except FacilitatorUnavailable as exc:
                raise _unavailable(exc.retry_after) from None
            except Exception as exc:  # e.g. it supports none of our networks
                log.warning("x402 facilitator unusable: %s", type(exc).__name__)
                raise _unavailable() from None
            self._initialized = True
        cached = self._requirements.get((op.path, price))
        if cached is None:
            from x402 import ResourceConfig
            from x402.schemas import SchemeNotFoundError

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
                        # a configuration problem (e.g. a testnet-only facilitator for a mainnet
                        # service): nothing can be paid here, and saying so is a 503, not a 500
                        log.warning("the facilitator does not settle on %s, the network of %s", network, op.path)
                        raise _unavailable(
                            300, f"The payment facilitator does not settle on {network}, the network of this route"
                        ) from None
                    log.warning("the facilitator does not settle on %s; not offering it", network)
            self._requirements[(op.path, price)] = cached
        return cached

    async def discovery(self, scope: dict[str, Any], op: Operation) -> dict[str, Any]:
        """The bazaar extension (see platform/payments/discovery.py), built once per route; a
        route with path parameters gets its `routeTemplate` and this request's `pathParams`."""
        cached = self._discovery.get((op.method, op.path))  # a path may be paid by GET and POST
        if cached is None:
            from x402.extensions.bazaar import declare_discovery_extension

            output, final = await self._output(op)
            schema = op.params.model_json_schema()
            example = op.example or {}
            if op.body_params:
                declared = declare_discovery_extension(
                    input=example or None, input_schema=inline_refs(schema), body_type="json", output=output
                )
            else:
                query = [n for n in schema.get("properties", {}) if n not in op.path_params]
                declared = declare_discovery_extension(
                    input=wire_values(example, query) or None,
                    input_schema=wire_schema(schema, query),
                    path_params_schema=wire_schema(schema, list(op.path_params)) if op.path_params else None,
                    output=output,
                )
            cached = self.server.enrich_extensions(declared, SimpleNamespace(method=op.method, route_pattern=None))
            if final:
                self._discovery[(op.method, op.path)] = cached
        if not op.path_params or op.pattern is None:
            return cached
        match = op.pattern.match(scope["path"])
        values = dict(match.groupdict()) if match else {}  # the path arrives decoded once
        if self.private or not values:
            values = wire_values(op.example or {}, list(op.path_params))
        out = copy.deepcopy(cached)
        bazaar = out[BAZAAR_KEY]
        bazaar["routeTemplate"] = (f"/{self.service}" if self.service else "") + route_template(op.path)
        bazaar["info"]["input"]["pathParams"] = values
        return out

    async def _output(self, op: Operation) -> tuple[OutputConfig | None, bool]:
        """The output schema with an example: the route's answer to its input example. Returns
        (config, final): not final when the store could not answer (try again next time)."""
        if not op.example_output or (op.example is None and _required(op)):
            return None, True
        from x402.extensions.bazaar.resource_service import OutputConfig

        try:
            result = op.dump(await op.run(op.parse(op.example or {})))
        except Problem as problem:
            return None, problem.status < 500
        except Exception:
            log.exception("discovery example of %s failed", op.path)
            return None, True
        schema = strip_titles(inline_refs(op.result.model_json_schema()))
        return OutputConfig(example=fitted_example(result, schema), schema=schema), True

    async def challenge(
        self, scope: dict[str, Any], op: Operation, send: Any, error: str, price: str | None = None
    ) -> None:
        accepts = await self.requirements(op, price)  # the SDK is loaded from here on
        from x402 import ResourceInfo
        from x402.http.utils import encode_payment_required_header

        url = self.resource_url(scope, query=not self.private)
        resource = ResourceInfo(url=url, description=op.summary, mime_type="application/json")
        required = await self.server.create_payment_required_response(
            accepts, resource, error, await self.discovery(scope, op)
        )
        body = b"" if scope["method"] == "HEAD" else required.model_dump_json(by_alias=True, exclude_none=True).encode()
        encoded = encode_payment_required_header(required).encode()
        await send_bytes(send, 402, body, b"application/json", [(b"payment-required", encoded), NO_STORE])

    def resource_url(self, scope: dict[str, Any], query: bool = True) -> str:
        """The paid resource at the public origin: TWLOOKUP_PUBLIC_URL, else the URL the client
        used (forwarded headers believed from trusted proxies only; platform/public_origin.py)."""
        raw = scope.get("query_string", b"") if query else b""
        return self.public.url(scope, scope["path"]) + (("?" + raw.decode("latin-1")) if raw else "")

    async def serve(
        self,
        scope: dict[str, Any],
        op: Operation,
        run: Callable[[], Awaitable[BaseModel]],
        send: Any,
        price: str | None = None,
        why: str = "Payment required",
    ) -> None:
        """Answer a paid request: challenge, refuse, or run `run`, settle, and send the result.
        `price` overrides the route's own (a free route past its quota); `why` opens the 402 text."""

        async def refuse(reason: str, message: str | None = None) -> None:
            await self.challenge(scope, op, send, f"{reason}: {message or reason_text(reason)}", price)

        raw = next((v for name in PAYMENT_HEADERS if (v := header(scope, name))), None)
        if raw is None or scope["method"] == "HEAD":  # HEAD never settles: it shows the challenge
            await self.challenge(scope, op, send, f"{why}: send a PAYMENT-SIGNATURE header (x402 version 2).", price)
            return
        accepts = await self.requirements(op, price)
        sdk.restore_recursion_limit()  # whatever the SDK imported on the way here
        payload, problem = decode_payment_header(raw, self.settings.max_header_bytes)
        if payload is None:
            await refuse(*problem)
            return
        try:
            matched = self.server.find_matching_requirements(accepts, payload)
        except Exception:  # a payload odd enough to trip the matcher is still only a bad payload
            matched = None
        if matched is None:
            await refuse(
                "invalid_payment_requirements",
                "the payment's scheme, network, asset, amount or receiver differs from what this route accepts.",
            )
            return
        verified = (await _at_facilitator("verify", self.server.verify_payment(payload, matched))).verify
        if verified is None or not verified.is_valid:
            code = _code(verified.invalid_reason if verified else None, "unexpected_verify_error")
            await refuse(code, refusal_text(code, matched.network, self.settings.facilitator == "local"))
            return
        body = op.dump_json(await run())  # a Problem raised here answers 4xx/503 and charges nothing
        settled = await _at_facilitator("settle", self.server.settle_payment(payload, matched))
        if not settled.success:
            log.warning("x402 settle refused: %s %s", settled.error_reason, (settled.error_message or "")[:200])
            await refuse(_code(settled.error_reason, "unexpected_settle_error"))
            return
        from x402.http.utils import encode_payment_response_header

        receipt = encode_payment_response_header(settled).encode()
        await send_bytes(send, 200, body, b"application/json", [(b"payment-response", receipt), NO_STORE])


def _code(reason: str | None, fallback: str) -> str:
    """A reason code fit to show: the facilitator's if it looks like an x402 code, else ours."""
    if reason and len(reason) <= 80 and reason.replace("_", "").isalnum() and reason.islower():
        return reason
    return fallback


async def _at_facilitator(step: str, call: Awaitable[T]) -> T:
    """Await a facilitator call; any failure there is a 503 for the client, never a 500. The
    exception text (which may quote SQL from the ledger) goes to the log, not to the client."""
    try:
        return await call
    except Exception as exc:
        what = "no answer in time" if isinstance(exc, TimeoutError) else type(exc).__name__
        if is_store_error(exc):
            what = "the ledger store is not answering"
        log.warning("x402 %s failed at the facilitator: %s", step, what)
        if step == "settle":
            raise Problem(
                503,
                "The payment could not be settled in time, so the answer was not served. Try again later; "
                "if the same authorization is refused as already used, it was settled.",
                kind="facilitator-unavailable",
                headers={"Retry-After": "30"},
            ) from None
        raise _unavailable() from None


def _unavailable(retry_after: int = 30, why: str = "The payment facilitator is unavailable") -> Problem:
    return Problem(
        503,
        f"{why}; nothing was served and nothing was charged. Try again later.",
        kind="facilitator-unavailable",
        headers={"Retry-After": str(retry_after)},
    )
