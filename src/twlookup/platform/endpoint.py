"""The REST endpoint of a service's operations: the innermost ASGI layer of a service.

The dispatcher (`platform.router`) matches the operation and leaves it in the scope
(`scope[MATCH]`, with the path's captured parameters and whether the Markdown page was asked
for); layers between them (the free quota, `platform.quota`) read it there too. Here the
parameters are read (query string for GET, JSON body for POST, captured path segments), the
operation runs, and its answer is sent as JSON, or as its Markdown page. A paid operation is
served through the x402 gate once its input is valid, its ids exist and its data is for sale.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from twlookup.platform.errors import InvalidParameter, Problem
from twlookup.platform.http import header, parse_json_body, query_params, read_body, send_bytes
from twlookup.platform.operations import Operation
from twlookup.platform.request import CURRENT, RequestInfo

if TYPE_CHECKING:
    from twlookup.platform.answer_cache import AnswerCache
    from twlookup.platform.payments.gate import PaymentGate
    from twlookup.platform.payments.sale import SaleCheck
    from twlookup.platform.ratelimit import ClientIP
    from twlookup.settings import Settings

MATCH = "twlookup.operation"  # the scope key the dispatcher leaves its match under
MARKDOWN = b"text/markdown; charset=utf-8"


class Match(NamedTuple):
    op: Operation
    captured: dict[str, str]  # path parameters, as the server decoded them (never decoded again)
    markdown: bool  # the `<path>.md` page was asked for


async def read_params(match: Match, scope: dict[str, Any], receive: Any, max_body: int) -> dict[str, Any]:
    """The operation's raw parameters: the JSON body (POST) or the query string, with the
    captured path parameters; a parameter given both in the path and the query is refused."""
    if match.op.body_params:
        body = await read_body(receive, max_body)
        if body and _content_type(scope) not in (b"application/json", b""):
            raise Problem(415, "Send the parameters as a JSON object with Content-Type: application/json.")
        raw = parse_json_body(body)
    else:
        raw = query_params(scope)
    for name, value in match.captured.items():
        if name in raw:
            raise InvalidParameter(name, "is part of the path; do not also pass it in the query")
        raw[name] = value
    return raw


class OperationEndpoint:
    def __init__(
        self,
        service: str,
        settings: Settings,
        client_ip: ClientIP | None,
        gate: PaymentGate | None,
        sale: SaleCheck,
        answers: AnswerCache | None = None,
    ) -> None:
        self.service = service
        self.settings = settings
        self.max_body = settings.max_body_bytes
        self.client_ip = client_ip
        self.gate = gate
        self.sale = sale  # nothing sample, empty or stale is sold
        self.answers = answers  # repeatable lookups' answers, kept (None: a private service keeps none)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # Who is asking, for the operations that need it (review: per-client limits, operator tokens).
        reset = CURRENT.set(partial(self.request_info, scope))
        try:
            await self._answer(scope[MATCH], scope, receive, send)
        finally:
            CURRENT.reset(reset)

    def request_info(self, scope: dict[str, Any]) -> RequestInfo:
        auth = header(scope, b"authorization")
        return RequestInfo(
            self.service,
            self.client_ip(scope) if self.client_ip else "unknown",
            auth.decode("latin-1") if auth else None,
            self.settings,
        )

    async def _answer(self, match: Match, scope: dict[str, Any], receive: Any, send: Any) -> None:
        op = match.op
        if op.repeatable and self.answers is not None and not match.markdown:
            key = (op.fn, scope["query_string"], *match.captured.values())
            body = await self.answers.answer(op, key, lambda: read_params(match, scope, receive, self.max_body))
            await send_bytes(send, 200, body, head=scope["method"] == "HEAD")
            return
        raw = await read_params(match, scope, receive, self.max_body)
        if op.paid:
            await self._sell(op, raw, scope, send)
            return
        result = await op.call(raw)
        head = scope["method"] == "HEAD"
        if match.markdown:
            assert op.markdown is not None  # the dispatcher matches `.md` only where a renderer is declared
            await send_bytes(send, 200, op.markdown(result).encode(), MARKDOWN, head=head)
            return
        await send_bytes(send, 200, op.dump_json(result), head=head)

    async def _sell(self, op: Operation, raw: dict[str, Any], scope: dict[str, Any], send: Any) -> None:
        if not self.settings.pro_open(self.service, op.path):
            raise Problem(
                403, f"{op.path} of {self.service} is not open; nothing is sold here for now.", kind="not-open"
            )
        params = op.parse(raw)  # bad input gets its 422 before any payment is asked for
        await op.precheck(params)  # and an unknown id its 404
        await self.sale.check(op)  # and sample, empty or stale data its 503: nothing is sold on it
        assert self.gate is not None  # a service with paid routes has a gate wherever pro_open is true
        await self.gate.serve(scope, op, lambda: op.run(params), send)


def _content_type(scope: dict[str, Any]) -> bytes:
    value = header(scope, b"content-type")
    return value.split(b";")[0].strip().lower() if value is not None else b""
