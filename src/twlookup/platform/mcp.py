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
description opens with its summary (what it does), then any further notes.

The SDK's types (a large set of pydantic models) are imported, and each service's tool list
built, when the first MCP request reaches that service, in a worker thread: a process that
serves no agent does not load them.
"""

from __future__ import annotations

import logging
import threading
from types import SimpleNamespace
from typing import Any

import orjson
from anyio import to_thread

from twlookup import __version__
from twlookup.platform.errors import Problem
from twlookup.platform.http import header, read_body, send_bytes
from twlookup.platform.operations import Operation
from twlookup.platform.origins import OriginPolicy
from twlookup.platform.service import Service

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
                import mcp.types as types
                from mcp.types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

                _sdk = SimpleNamespace(
                    types=types, versions=HANDSHAKE_PROTOCOL_VERSIONS, latest=LATEST_HANDSHAKE_VERSION
                )
    return _sdk


def _valid_id(ident: Any) -> bool:
    return isinstance(ident, (str, int, float)) and not isinstance(ident, bool)


def tool_description(op: Operation) -> str:
    """What the tool does (its summary) first, then the notes of its docstring, if any."""
    if op.description == op.summary or op.description.startswith(op.summary):
        return op.description
    return f"{op.summary}\n\n{op.description}"


async def _accepted(send: Any) -> None:
    await send({"type": "http.response.start", "status": 202, "headers": [(b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


def _rpc_error(ident: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": ident, "error": error}


def _result(ident: Any, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "result": result}


class MCPEndpoint:
    def __init__(self, service: Service, max_body: int, origins: OriginPolicy | None = None) -> None:
        self.service = service
        self.max_body = max_body
        self.origins = origins or OriginPolicy(["*"])
        self.by_tool: dict[str, Operation] = {op.tool: op for op in service.tools if op.tool}
        instructions = service.description + (f" {service.notice}" if service.notice else "")
        self.instructions = instructions
        self._built: tuple[dict[str, Any], dict[str, Any]] | None = None
        self.sale: Any = None  # the router's SaleCheck: a paid tool on sample, empty or stale data is not sold

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
                name=op.tool,
                title=op.summary,
                description=tool_description(op),
                input_schema=op.params.model_json_schema(),
                output_schema=op.result.model_json_schema(),
                annotations=types.ToolAnnotations(
                    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
                ),
            ).model_dump(by_alias=True, exclude_none=True, mode="json")
            for op in service.tools
            if op.tool
        ]
        server_info = types.Implementation(
            name=f"twlookup-{service.name}", title=service.title, version=__version__
        ).model_dump(by_alias=True, exclude_none=True)
        self._built = ({"tools": tools}, server_info)
        return self._built

    # -- HTTP ---------------------------------------------------------------------------------

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        origin = header(scope, b"origin")
        if not self.origins.allows(origin):
            body = Problem(
                403,
                f"Origin {origin.decode('latin-1')!r} may not call this MCP endpoint "  # type: ignore[union-attr]
                "(the operator lists allowed origins in TWLOOKUP_MCP_ALLOWED_ORIGINS).",
                kind="origin-not-allowed",
            )
            await send_bytes(send, 403, body.render(), b"application/problem+json")
            return
        if scope["method"] != "POST":
            body = Problem(405, "The MCP endpoint takes JSON-RPC messages by POST; this server offers no SSE stream.")
            await send_bytes(send, 405, body.render(), b"application/problem+json", [(b"allow", b"POST")])
            return
        if self._built is None:  # the first MCP request here: load the SDK off the event loop
            await to_thread.run_sync(self._build)
        supported = sdk().versions
        version = header(scope, b"mcp-protocol-version")
        if version is not None and version.decode("latin-1") not in supported:
            err = _rpc_error(
                None,
                INVALID_REQUEST,
                f"Unsupported MCP-Protocol-Version {version.decode('latin-1')!r}",
                {"supported": list(supported)},
            )
            await send_bytes(send, 400, orjson.dumps(err))
            return
        try:
            raw = await read_body(receive, self.max_body)
        except Problem as problem:
            await send_bytes(send, problem.status, orjson.dumps(_rpc_error(None, INVALID_REQUEST, problem.detail)))
            return
        try:
            message = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            await send_bytes(send, 400, orjson.dumps(_rpc_error(None, PARSE_ERROR, f"Parse error: {exc}")))
            return
        if isinstance(message, list):
            await self.batch(message, version, send)
            return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            await send_bytes(send, 400, orjson.dumps(_rpc_error(None, INVALID_REQUEST, "Not a JSON-RPC 2.0 message")))
            return
        if "method" not in message or "id" not in message:
            # a response sent to us (we never ask the client anything) or a notification
            await _accepted(send)
            return
        reply = await self.handle(message)
        await send_bytes(send, 200, orjson.dumps(reply))

    async def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        """One request's reply; a failure of ours is a JSON-RPC internal error, never an HTTP 500."""
        try:
            return await self._handle(message)
        except Exception:
            log.exception("unhandled error in MCP %s of %s", message.get("method"), self.service.name)
            ident = message.get("id")
            return _rpc_error(
                ident if _valid_id(ident) else None, INTERNAL_ERROR, "An internal error occurred; it has been logged."
            )

    async def batch(self, messages: list[Any], version: bytes | None, send: Any) -> None:
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
                replies.append(await self.handle(message))
        if not replies:
            await _accepted(send)
            return
        await send_bytes(send, 200, orjson.dumps(replies))

    # -- JSON-RPC -----------------------------------------------------------------------------

    async def _handle(self, message: dict[str, Any]) -> dict[str, Any]:
        ident = message.get("id")
        method = message.get("method")
        params = message.get("params") or {}
        if not _valid_id(ident):
            return _rpc_error(None, INVALID_REQUEST, "Invalid request: id must be a string or a number")
        if not isinstance(method, str) or not isinstance(params, dict):
            return _rpc_error(ident, INVALID_REQUEST, "Invalid request")
        if method == "tools/call":
            return await self.call_tool(ident, params)
        if method == "tools/list":
            return _result(ident, self.tools_result)
        if method == "initialize":
            return self.initialize(ident, params)
        if method == "ping":
            return _result(ident, {})
        return _rpc_error(ident, METHOD_NOT_FOUND, f"Method not found: {method}")

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

    async def call_tool(self, ident: Any, params: dict[str, Any]) -> dict[str, Any]:
        name = params.get("name")
        op = self.by_tool.get(name) if isinstance(name, str) else None
        if op is None:
            return _rpc_error(ident, INVALID_PARAMS, f"Unknown tool: {name!r}", {"tools": sorted(self.by_tool)})
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return _rpc_error(
                ident, INVALID_PARAMS, f"arguments of tools/call must be an object, not {type(arguments).__name__}"
            )
        try:
            if op.paid and self.sale is not None:  # before any payment: nothing sample, empty or stale is sold
                await self.sale.check(op)
            result = op.dump(await op.call(arguments))
        except Problem as problem:
            if problem.kind == "not-for-sale":  # the tool's own state, not a server fault: a tool error result
                return _result(
                    ident,
                    {
                        "content": [{"type": "text", "text": problem.detail}],
                        "structuredContent": problem.body(),
                        "isError": True,
                        "_meta": {"problem": problem.body()},
                    },
                )
            body = problem.body()
            if problem.status >= 500:  # the server cannot answer now (store down): a JSON-RPC error
                return _rpc_error(ident, INTERNAL_ERROR, problem.detail, {"problem": body})
            return _result(
                ident,
                {"content": [{"type": "text", "text": problem.detail}], "isError": True, "_meta": {"problem": body}},
            )
        text = orjson.dumps(result).decode()
        return _result(
            ident, {"content": [{"type": "text", "text": text}], "structuredContent": result, "isError": False}
        )
