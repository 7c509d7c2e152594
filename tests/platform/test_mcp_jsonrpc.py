"""The MCP endpoint spoken by hand, as curl would: every JSON-RPC error path."""

import orjson
import pytest

pytestmark = pytest.mark.asyncio
URL = "/models/mcp"


async def rpc(client, payload, **headers):
    return await client.post(URL, json=payload, headers=headers)


async def test_initialize_negotiates_version(client):
    r = await rpc(
        client,
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-03-26",
                "capabilities": {},
                "clientInfo": {"name": "curl", "version": "1"},
            },
        },
    )
    result = r.json()["result"]
    assert result["protocolVersion"] == "2025-03-26"
    assert result["capabilities"]["tools"] == {"listChanged": False}
    assert result["serverInfo"]["name"] == "twlookup-models"
    r = await rpc(
        client, {"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"protocolVersion": "1999-01-01"}}
    )
    assert r.json()["result"]["protocolVersion"] == "2025-11-25"


async def test_ping_list_and_call_without_handshake(client):
    assert (await rpc(client, {"jsonrpc": "2.0", "id": "a", "method": "ping"})).json() == {
        "jsonrpc": "2.0",
        "id": "a",
        "result": {},
    }
    tools = (await rpc(client, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"})).json()["result"]["tools"]
    assert all("inputSchema" in t and "outputSchema" in t for t in tools)
    r = await rpc(
        client,
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "get_model", "arguments": {"id": "gpt-4o"}},
        },
    )
    model = r.json()["result"]["structuredContent"]["model"]
    assert model["id"] == "gpt-4o-2024-08-06" and "gpt-4o" in model["aliases"]


async def test_notifications_and_responses_are_accepted_without_body(client):
    r = await rpc(client, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert r.status_code == 202 and r.content == b"" and "content-type" not in r.headers


async def test_batches_for_the_revisions_that_have_them(client):
    batch = [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": "b",
            "method": "tools/call",
            "params": {"name": "get_model", "arguments": {"id": "gpt-4o"}},
        },
        {"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {}},
    ]
    for headers in ({}, {"MCP-Protocol-Version": "2025-03-26"}):
        r = await rpc(client, batch, **headers)
        assert r.status_code == 200
        replies = r.json()
        assert [m["id"] for m in replies] == [1, "b", 3]
        assert replies[0]["result"] == {} and replies[1]["result"]["isError"] is False
        assert replies[2]["error"]["code"] == -32600
    r = await rpc(client, [{"jsonrpc": "2.0", "method": "notifications/initialized"}])
    assert r.status_code == 202 and r.content == b""
    r = await rpc(client, batch, **{"MCP-Protocol-Version": "2025-06-18"})
    assert r.status_code == 400 and r.json()["error"]["code"] == -32600


async def test_origin_rule(settings):
    import httpx

    from twlookup.app import create_app

    app = create_app(settings.model_copy(update={"mcp_allowed_origins": ["https://agent.example"]}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        r = await c.post(URL, json=ping, headers={"Origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["type"].endswith("/origin-not-allowed")
        for origin in ("https://agent.example", "http://127.0.0.1:8000", "http://localhost:8000", None):
            r = await c.post(URL, json=ping, headers={"Origin": origin} if origin else {})
            assert r.status_code == 200, origin
    app = create_app(settings.model_copy(update={"mcp_allowed_origins": ["*"]}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        assert (await c.post(URL, json=ping, headers={"Origin": "https://evil.example"})).status_code == 200


async def test_every_tool_description_opens_with_what_it_does():
    from twlookup.platform.mcp import MCPEndpoint
    from twlookup.services import load_services

    for service in load_services():
        for tool in MCPEndpoint(service, 1 << 20).tools_result["tools"]:
            op = next(o for o in service.tools if o.tool == tool["name"])
            assert tool["description"].startswith(op.summary), tool["name"]
            first = tool["description"].split()[0]
            assert first not in ("Omit", "Note", "See", "Also"), (tool["name"], tool["description"][:60])


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"{oops", 400, -32700),
        (b"[]", 400, -32600),
        (b'{"jsonrpc": "2.0", "id": true, "method": "ping"}', 200, -32600),
        (b'{"jsonrpc": "2.0", "id": null, "method": "ping"}', 200, -32600),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_model", "arguments": [1]}}',
            200,
            -32602,
        ),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_model", "arguments": "id=x"}}',
            200,
            -32602,
        ),
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
    r = await rpc(
        client,
        {
            "jsonrpc": "2.0",
            "id": 5,
            "method": "tools/call",
            "params": {"name": "retirement_calendar", "arguments": {"month": "2027-13"}},
        },
    )
    result = r.json()["result"]
    assert result["isError"] is True
    assert result["content"][0]["text"].startswith("month:")


async def test_unsupported_protocol_header_and_get(client):
    r = await rpc(client, {"jsonrpc": "2.0", "id": 1, "method": "ping"}, **{"MCP-Protocol-Version": "2099-01-01"})
    assert r.status_code == 400 and r.json()["error"]["data"]["supported"]
    r = await client.get(URL)
    assert r.status_code == 405 and r.headers["allow"] == "POST"


async def post_in_pieces(app, *pieces: bytes, complete: bool = True) -> tuple[int, dict]:
    """A POST to the MCP endpoint straight through the ASGI app, its body handed out by receive()
    in the pieces given (httpx's test transport always hands out a last empty piece); not
    `complete`: the client goes away after them."""
    last = len(pieces) - 1 if complete else len(pieces)
    messages = [{"type": "http.request", "body": p, "more_body": i < last} for i, p in enumerate(pieces)]
    sent: list[dict] = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": URL,
        "raw_path": URL.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"t"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("t", 80),
    }
    await app(scope, receive, send)
    return sent[0]["status"], orjson.loads(b"".join(m.get("body", b"") for m in sent[1:]))


async def test_a_body_in_one_piece_or_several_is_read_whole_and_one_past_the_limit_is_refused(app, settings):
    body = b'{"jsonrpc": "2.0", "id": 9, "method": "ping"}'
    limit = settings.max_body_bytes
    at_the_limit, past_it = body + b" " * (limit - len(body)), body + b" " * (limit - len(body) + 1)
    for pieces in ((body,), (body[:10], body[10:30], body[30:]), (body, b""), (at_the_limit,)):
        assert await post_in_pieces(app, *pieces) == (200, {"jsonrpc": "2.0", "id": 9, "result": {}})
    for pieces in ((past_it,), (past_it[:100], past_it[100:])):
        status, answer = await post_in_pieces(app, *pieces)
        assert status == 413 and answer["error"]["code"] == -32600 and f"{limit} bytes" in answer["error"]["message"]
    status, answer = await post_in_pieces(app, body[:10], complete=False)
    assert status == 400 and "disconnected" in answer["error"]["message"]
