"""The MCP endpoint spoken by hand, as curl would: every JSON-RPC error path."""

import pytest

pytestmark = pytest.mark.asyncio
URL = "/models/mcp"


async def rpc(client, payload, **headers):
    return await client.post(URL, json=payload, headers=headers)


async def test_initialize_negotiates_version(client):
    r = await rpc(client, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "curl", "version": "1"}}})
    result = r.json()["result"]
    assert result["protocolVersion"] == "2025-03-26"
    assert result["capabilities"]["tools"] == {"listChanged": False}
    assert result["serverInfo"]["name"] == "twlookup-models"
    r = await rpc(client, {"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"protocolVersion": "1999-01-01"}})
    assert r.json()["result"]["protocolVersion"] == "2025-11-25"


async def test_ping_list_and_call_without_handshake(client):
    assert (await rpc(client, {"jsonrpc": "2.0", "id": "a", "method": "ping"})).json() == {"jsonrpc": "2.0", "id": "a", "result": {}}
    tools = (await rpc(client, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"})).json()["result"]["tools"]
    assert all("inputSchema" in t and "outputSchema" in t for t in tools)
    r = await rpc(client, {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "get_model", "arguments": {"id": "gpt-4o"}}})
    model = r.json()["result"]["structuredContent"]["model"]
    assert model["id"] == "gpt-4o-2024-08-06" and "gpt-4o" in model["aliases"]


async def test_notifications_and_responses_are_accepted_without_body(client):
    r = await rpc(client, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert r.status_code == 202 and r.content == b""


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"{oops", 400, -32700),
        (b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', 400, -32600),
        (b'{"jsonrpc": "1.0", "id": 1, "method": "ping"}', 400, -32600),
        (b'{"jsonrpc": "2.0", "id": 1, "method": 5}', 200, -32600),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "resources/list"}', 200, -32601),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "server/discover"}', 200, -32601),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "nope"}}', 200, -32602),
    ],
)
async def test_jsonrpc_errors(client, body, status, code):
    r = await client.post(URL, content=body, headers={"content-type": "application/json"})
    assert r.status_code == status
    assert r.json()["error"]["code"] == code


async def test_bad_tool_arguments_are_tool_errors(client):
    r = await rpc(client, {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "retirement_calendar", "arguments": {"month": "2027-13"}}})
    result = r.json()["result"]
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith("month:")


async def test_unsupported_protocol_header_and_get(client):
    r = await rpc(client, {"jsonrpc": "2.0", "id": 1, "method": "ping"}, **{"MCP-Protocol-Version": "2099-01-01"})
    assert r.status_code == 400 and r.json()["error"]["data"]["supported"]
    r = await client.get(URL)
    assert r.status_code == 405 and r.headers["allow"] == "POST"
