"""MCP over Streamable HTTP, stateless, JSON responses, on the official SDK's `mcp.types` models.

The SDK's own stateless transport answers about a tenth of the requests per second of a plain
route (measured when this was written), so the transport here is a thin JSON-RPC handler; the
messages themselves are the SDK's types. It speaks the handshake-era protocol revisions
(2024-11-05 to 2025-11-25): `initialize`, `ping`, `tools/list`, `tools/call` and notifications.
`server/discover` (the 2026 stateless envelope) is answered "method not found", which the SDK's
client takes as the signal to use the initialize handshake.

Transport rules kept here: a present, disallowed `Origin` is 403 (see platform/origins.py);
JSON-RPC batches are accepted for the revisions that have them (2024-11-05, 2025-03-26, and a
request without MCP-Protocol-Version, which the transport says to read as 2025-03-26) and refused
for later ones; an `id` must be a string or a number (not a boolean, not null); `arguments` of
`tools/call` must be an object; 202 answers carry no body and no content type. Each tool's
description opens with its summary (what it does), then any further notes; its annotations come
from the operation's declaration (`Operation.hints`: read-only unless it writes, open-world when it
calls out).

A tool that fails (bad arguments, an unknown id, an upstream or the store away, a bug of ours) is
a result with `isError: true` whose text is the problem's detail, with tools named where REST names
paths, and whose `structuredContent` is the RFC 9457 problem REST answers with (plus
`retry_after`, in seconds, where REST sends Retry-After). JSON-RPC errors are for protocol faults
only: malformed messages, unknown methods or tools, arguments that are not an object.

Every paid route is a tool too (`pro_<path words>`), priced and paid the x402 way for MCP
(platform/payments/tool_payments.py). A service with a free quota counts tool calls only
(`Billing.over_quota`), never `initialize`, `tools/list`, pings or notifications; past the quota a
tool call answers a readable isError result (the problem, a pass, or x402 for that one call).

The SDK's types (a large set of pydantic models) are imported, and each service's tool list
built, when the first MCP request reaches that service, in a worker thread: a process that
serves no agent does not load them.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import orjson
from anyio import to_thread

from twlookup import __version__
from twlookup.platform.answer_cache import AnswerCache, tool_key
from twlookup.platform.errors import Problem, internal_error, method_not_allowed
from twlookup.platform.http import read_body, send_bytes, send_problem
from twlookup.platform.operations import Operation
from twlookup.platform.origins import OriginPolicy
from twlookup.platform.service import Service
from twlookup.platform.tools import output_schema, tool_description, tool_table
from twlookup.startup import long_lived

if TYPE_CHECKING:
    from twlookup.platform.payments.tool_payments import ToolPayments
    from twlookup.platform.public_origin import PublicOrigin

log = logging.getLogger("twlookup.mcp")
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32601, -32602, -32603
BATCH_VERSIONS = ("2024-11-05", "2025-03-26")  # the revisions whose transport carries JSON-RPC batches
MAX_BATCH = 50
_lock = threading.Lock()
_sdk: SimpleNamespace | None = None


def sdk() -> SimpleNamespace:
    """The SDK's types and protocol versions, imported on first use."""
    global _sdk
    if _sdk is None:
        with _lock:
            if _sdk is None:
                # the SDK's wire types from their own package (`mcp.types` is the same objects, but
                # importing it loads the SDK's client and server too: 27 MB instead of 4 MB)
                import mcp_types as types
                from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

                _sdk = SimpleNamespace(
                    types=types, versions=HANDSHAKE_PROTOCOL_VERSIONS, latest=LATEST_HANDSHAKE_VERSION
                )
                long_lived()
    return _sdk


ID_TYPES = frozenset({str, int, float})  # a JSON-RPC id: a string or a number (a bool is not one)


def _valid_id(ident: Any) -> bool:
    return ident.__class__ in ID_TYPES


@dataclass
class Billing:
    """What the MCP endpoint needs of the service's payments: the paid tools' prices and networks,
    whether each is open, the x402 machinery (None: payments switched off), and the free quota
    (services with one: `over_quota(scope)` counts one call and says whether it is past it)."""

    public: PublicOrigin
    prices: dict[str, str]  # paid path -> USD price
    networks: list[str]
    is_open: Callable[[str], bool]
    payments: ToolPayments | None = None
    over_quota: Callable[[dict[str, Any]], Awaitable[bool]] | None = None
    quota_amount: int = 0
    quota_price: str = ""


async def _accepted(send: Any) -> None:
    await send({"type": "http.response.start", "status": 202, "headers": [(b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


def _rpc_error(ident: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": ident, "error": error}


def _result(ident: Any, result: dict[str, Any] | orjson.Fragment) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "result": result}


class MCPEndpoint:
    def __init__(
        self, service: Service, max_body: int, origins: OriginPolicy | None = None, billing: Billing | None = None
    ) -> None:
        self.service = service
        self.max_body = max_body
        self.origins = origins or OriginPolicy(["*"])
        self.billing = billing
        # the declared tools, then every paid route as a tool (platform/tools.py)
        self.by_tool: dict[str, Operation] = tool_table(service, paid=billing is not None)
        instructions = service.description + (f" {service.notice}" if service.notice else "")
        self.instructions = instructions
        self._built: tuple[dict[str, Any], dict[str, Any]] | None = None
        self.sale: Any = None  # the router's SaleCheck: a paid tool on sample, empty or stale data is not sold
        self._answers: AnswerCache | None = None
        self.counts_calls = billing is not None and billing.over_quota is not None  # a free quota counts tool calls
        self.kept_tools: dict[str, Operation] = {}  # the tools a repeated call of which is given its kept result

    @property
    def answers(self) -> AnswerCache | None:
        """Repeatable lookups' answers, kept (platform/answer_cache.py); None keeps none."""
        return self._answers

    @answers.setter
    def answers(self, cache: AnswerCache | None) -> None:
        self._answers = cache
        # a service with a free quota counts each tool call: its calls always go the ordinary way
        keeps = cache is not None and not self.counts_calls
        self.kept_tools = {name: op for name, op in self.by_tool.items() if op.repeatable} if keeps else {}

    @property
    def tools_result(self) -> dict[str, Any]:
        """The answer to tools/list: every tool with its JSON schemas."""
        return self._build()[0]

    @property
    def server_info(self) -> dict[str, Any]:
        return self._build()[1]

    def _build(self) -> tuple[dict[str, Any], dict[str, Any]]:
        if self._built is not None:
            return self._built
        types = sdk().types
        service = self.service
        tools = [
            types.Tool(
                name=name,
                title=op.summary,
                description=tool_description(op) + self.price_note(op),
                input_schema=op.params.model_json_schema(),
                output_schema=output_schema(op, paid=op.paid and self.billing is not None),
                annotations=types.ToolAnnotations(**op.hints),
                _meta=self.price_meta(op),
            ).model_dump(by_alias=True, exclude_none=True, mode="json")
            for name, op in self.by_tool.items()
        ]
        server_info = types.Implementation(
            name=f"twlookup-{service.name}", title=service.title, version=__version__
        ).model_dump(by_alias=True, exclude_none=True)
        self._built = ({"tools": tools}, server_info)
        long_lived()
        return self._built

    def price_note(self, op: Operation) -> str:
        if not op.paid or self.billing is None:
            return ""
        return (
            f"\n\nPaid: {self.billing.prices[op.path]} (USD, in USDC) per call, by x402 on "
            f"{' or '.join(self.billing.networks)}: a call without payment answers the payment terms "
            "(isError, structuredContent PaymentRequired); an x402 MCP client pays in _meta['x402/payment']. "
            "Nothing is charged when the tool fails."
        )

    def price_meta(self, op: Operation) -> dict[str, Any] | None:
        if not op.paid or self.billing is None:
            return None
        return {
            "x402/price": self.billing.prices[op.path],
            "x402/networks": self.billing.networks,
            "x402/open": self.billing.is_open(op.path),
        }

    # -- HTTP ---------------------------------------------------------------------------------

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        origin = version = None  # the two headers read here, found in one pass (the first of each)
        for key, value in scope["headers"]:
            if key == b"origin":
                origin = value if origin is None else origin
            elif key == b"mcp-protocol-version":
                version = value if version is None else version
        if origin is not None and not self.origins.allows(origin, scope):  # no Origin header: allowed
            body = Problem(
                403,
                f"Origin {origin.decode('latin-1')!r} may not call this MCP endpoint "
                "(the operator lists allowed origins in TWLOOKUP_MCP_ALLOWED_ORIGINS).",
                kind="origin-not-allowed",
            )
            await send_problem(send, body)
            return
        if scope["method"] != "POST":
            note = "The MCP endpoint takes JSON-RPC messages by POST; this server offers no SSE stream."
            await send_problem(send, method_not_allowed(scope["path"], ["POST"], note))
            return
        if self._built is None:  # the first MCP request here: load the SDK off the event loop
            await to_thread.run_sync(self._build)
        if version is not None and version.decode("latin-1") not in (supported := sdk().versions):
            err = _rpc_error(
                None,
                INVALID_REQUEST,
                f"Unsupported MCP-Protocol-Version {version.decode('latin-1')!r}",
                {"supported": list(supported)},
            )
            await send_bytes(send, 400, orjson.dumps(err))
            return
        first = await receive()
        # the whole body in one message (most come so), else read on or refused (http.read_body)
        if (
            first["type"] != "http.request"
            or first.get("more_body", False)
            or len(raw := first.get("body", b"")) > self.max_body
        ):
            try:
                raw = await read_body(receive, self.max_body, first)
            except Problem as problem:
                await send_bytes(send, problem.status, orjson.dumps(_rpc_error(None, INVALID_REQUEST, problem.detail)))
                return
        try:
            message = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            await send_bytes(send, 400, orjson.dumps(_rpc_error(None, PARSE_ERROR, f"Parse error: {exc}")))
            return
        if message.__class__ is dict and (kept := self._kept_reply(message)) is not None:
            await send_bytes(send, 200, kept)  # a repeated lookup: byte for byte what `handle` would send
            return
        if isinstance(message, list):
            await self.batch(message, version, send, scope)
            return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            await send_bytes(send, 400, orjson.dumps(_rpc_error(None, INVALID_REQUEST, "Not a JSON-RPC 2.0 message")))
            return
        if "method" not in message or "id" not in message:
            # a response sent to us (we never ask the client anything) or a notification
            await _accepted(send)
            return
        reply = await self.handle(message, scope)
        await send_bytes(send, 200, orjson.dumps(reply))

    def _kept_reply(self, message: dict[str, Any]) -> bytes | None:
        """The reply to a tools/call of a free repeatable tool asked before with the same
        arguments: the tool result kept for it (platform/answer_cache.py) in the reply's envelope,
        found without awaiting anything. None sends the message the ordinary way (`handle`), which
        checks, counts and answers every other message."""
        params = message.get("params")
        ident = message.get("id")
        if (
            message.get("method") != "tools/call"
            or params.__class__ is not dict
            or ident.__class__ not in ID_TYPES
            or message.get("jsonrpc") != "2.0"
        ):
            return None
        name, arguments = params.get("name"), params.get("arguments")
        op = self.kept_tools.get(name) if name.__class__ is str else None
        if op is None or arguments.__class__ is not dict:
            return None
        kept = self._answers.given(op, tool_key(op, arguments))  # type: ignore[union-attr]  # kept_tools: none without a cache
        if kept is None:
            return None
        return b'{"jsonrpc":"2.0","id":%b,"result":%b}' % (orjson.dumps(ident), kept)

    async def handle(self, message: dict[str, Any], scope: dict[str, Any] | None = None) -> dict[str, Any]:
        """One request's reply; a failure of ours is a JSON-RPC internal error, never an HTTP 500."""
        try:
            ident = message.get("id")
            method = message.get("method")
            params = message.get("params") or {}
            if not _valid_id(ident):
                return _rpc_error(None, INVALID_REQUEST, "Invalid request: id must be a string or a number")
            if not isinstance(method, str) or not isinstance(params, dict):
                return _rpc_error(ident, INVALID_REQUEST, "Invalid request")
            if method == "tools/call":
                return await self.call_tool(ident, params, scope or {})
            if method == "tools/list":
                return _result(ident, self.tools_result)
            if method == "initialize":
                return self.initialize(ident, params)
            if method == "ping":
                return _result(ident, {})
            return _rpc_error(ident, METHOD_NOT_FOUND, f"Method not found: {method}")
        except Exception:
            log.exception("unhandled error in MCP %s of %s", message.get("method"), self.service.name)
            ident = message.get("id")
            return _rpc_error(ident if _valid_id(ident) else None, INTERNAL_ERROR, internal_error().detail)

    async def batch(
        self, messages: list[Any], version: bytes | None, send: Any, scope: dict[str, Any] | None = None
    ) -> None:
        """A JSON-RPC batch, for the revisions that have them; one reply per request in it."""
        if version is not None and version.decode("latin-1") not in BATCH_VERSIONS:
            err = _rpc_error(
                None,
                INVALID_REQUEST,
                f"JSON-RPC batches are part of MCP {' and '.join(BATCH_VERSIONS)} only; send one message per POST",
            )
            await send_bytes(send, 400, orjson.dumps(err))
            return
        if not messages or len(messages) > MAX_BATCH:
            err = _rpc_error(None, INVALID_REQUEST, f"A batch holds 1 to {MAX_BATCH} messages")
            await send_bytes(send, 400, orjson.dumps(err))
            return
        replies = []
        for message in messages:
            if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
                replies.append(_rpc_error(None, INVALID_REQUEST, "Not a JSON-RPC 2.0 message"))
            elif "method" not in message or "id" not in message:
                continue  # notifications and responses get no reply
            elif message.get("method") == "initialize":
                ident = message["id"] if _valid_id(message["id"]) else None
                replies.append(_rpc_error(ident, INVALID_REQUEST, "initialize must not be part of a batch"))
            else:
                replies.append(await self.handle(message, scope))
        if not replies:
            await _accepted(send)
            return
        await send_bytes(send, 200, orjson.dumps(replies))

    # -- JSON-RPC -----------------------------------------------------------------------------

    def initialize(self, ident: Any, params: dict[str, Any]) -> dict[str, Any]:
        requested = params.get("protocolVersion")
        mcp = sdk()
        types = mcp.types
        version = requested if requested in mcp.versions else mcp.latest
        result = types.InitializeResult(
            protocol_version=version,
            capabilities=types.ServerCapabilities(tools=types.ToolsCapability(list_changed=False)),
            server_info=types.Implementation.model_validate(self.server_info),
            instructions=self.instructions,
        )
        return _result(ident, result.model_dump(by_alias=True, exclude_none=True, mode="json"))

    async def call_tool(
        self, ident: Any, params: dict[str, Any], scope: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        name = params.get("name")
        if not isinstance(name, str) or (op := self.by_tool.get(name)) is None:
            return _rpc_error(ident, INVALID_PARAMS, f"Unknown tool: {name!r}", {"tools": sorted(self.by_tool)})
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return _rpc_error(
                ident, INVALID_PARAMS, f"arguments of tools/call must be an object, not {type(arguments).__name__}"
            )
        billing = self.billing
        try:
            if op.paid:
                return _result(ident, await self.call_paid(op, name, arguments, params.get("_meta"), scope or {}))
            if billing is not None and billing.over_quota is not None and await billing.over_quota(scope or {}):
                return _result(ident, await self.past_quota(op, name, arguments, params.get("_meta"), scope or {}))
            if op.repeatable and self.answers is not None:  # kept as the tool result's JSON
                key = tool_key(op, arguments)
                kept = await self.answers.answer(op, key, arguments, _tool_result_json)
                return _result(ident, orjson.Fragment(kept))
            result = _answer(op.dump_json(await op.call(arguments)))
        except Problem as problem:
            return _result(ident, self.tool_error(problem))
        except Exception:  # a bug of ours inside the tool: still the tool's failure, not the protocol's
            log.exception("unhandled error in MCP tool %s of %s", op.tool, self.service.name)
            return _result(ident, self.tool_error(internal_error()))
        return _result(ident, result)

    async def call_paid(
        self, op: Operation, tool: str, arguments: dict[str, Any], meta: Any, scope: dict[str, Any]
    ) -> dict[str, Any]:
        """A paid route as a tool: bad arguments and unknown ids are refused before any payment is
        asked for (as REST does), then x402 for MCP (platform/payments/tool_payments.py)."""
        billing = self.billing
        assert billing is not None
        if billing.payments is None or not billing.is_open(op.path):
            raise Problem(
                403,
                f"The {tool} tool of {self.service.name} is not open; nothing is sold here for now.",
                kind="not-open",
            )
        params = op.parse(arguments)
        await op.precheck(params)
        if self.sale is not None:  # nothing sample, empty or stale is sold: refused before any payment
            await self.sale.check(op)

        async def run() -> dict[str, Any]:
            return _answer(op.dump_json(await op.run(params)))

        return await billing.payments.serve(op, tool, self.resource_url(scope, tool), meta, run)

    async def past_quota(
        self, op: Operation, tool: str, arguments: dict[str, Any], meta: Any, scope: dict[str, Any]
    ) -> dict[str, Any]:
        """A free tool past the client's free quota: a tool error saying so and how to go on (the
        next minute, a pass, or, where payments are on, paying this call by x402 for MCP)."""
        billing = self.billing
        assert billing is not None
        params = op.parse(arguments)
        shop = billing.public.base(scope) + "/pay/pass"
        used_up = f"The free quota of {billing.quota_amount} calls per minute to {self.service.name} is used up."
        with_pass = f"send a pass (the HTTP header Authorization: Bearer <pass>, bought at {shop})"
        if billing.payments is None:
            raise Problem(402, f"{used_up} Wait for the next minute, or {with_pass}.", kind="quota-exceeded")
        problem = Problem(
            402,
            f"{used_up} Wait for the next minute, {with_pass}, or pay this call ({billing.quota_price} by x402).",
            kind="quota-exceeded",
        )

        async def run() -> dict[str, Any]:
            return _answer(op.dump_json(await op.run(params)))

        return await billing.payments.serve(
            op,
            tool,
            self.resource_url(scope, tool),
            meta,
            run,
            price=billing.quota_price,
            why=f"{used_up} Pay this call, or {with_pass}",
            problem=problem.body(),
        )

    def resource_url(self, scope: dict[str, Any], tool: str) -> str:
        """What a paid tool call pays for: this MCP endpoint at the public origin, the tool as fragment."""
        assert self.billing is not None
        return self.billing.public.url(scope, "/mcp") + "#" + tool

    def tool_error(self, problem: Problem) -> dict[str, Any]:
        """A tool execution error as MCP means it (a result with `isError: true`, not a JSON-RPC
        error): the problem's text for the model, and its fields (as REST has them) in
        `structuredContent`. The text names tools where the REST text names paths; a problem with
        Retry-After (an upstream or the store away) says when to try again in `retry_after`."""
        body = problem.body()
        body["detail"] = self.in_tool_words(problem.detail)
        if problem.errors:
            body["errors"] = [dict(e, message=self.in_tool_words(str(e.get("message", "")))) for e in problem.errors]
        retry = problem.headers.get("Retry-After", "")
        if retry.isdigit():
            body["retry_after"] = int(retry)
        return {
            "content": [{"type": "text", "text": body["detail"]}],
            "structuredContent": body,
            "isError": True,
            "_meta": {"problem": body},
        }

    def in_tool_words(self, text: str) -> str:
        """REST paths of this service that a tool answers, named as that tool ("List ids at
        /api/models." becomes "List ids at the list_models tool."); other paths are left."""
        if "/api/" not in text:
            return text

        def named(match: re.Match[str]) -> str:
            tool = self.tool_for_path(match.group("path"))
            return f"the {tool} tool" if tool else match.group(0)

        return _REST_PATH.sub(named, text)

    def tool_for_path(self, path: str) -> str | None:
        path = path.removeprefix(f"/{self.service.name}")
        for op in self.service.tools:
            if op.path == path or (op.pattern is not None and op.pattern.match(path)):
                return op.tool
        return None


def _tool_result_json(result: bytes) -> bytes:
    return orjson.dumps(_answer(result))


def _answer(result: bytes) -> dict[str, Any]:
    """A tool's answer from its JSON (serialized once: the text and, as it is, the structured content)."""
    return {
        "content": [{"type": "text", "text": result.decode()}],
        "structuredContent": orjson.Fragment(result),
        "isError": False,
    }


# A REST path in a message, with its method and query if given ("GET /api/terms", "/api/search?q=...").
_REST_PATH = re.compile(
    r"(?:\b(?:GET|POST) )?(?P<path>(?:/[a-z]+)?/api/[A-Za-z0-9_./{}-]*[A-Za-z0-9_}])(?:\?[^\s,;)]*)?"
)
