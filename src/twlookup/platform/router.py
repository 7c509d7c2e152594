"""One service: the operation dispatcher in front of the service's FastAPI app, and its layers.

Layers, outermost first: CORS (only for the services the spec calls cross-origin), rate limit,
then the dispatcher (`ServiceRouter`). The dispatcher answers, on its fast path, the declared
operations (REST), their Markdown pages, the service's text pages and `/mcp`; the x402 gate
runs only for /api/pro operations. Known operation paths with the wrong method get 405. Every
other request falls through to the service's FastAPI app (`platform.subapp`): the summary,
OpenAPI and docs, ordinary FastAPI routes of `Service.api`, and the 404 problem for unknown
paths. A free GET operation declared with a Markdown renderer also answers at `<path>.md` (same
parameters, same errors, text/markdown); paid routes have no Markdown page. A service's text
routes (e.g. /llms.txt) answer text/plain.

The request path arrives decoded once (by the server, ASGI `path`); captured path parameters are
used as they are and never decoded a second time (`%254C` is the literal `%4C`, not `L`).
"""

from __future__ import annotations

import contextlib
from typing import Any

from limits import parse as parse_limit

from twlookup.platform import privacy
from twlookup.platform.cors import with_cors
from twlookup.platform.errors import InvalidParameter, Problem
from twlookup.platform.http import (
    head_as_get,
    header,
    parse_json_body,
    query_params,
    read_body,
    send_bytes,
    send_problem,
)
from twlookup.platform.mcp import Billing, MCPEndpoint
from twlookup.platform.operations import Operation
from twlookup.platform.origins import OriginPolicy
from twlookup.platform.payments.gate import PaymentGate
from twlookup.platform.payments.passes import PassBook, PassRefused
from twlookup.platform.payments.sale import SaleCheck
from twlookup.platform.payments.tool_payments import ToolPayments
from twlookup.platform.public_origin import PublicOrigin
from twlookup.platform.ratelimit import ClientIP, Counter, RateLimit
from twlookup.platform.request import CURRENT, RequestInfo
from twlookup.platform.service import Service
from twlookup.platform.subapp import build_subapp, log_unhandled
from twlookup.settings import Settings

MARKDOWN = b"text/markdown; charset=utf-8"
TEXT_PLAIN = b"text/plain; charset=utf-8"


class ServiceRouter:
    def __init__(
        self,
        service: Service,
        settings: Settings,
        facilitator: Any = None,
        counter: Counter | None = None,
        client_ip: ClientIP | None = None,
        passes: PassBook | None = None,
        public: PublicOrigin | None = None,
    ) -> None:
        self.service = service
        # where clients reach us: every absolute URL written (challenge, pages, OpenAPI, llms.txt)
        self.public = public or PublicOrigin.from_settings(settings, client_ip, [service.name])
        self.settings = settings
        self.max_body = settings.max_body_bytes
        self.routes: dict[str, dict[str, Operation]] = {}  # exact paths
        self.templates: dict[str, dict[str, Operation]] = {}  # paths with {name} segments
        for op in service.operations:
            table = self.templates if op.pattern else self.routes
            table.setdefault(op.path, {})[op.method] = op
        if service.private:  # the access log shows only declared routes of a private service
            privacy.register_routes(
                service.name,
                self.routes,
                [(path, next(iter(ops.values())).pattern) for path, ops in self.templates.items()],  # type: ignore[misc]
            )
        network = settings.evm_testnet if service.network == "testnet" else settings.evm_mainnet
        paid = any(op.paid for op in service.operations) or service.free_quota
        # What each paid route charges: its declared price unless TWLOOKUP_PRICES overrides it.
        self.prices = {
            op.path: settings.price_for(service.name, op.path, op.price) for op in service.operations if op.price
        }
        self.gate = (
            PaymentGate(
                settings,
                network,
                facilitator,
                self.prices,
                solana=service.solana,
                private=service.private,
                service=service.name,
                public=self.public,
            )
            if paid and facilitator is not None
            else None
        )
        self.sale = SaleCheck(service, settings)  # nothing sample, empty or stale is sold
        self._paid_routes: dict[str, list[dict[str, Any]]] = {}
        self.app = build_subapp(self)  # the service's FastAPI app: all that no operation declares
        self._fallback = head_as_get(self.app)  # its GET routes answer HEAD too
        # The free quota (services with free_quota): counted per client IP, lifted by a pass.
        self.quota = parse_limit(f"{settings.free_quota_per_minute}/minute") if service.free_quota else None
        self.counter = counter
        self.client_ip = client_ip
        self.passes = passes
        networks = [network]
        if service.solana and settings.pay_to_svm and facilitator is not None and settings.facilitator != "local":
            networks.append(settings.svm_mainnet)  # where the facilitator settles it (platform/payments/gate.py)
        billing = Billing(
            public=self.public,
            prices=self.prices,
            networks=networks,
            is_open=lambda path: settings.pro_open(service.name, path),
            payments=ToolPayments(self.gate) if self.gate is not None else None,
            over_quota=self.over_quota if self.quota is not None else None,
            quota_amount=self.quota.amount if self.quota is not None else 0,
            quota_price=settings.quota_call_price,
        )
        origins = OriginPolicy.from_settings(settings, service.name, self.public)
        self.mcp = MCPEndpoint(service, settings.max_body_bytes, origins, billing)
        self.mcp.sale = self.sale

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope["path"]
        method = scope["method"]
        by_method = self.routes.get(path)
        captured: dict[str, str] = {}
        page: Operation | None = None
        fall_through = False
        if by_method is None and path.endswith(".md"):
            page, captured = self._match_markdown(path[: -len(".md")])
        if by_method is None and page is None and self.templates:
            by_method, captured = self._match_template(path)
        try:
            if page is not None:
                if method not in ("GET", "HEAD"):
                    raise _method_not_allowed(path, {"GET": None})
                await self.run(page, scope, receive, send, captured, markdown=True)
            elif by_method is not None:
                op = by_method.get(method) or (by_method.get("GET") if method == "HEAD" else None)
                if op is None:
                    raise _method_not_allowed(path, by_method)
                await self.run(op, scope, receive, send, captured)
            elif path in self.service.text_routes:
                if method not in ("GET", "HEAD"):
                    raise _method_not_allowed(path, {"GET": None})
                text = self.service.text_routes[path](self.public.url(scope)).encode()
                await send_bytes(send, 200, b"" if method == "HEAD" else text, TEXT_PLAIN)
            elif path == "/mcp":  # the free quota counts tool calls only (platform/mcp.py), not set-up
                await self.mcp(scope, receive, send)
            else:
                fall_through = True
        except Problem as problem:
            await send_problem(send, problem)
        except Exception as exc:  # a bug of ours, never the client's input: log it, answer 500 problem
            log_unhandled(self.service.name, self.service.private, path, exc)
            await send_problem(send, Problem(500, "An internal error occurred; it has been logged."))
        if fall_through:  # outside the try: the FastAPI app answers its own errors, as problems too
            with contextlib.suppress(Exception):
                await self._fallback(scope, receive, send)

    def _match_template(self, path: str) -> tuple[dict[str, Operation] | None, dict[str, str]]:
        for by_method in self.templates.values():
            pattern = next(iter(by_method.values())).pattern
            assert pattern is not None
            match = pattern.match(path)
            if match:
                return by_method, match.groupdict()
        return None, {}

    def _match_markdown(self, base: str) -> tuple[Operation | None, dict[str, str]]:
        """The free GET operation whose Markdown page is `<base>.md`, if it has one."""
        by_method = self.routes.get(base)
        captured: dict[str, str] = {}
        if by_method is None and self.templates:
            by_method, captured = self._match_template(base)
        op = by_method.get("GET") if by_method else None
        if op is None or op.markdown is None:
            return None, {}
        return op, captured

    async def run(
        self,
        op: Operation,
        scope: dict[str, Any],
        receive: Any,
        send: Any,
        captured: dict[str, str] | None = None,
        markdown: bool = False,
    ) -> None:
        # Who is asking, for the operations that need it (review: per-client limits, operator tokens).
        auth = header(scope, b"authorization")
        info = RequestInfo(
            self.service.name,
            self.client_ip(scope) if self.client_ip else "unknown",
            auth.decode("latin-1") if auth else None,
            self.settings,
        )
        reset = CURRENT.set(info)
        try:
            await self._run(op, scope, receive, send, captured, markdown)
        finally:
            CURRENT.reset(reset)

    async def _run(
        self,
        op: Operation,
        scope: dict[str, Any],
        receive: Any,
        send: Any,
        captured: dict[str, str] | None,
        markdown: bool,
    ) -> None:
        if op.body_params:
            content_type = _content_type(scope)
            body = await read_body(receive, self.max_body)
            if body and content_type not in (b"application/json", b""):
                raise Problem(415, "Send the parameters as a JSON object with Content-Type: application/json.")
            raw = parse_json_body(body)
        else:
            raw = query_params(scope)
        if captured:
            for name, value in captured.items():
                if name in raw:
                    raise InvalidParameter(name, "is part of the path; do not also pass it in the query")
                raw[name] = value
        if op.paid:
            if not self.settings.pro_open(self.service.name, op.path):
                raise Problem(
                    403, f"{op.path} of {self.service.name} is not open; nothing is sold here for now.", kind="not-open"
                )
            params = op.parse(raw)  # bad input gets its 422 before any payment is asked for
            await op.precheck(params)  # and an unknown id its 404
            await self.sale.check(op)  # and sample, empty or stale data its 503: nothing is sold on it
            assert self.gate is not None
            await self.gate.serve(scope, op, lambda: op.run(params), send)
            return
        if self.quota is not None and await self.over_quota(scope):
            params = op.parse(raw)
            if self.gate is None:  # payments switched off: only a pass or the next minute helps
                raise Problem(
                    402, f"The free quota of {self.quota.amount} calls per minute is used up.", kind="quota-exceeded"
                )
            why = (
                f"Free quota of {self.quota.amount} calls per minute used up: pay this call, or send a pass "
                "(Authorization: Bearer <pass>, bought at /pay/pass)"
            )
            await self.gate.serve(
                scope, op, lambda: op.run(params), send, price=self.settings.quota_call_price, why=why
            )
            return
        result = await op.call(raw)
        if markdown:
            assert op.markdown is not None
            page = op.markdown(result).encode()
            await send_bytes(send, 200, b"" if scope["method"] == "HEAD" else page, MARKDOWN)
            return
        body = op.dump_json(result)
        await send_bytes(send, 200, b"" if scope["method"] == "HEAD" else body)

    async def over_quota(self, scope: dict[str, Any]) -> bool:
        """True when this call is past the client's free quota and shows no pass. A pass that
        does not verify is refused (401) rather than counted against the quota."""
        assert self.quota is not None and self.counter is not None and self.client_ip is not None
        token = _bearer(scope)
        if token is not None and self.passes is not None:
            try:
                await self.passes.check_async(token)  # off the loop: may read the key from the store
                return False
            except PassRefused as exc:
                raise Problem(
                    401,
                    f"Pass not accepted: {exc}. Buy a new one at /pay/pass.",
                    kind="invalid-pass",
                    headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
                ) from None
        return not await self.counter.hit(self.quota, "quota", self.service.name, self.client_ip(scope))

    def paid_routes(self, base: str) -> list[dict[str, Any]]:
        """The paid routes with their schemas (built once per base path: they depend on the
        declarations and settings only, so the index and /api/pro stay cheap), each with whether
        it is for sale now (`open`: switched on and its data real and fresh; see `sale_state`).
        Blocking when the sale facts are due: call it from a worker thread."""
        cached = self._paid_routes.get(base)
        if cached is None:
            cached = self._paid_routes[base] = self._build_paid_routes(base)
        ops = [op for op in self.service.operations if op.paid]
        return [{**route, **self.sale_state(op)} for route, op in zip(cached, ops, strict=True)]

    def sale_state(self, op: Operation) -> dict[str, Any]:
        """`open`: for sale right now; `switched_on`: the operator's switch (TWLOOKUP_PRO_CLOSED,
        payments on); `not_for_sale`: why the data does not allow a sale now (platform/payments/sale.py)."""
        switched_on = self.settings.pro_open(self.service.name, op.path)
        state = self.sale.state(op)
        out: dict[str, Any] = {"open": bool(switched_on and state["for_sale"]), "switched_on": switched_on}
        if state.get("not_for_sale"):
            out["not_for_sale"] = state["not_for_sale"]
        return out

    def _build_paid_routes(self, base: str) -> list[dict[str, Any]]:
        return [
            {
                "method": op.method,
                "path": base + op.path,
                "price_usd": self.prices[op.path],
                "summary": op.summary,
                "input_schema": op.params.model_json_schema(),
                "output_schema": op.result.model_json_schema(),
            }
            for op in self.service.operations
            if op.paid
        ]

    def summary(self, base: str) -> dict[str, Any]:
        return {
            "name": self.service.name,
            "title": self.service.title,
            "description": self.service.description,
            "notice": self.service.notice,
            "base": base or "/",
            "docs": f"{base}/docs",
            "openapi": f"{base}/openapi.json",
            "mcp": f"{base}/mcp",
            "tools": [op.tool for op in self.service.tools],
            "routes": [
                {
                    "method": op.method,
                    "path": base + op.path,
                    "summary": op.summary,
                    "price_usd": self.prices.get(op.path),
                    "markdown": base + op.path + ".md" if op.markdown else None,
                    **({"open": self.sale_state(op)["open"]} if op.paid else {}),
                }
                for op in self.service.operations
            ],
            "text_pages": [base + path for path in self.service.text_routes],
        }


def build_service_app(
    service: Service,
    settings: Settings,
    counter: Counter,
    client_ip: ClientIP,
    facilitator: Any = None,
    passes: PassBook | None = None,
    public: PublicOrigin | None = None,
) -> tuple[ServiceRouter, Any]:
    router = ServiceRouter(service, settings, facilitator, counter, client_ip, passes, public)
    app: Any = RateLimit(router, service.name, settings.rate_limit_for(service.name), counter, client_ip)
    if service.cors:
        app = with_cors(app)
    return router, app


def _method_not_allowed(path: str, by_method: dict[str, Any]) -> Problem:
    allowed = sorted(by_method)
    if "GET" in allowed:
        allowed.append("HEAD")
    return Problem(405, f"{path} accepts {', '.join(allowed)}.", headers={"Allow": ", ".join(allowed)})


def _bearer(scope: dict[str, Any]) -> str | None:
    value = header(scope, b"authorization")
    if value is None:
        return None
    scheme, _, token = value.decode("latin-1").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _content_type(scope: dict[str, Any]) -> bytes:
    for key, value in scope["headers"]:
        if key == b"content-type":
            return value.split(b";")[0].strip().lower()
    return b""
