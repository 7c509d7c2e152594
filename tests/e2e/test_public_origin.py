"""One public origin: every absolute URL the server writes (the 402's resource.url, OpenAPI
`servers`, llms.txt, the pages, the MCP endpoint's own origin) is the URL the client used, on a
server started with `twlookup serve --port N` (N not 8000), with X-Forwarded-* believed only from
a trusted proxy; TWLOOKUP_PUBLIC_URL, when set, wins."""

from __future__ import annotations

import base64
import json

import httpx
import pytest
from conftest import copy_store
from mcp import Client
from served import serve

from twlookup.app import create_app

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]
PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "api.example.com"}


@pytest.fixture(scope="module")
def server(template_store, tmp_path_factory):
    folder = tmp_path_factory.mktemp("origin")
    with serve(copy_store(template_store, folder), folder / "serve.log") as base:
        yield base


def _challenge_url(r: httpx.Response) -> str:
    assert r.status_code == 402, r.text
    header = json.loads(base64.b64decode(r.headers["payment-required"]))
    assert header["resource"]["url"] == r.json()["resource"]["url"]
    return r.json()["resource"]["url"]


async def test_a_server_on_another_port_names_that_port(server):
    port = server.rsplit(":", 1)[1]
    async with httpx.AsyncClient(base_url=server, timeout=60) as http:
        r = await http.get("/models/api/pro/export")
        assert _challenge_url(r) == f"{server}/models/api/pro/export"
        r = await http.get("/price/api/pro/export/vegetables")
        assert _challenge_url(r) == f"{server}/price/api/pro/export/vegetables"
        doc = (await http.get("/models/openapi.json")).json()
        assert doc["servers"] == [{"url": f"{server}/models"}]
        text = (await http.get("/price/llms.txt")).text
        assert f"{server}/price/api/category/vegetables.md" in text and ":8000" not in text
        page = (await http.get("/models/", headers={"accept": "text/html"})).text
        assert f"{server}/models/mcp" in page and ":8000" not in page
        index = (await http.get("/", headers={"accept": "text/html"})).text
        assert f"{server}/models/mcp" in index
        # the MCP endpoint accepts a page of the server's own origin, by IP and by localhost
        for origin in (server, f"http://localhost:{port}"):
            host = origin.removeprefix("http://")
            r = await http.post("/models/mcp", json=PING, headers={"Origin": origin, "Host": host})
            assert r.status_code == 200, (origin, r.text)
        # and refuses another origin, and a host name a DNS-rebinding page would send
        r = await http.post("/models/mcp", json=PING, headers={"Origin": "http://127.0.0.1:8000"})
        assert r.status_code == 403
        # a host name a DNS-rebinding page sends as Host is not taken as ours (passed on by a proxy too)
        rebound = f"rebind.example:{port}"
        r = await http.post("/models/mcp", json=PING, headers={"Origin": f"http://{rebound}", "Host": rebound})
        assert r.status_code == 403
    # the official client, as a browser-hosted agent of the same origin would send it
    async with Client(f"{server}/models/mcp") as mcp:
        assert (await mcp.list_tools()).tools


async def test_forwarded_headers_from_a_trusted_proxy_only(server):
    # the test is the trusted proxy (127.0.0.1); a client from 127.0.0.2 is a direct peer
    async with httpx.AsyncClient(base_url=server, timeout=60) as proxy:
        r = await proxy.get("/models/api/pro/export", headers=FORWARDED)
        assert _challenge_url(r) == "https://api.example.com/models/api/pro/export"
        r = await proxy.get("/models/api/pro/export", headers=dict(FORWARDED, **{"X-Forwarded-Port": "8443"}))
        assert _challenge_url(r) == "https://api.example.com:8443/models/api/pro/export"
        doc = (await proxy.get("/models/openapi.json", headers=FORWARDED)).json()
        assert doc["servers"] == [{"url": "https://api.example.com/models"}]
        r = await proxy.post("/models/mcp", json=PING, headers=dict(FORWARDED, Origin="https://api.example.com"))
        assert r.status_code == 200
        # a forwarded value that is not a plain host is ignored, never written into a URL
        bad = {"X-Forwarded-Host": "evil.example/path?x=<script>", "X-Forwarded-Proto": "javascript"}
        r = await proxy.get("/models/api/pro/export", headers=bad)
        assert _challenge_url(r) == f"{server}/models/api/pro/export"
    direct = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=server, transport=direct, timeout=60) as peer:
        r = await peer.get("/models/api/pro/export", headers=FORWARDED)
        assert _challenge_url(r) == f"{server}/models/api/pro/export"
        r = await peer.post("/models/mcp", json=PING, headers=dict(FORWARDED, Origin="https://api.example.com"))
        assert r.status_code == 403
        r = await peer.post("/models/mcp", json=PING, headers={"Origin": server})  # its own origin, by IP
        assert r.status_code == 200


async def test_the_configured_public_url_wins(settings):
    app = create_app(settings.model_copy(update={"public_url": "https://tw.example.org/lookup/"}))
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://10.0.0.5:9000") as c:
        r = await c.get("/models/api/pro/export", headers=FORWARDED)
        assert _challenge_url(r) == "https://tw.example.org/lookup/models/api/pro/export"
        doc = (await c.get("/models/openapi.json")).json()
        assert doc["servers"] == [{"url": "https://tw.example.org/lookup/models"}]
        r = await c.post("/models/mcp", json=PING, headers={"Origin": "https://tw.example.org"})
        assert r.status_code == 200
