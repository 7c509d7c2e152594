"""One service as a pure-ASGI app: its routes, MCP endpoint, docs, and the layers it needs.

Layers, outermost first: CORS (only for the services the spec calls cross-origin), rate limit,
then the router. The x402 gate runs only for /api/pro routes. Unknown paths get 404 and known
paths with the wrong method 405, both as problem+json. A free GET operation declared with a
Markdown renderer also answers at `<path>.md` (same parameters, same errors, text/markdown);
paid routes have no Markdown page. A service's text routes (e.g. /llms.txt) answer text/plain.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import unquote

import orjson
from fastapi.openapi.docs import get_swagger_ui_html
from limits import parse as parse_limit

from twlookup.platform import privacy
from twlookup.platform.cors import with_cors
from twlookup.platform.errors import InvalidParameter, Problem
from twlookup.platform.http import header, parse_json_body, query_params, read_body, send_bytes, send_json, send_problem
from twlookup.platform.mcp import MCPEndpoint
from twlookup.platform.openapi import build_openapi
from twlookup.platform.operations import Operation
from twlookup.platform.payments.gate import PaymentGate
from twlookup.platform.payments.passes import PassBook, PassRefused
from twlookup.platform.ratelimit import ClientIP, Counter, RateLimit
from twlookup.platform.service import Service
from twlookup.settings import Settings

log = logging.getLogger("twlookup")
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
    ) -> None:
        self.service = service
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
        self.mcp = MCPEndpoint(service, settings.max_body_bytes)
        network = settings.evm_testnet if service.network == "testnet" else settings.evm_mainnet
        paid = any(op.paid for op in service.operations) or service.free_quota
        # What each paid route charges: its declared price unless TWLOOKUP_PRICES overrides it.
        self.prices = {op.path: settings.price_for(service.name, op.path, op.price) for op in service.operations if op.price}
        self.gate = (
            PaymentGate(settings, network, facilitator, self.prices, solana=service.solana, private=service.private)
            if paid and facilitator is not None else None
        )
        self._openapi: dict[str, bytes] = {}
        # The free quota (services with free_quota): counted per client IP, lifted by a pass.
        self.quota = parse_limit(f"{settings.free_quota_per_minute}/minute") if service.free_quota else None
        self.counter = counter
        self.client_ip = client_ip
        self.passes = passes

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope["path"]
        method = scope["method"]
        by_method = self.routes.get(path)
        captured: dict[str, str] = {}
        page: Operation | None = None
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
                text = self.service.text_routes[path]().encode()
                await send_bytes(send, 200, b"" if method == "HEAD" else text, TEXT_PLAIN)
            elif path == "/mcp":
                if self.quota is not None and scope["method"] == "POST" and await self.over_quota(scope):
                    raise Problem(
                        402,
                        f"The free quota of {self.quota.amount} calls per minute to {self.service.name} is used up. "
                        "Wait for the next minute, or send a pass (Authorization: Bearer <pass>, bought at /pay/pass).",
                        kind="quota-exceeded",
                    )
                await self.mcp(scope, receive, send)
            elif path in ("/openapi.json", "/docs", "/", "/api/pro"):
                if method not in ("GET", "HEAD"):
                    raise _method_not_allowed(path, {"GET": None})
                await self.meta(path, scope, send)
            else:
                raise Problem(404, f"{self.service.name} has no route {path}; see {scope.get('root_path', '')}/docs.")
        except Problem as problem:
            await send_problem(send, problem)
        except Exception as exc:  # a bug of ours, never the client's input: log it, answer 500 problem
            if self.service.private:  # the message or traceback could quote what the client sent
                log.error("unhandled %s in %s %s (details withheld: private service)", type(exc).__name__, self.service.name, path)
            else:
                log.exception("unhandled error in %s %s", self.service.name, path)
            await send_problem(send, Problem(500, "An internal error occurred; it has been logged."))

    def _match_template(self, path: str) -> tuple[dict[str, Operation] | None, dict[str, str]]:
        for by_method in self.templates.values():
            pattern = next(iter(by_method.values())).pattern
            assert pattern is not None
            match = pattern.match(path)
            if match:
                return by_method, {k: unquote(v) for k, v in match.groupdict().items()}
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
            assert self.gate is not None
            await self.gate.serve(scope, op, lambda: op.fn(params), send)
            return
        if self.quota is not None and await self.over_quota(scope):
            params = op.parse(raw)
            if self.gate is None:  # payments switched off: only a pass or the next minute helps
                raise Problem(402, f"The free quota of {self.quota.amount} calls per minute is used up.", kind="quota-exceeded")
            why = (
                f"Free quota of {self.quota.amount} calls per minute used up: pay this call, or send a pass "
                "(Authorization: Bearer <pass>, bought at /pay/pass)"
            )
            await self.gate.serve(scope, op, lambda: op.fn(params), send, price=self.settings.quota_call_price, why=why)
            return
        result = op.call(raw)
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
                self.passes.check(token)
                return False
            except PassRefused as exc:
                raise Problem(
                    401, f"Pass not accepted: {exc}. Buy a new one at /pay/pass.", kind="invalid-pass",
                    headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
                ) from None  # fmt: skip
        return not await self.counter.hit(self.quota, "quota", self.service.name, self.client_ip(scope))

    async def meta(self, path: str, scope: dict[str, Any], send: Any) -> None:
        base = scope.get("root_path", "")
        if path == "/openapi.json":
            doc = self._openapi.get(base)
            if doc is None:
                doc = orjson.dumps(build_openapi(self.service, base or "/", self.prices))
                self._openapi[base] = doc
            await send_bytes(send, 200, doc)
        elif path == "/docs":
            html = get_swagger_ui_html(openapi_url=f"{base}/openapi.json", title=f"twlookup {self.service.name}")
            await send_bytes(send, 200, html.body, b"text/html; charset=utf-8")
        elif path == "/api/pro":
            await send_json(send, 200, {"paid_routes": self.paid_routes(base)})
        else:
            await send_json(send, 200, self.summary(base))

    def paid_routes(self, base: str) -> list[dict[str, Any]]:
        return [
            {
                "method": op.method,
                "path": base + op.path,
                "price_usd": self.prices[op.path],
                "summary": op.summary,
                "open": self.settings.pro_open(self.service.name, op.path),
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
) -> tuple[ServiceRouter, Any]:
    router = ServiceRouter(service, settings, facilitator, counter, client_ip, passes)
    app: Any = RateLimit(router, service.name, settings.rate_limit_for(service.name), counter, client_ip)
    if service.cors:
        app = with_cors(app)
    return router, app


def _method_not_allowed(path: str, by_method: dict[str, Any]) -> Problem:
    allowed = sorted(by_method)
    if "GET" in allowed:
        allowed.append("HEAD")
    return Problem(
        405, f"{path} accepts {', '.join(allowed)}.", headers={"Allow": ", ".join(allowed)}
    )


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
