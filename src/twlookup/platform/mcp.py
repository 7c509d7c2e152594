"""MCP over Streamable HTTP, stateless, JSON responses, on the official SDK's `mcp.types` models.

The SDK's own stateless transport answers about a tenth of the requests per second of a plain
route (measured when this was written), so the transport here is a thin JSON-RPC handler; the
messages themselves are the SDK's types. It speaks the handshake-era protocol revisions
(2024-11-05 to 2025-11-25): `initialize`, `ping`, `tools/list`, `tools/call` and notifications.
`server/discover` (the 2026 stateless envelope) is answered "method not found", which the SDK's
client takes as the signal to use the initialize handshake.
"""

from __future__ import annotations

from typing import Any

import mcp.types as types
import orjson
from mcp.types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

from twlookup import __version__
from twlookup.platform.errors import Problem
from twlookup.platform.http import header, read_body, send_bytes
from twlookup.platform.operations import Operation
from twlookup.platform.service import Service

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32601, -32602, -32603


def _rpc_error(ident: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": ident, "error": error}


def _result(ident: Any, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "result": result}


class MCPEndpoint:
    def __init__(self, service: Service, max_body: int) -> None:
        self.service = service
        self.max_body = max_body
        self.by_tool: dict[str, Operation] = {op.tool: op for op in service.tools if op.tool}
        tools = [
            types.Tool(
                name=op.tool,
                title=op.summary,
                description=op.description,
                input_schema=op.params.model_json_schema(),
                output_schema=op.result.model_json_schema(),
                annotations=types.ToolAnnotations(
                    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
                ),
            ).model_dump(by_alias=True, exclude_none=True, mode="json")
            for op in service.tools
            if op.tool
        ]
        self.tools_result = {"tools": tools}
        self.server_info = types.Implementation(
            name=f"twlookup-{service.name}", title=service.title, version=__version__
        ).model_dump(by_alias=True, exclude_none=True)
        instructions = service.description + (f" {service.notice}" if service.notice else "")
        self.instructions = instructions

    # -- HTTP ---------------------------------------------------------------------------------

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["method"] != "POST":
            body = Problem(405, "The MCP endpoint takes JSON-RPC messages by POST; this server offers no SSE stream.")
            await send_bytes(send, 405, body.render(), b"application/problem+json", [(b"allow", b"POST")])
            return
        version = header(scope, b"mcp-protocol-version")
        if version is not None and version.decode("latin-1") not in HANDSHAKE_PROTOCOL_VERSIONS:
            err = _rpc_error(
                None,
                INVALID_REQUEST,
                f"Unsupported MCP-Protocol-Version {version.decode('latin-1')!r}",
                {"supported": list(HANDSHAKE_PROTOCOL_VERSIONS)},
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
            err = _rpc_error(None, INVALID_REQUEST, "JSON-RPC batches are not supported; send one message per POST")
            await send_bytes(send, 400, orjson.dumps(err))
            return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            await send_bytes(send, 400, orjson.dumps(_rpc_error(None, INVALID_REQUEST, "Not a JSON-RPC 2.0 message")))
            return
        if "method" not in message:
            # A response or error sent to us: we never ask the client anything, so just accept it.
            await send_bytes(send, 202, b"")
            return
        if "id" not in message:
            await send_bytes(send, 202, b"")  # notification: accepted, no body
            return
        reply = self.handle(message)
        status = 200
        await send_bytes(send, status, orjson.dumps(reply))

    # -- JSON-RPC -----------------------------------------------------------------------------

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        ident = message.get("id")
        method = message.get("method")
        params = message.get("params") or {}
        if not isinstance(method, str) or not isinstance(params, dict) or not isinstance(ident, (str, int)):
            return _rpc_error(ident if isinstance(ident, (str, int)) else None, INVALID_REQUEST, "Invalid request")
        if method == "tools/call":
            return self.call_tool(ident, params)
        if method == "tools/list":
            return _result(ident, self.tools_result)
        if method == "initialize":
            return self.initialize(ident, params)
        if method == "ping":
            return _result(ident, {})
        return _rpc_error(ident, METHOD_NOT_FOUND, f"Method not found: {method}")

    def initialize(self, ident: Any, params: dict[str, Any]) -> dict[str, Any]:
        requested = params.get("protocolVersion")
        version = requested if requested in HANDSHAKE_PROTOCOL_VERSIONS else LATEST_HANDSHAKE_VERSION
        result = types.InitializeResult(
            protocol_version=version,
            capabilities=types.ServerCapabilities(tools=types.ToolsCapability(list_changed=False)),
            server_info=types.Implementation.model_validate(self.server_info),
            instructions=self.instructions,
        )
        return _result(ident, result.model_dump(by_alias=True, exclude_none=True, mode="json"))

    def call_tool(self, ident: Any, params: dict[str, Any]) -> dict[str, Any]:
        name = params.get("name")
        op = self.by_tool.get(name) if isinstance(name, str) else None
        if op is None:
            return _rpc_error(ident, INVALID_PARAMS, f"Unknown tool: {name!r}", {"tools": sorted(self.by_tool)})
        arguments = params.get("arguments") or {}
        try:
            result = op.dump(op.call(arguments))
        except Problem as problem:
            body = problem.body()
            return _result(
                ident,
                {"content": [{"type": "text", "text": problem.detail}], "isError": True, "_meta": {"problem": body}},
            )
        text = orjson.dumps(result).decode()
        return _result(
            ident, {"content": [{"type": "text", "text": text}], "structuredContent": result, "isError": False}
        )
