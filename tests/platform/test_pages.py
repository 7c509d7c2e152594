"""Pages for people: HTML for browsers at / and /<name>/, JSON for everyone else, docs from this origin."""

from __future__ import annotations

import json
import re

import httpx
import pytest
import service_examples
from starlette.requests import Request

from twlookup.app import create_app
from twlookup.platform import pages
from twlookup.services import CATALOG, IMPLEMENTED, load_services

BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"}
INDEX_KEYS = {"name", "version", "services"}
AVAILABLE_KEYS = {"name", "subject", "state", "base", "host", "docs", "openapi", "mcp", "tools", "paid_routes"}
FEED_KEYS = {"status", "feeds"}  # services with live feeds also point at their status and summarise each feed
WITH_FEEDS = {s.name for s in load_services() if s.feeds}
SUMMARY_KEYS = {
    "name",
    "title",
    "description",
    "notice",
    "base",
    "docs",
    "openapi",
    "mcp",
    "tools",
    "routes",
    "text_pages",
}


def request(accept: str | None) -> Request:
    headers = [] if accept is None else [(b"accept", accept.encode())]
    return Request({"type": "http", "method": "GET", "path": "/", "headers": headers, "query_string": b""})


@pytest.mark.parametrize(
    ("accept", "html"),
    [
        (None, False),
        ("", False),
        ("*/*", False),
        ("application/json", False),
        ("application/json, text/html", False),  # a tie keeps today's JSON
        ("text/html;q=0.9, application/json", False),
        ("text/html, application/json;q=0.9", True),
        (BROWSER["accept"], True),
        ("text/html", True),
        ("application/xhtml+xml", True),
        ("TEXT/HTML; charset=utf-8", True),
        ("text/html;q=0", False),
        ("text/html;q=abc, */*", False),  # an unreadable quality counts as refusal
        ("text/html, application/*;q=1", False),
        ("text/plain, */*;q=0.1", False),
    ],
)
def test_wants_html(accept, html):
    assert pages.wants_html(request(accept)) is html


def _loads_only_this_origin(html: str) -> None:
    """Everything a page loads (script src, link href of stylesheets and icons) is a path here."""
    loaded = re.findall(r'<(?:script|img|iframe)[^>]*\ssrc="([^"]*)"', html) + re.findall(
        r'<link[^>]*\shref="([^"]*)"', html
    )
    assert loaded
    assert all(url.startswith("/") and not url.startswith("//") for url in loaded), loaded
    assert "http://" not in html.split("<body", 1)[0] and "https://" not in html.split("<body", 1)[0]


@pytest.mark.parametrize("headers", [{}, {"accept": "*/*"}, {"accept": "application/json"}])
async def test_json_clients_get_the_same_json(client, headers):
    r = await client.get("/", headers=headers)
    assert r.headers["content-type"] == "application/json" and r.headers["vary"] == "Accept"
    index = r.json()
    assert set(index) == INDEX_KEYS
    assert [s["name"] for s in index["services"]] == [e.name for e in CATALOG]
    for item in index["services"]:
        expected = AVAILABLE_KEYS | (FEED_KEYS if item["name"] in WITH_FEEDS else set())
        assert set(item) == (expected if item["name"] in IMPLEMENTED else {"name", "subject", "state"})
        for feed in item.get("feeds", []):
            assert feed["feed"].startswith(item["name"] + ".") and {
                "last_success",
                "last_attempt",
                "last_error",
                "data_age_days",
                "stale",
            } <= set(feed)
    assert {
        "cardgame",
        "creator",
        "food",
        "games",
        "life",
        "models",
        "motion",
        "movie",
        "opinions",
        "price",
        "seo",
        "stocks",
        "trip",
    } == WITH_FEEDS
    r = await client.get("/models/", headers=headers)
    assert r.headers["content-type"] == "application/json" and r.headers["vary"] == "Accept"
    summary = r.json()
    assert set(summary) == SUMMARY_KEYS and summary["base"] == "/models" and "get_model" in summary["tools"]


async def test_index_page_for_browsers(client):
    r = await client.get("/", headers=BROWSER)
    assert r.status_code == 200 and r.headers["content-type"] == "text/html; charset=utf-8"
    assert r.headers["vary"] == "Accept" and "default-src 'none'" in r.headers["content-security-policy"]
    html = r.text
    _loads_only_this_origin(html)
    assert '<html lang="en">' in html and '<main id="main">' in html
    for entry in CATALOG:
        assert f'<h3 id="{entry.name}">{entry.name} <span lang="zh-Hant-TW">{entry.zh}</span>' in html
        state = "available" if entry.name in IMPLEMENTED else "planned"
        assert f'<span class="state {state}">{state}</span>' in html
    available, _planned = html.split('<h2 id="planned">')
    assert all(f'id="{n}"' in available for n in IMPLEMENTED)
    assert not any(f'id="{e.name}"' in available for e in CATALOG if e.name not in IMPLEMENTED)
    assert f"{len(IMPLEMENTED)} of 20 are available now" in html
    # links, MCP snippet with this server's address, paid routes with price and network
    assert '<a href="/models/docs">API docs</a>' in html and '<a href="/models/openapi.json">OpenAPI</a>' in html
    snippet = re.search(
        r'<pre data-copy aria-label="MCP configuration for models" tabindex="0">(.*?)</pre>', html, re.S
    )
    assert snippet is not None
    config = json.loads(snippet.group(1).replace("&quot;", '"'))
    assert config == {"mcpServers": {"twlookup-models": {"type": "http", "url": "http://testserver/models/mcp"}}}
    assert "<code>GET /models/api/pro/export</code>: $0.05 (open)" in html
    assert "Paid with x402 in USDC on Base (eip155:8453)." in html
    assert "in-process test ledger" in html


async def test_service_page_for_browsers(client):
    r = await client.get("/models/", headers=BROWSER)
    assert (
        r.status_code == 200
        and r.headers["content-type"] == "text/html; charset=utf-8"
        and r.headers["vary"] == "Accept"
    )
    html = r.text
    _loads_only_this_origin(html)
    assert '<h1>models <span lang="zh-Hant-TW">AI 模型退役時程</span></h1>' in html
    assert '<a href="/">All twlookup services</a>' in html
    service = next(s for s in load_services() if s.name == "models")
    for op in service.operations:
        assert f"<code>{op.method} /models{op.path}</code>" in html
    for op in service.tools:
        assert f"MCP tool <code>{op.tool}</code>" in html
    # example calls: runnable where no parameter is required, placeholders where one is
    assert "curl &#x27;http://testserver/models/api/models&#x27;" in html
    assert "curl &#x27;http://testserver/models/api/model?id=&lt;id&gt;&#x27;" in html
    assert (
        "curl -X POST -H &#x27;Content-Type: application/json&#x27; -d &#x27;{&quot;text&quot;: &quot;&lt;text&gt;&quot;}&#x27;"
        in html
    )
    assert ".md" not in html  # models has no Markdown pages
    assert "<code>GET /models/api/pro/export</code> · $0.05 (open)" in html
    assert "Paid with x402 in USDC on Base (eip155:8453); without payment a paid route answers 402" in html
    assert "&quot;url&quot;: &quot;http://testserver/models/mcp&quot;" in html


async def test_service_page_examples_use_allowed_values_and_notice(client):
    life = (await client.get("/life/", headers=BROWSER)).text
    assert (
        "curl &#x27;http://testserver/life/api/lottery/lotto649&#x27;" in life
    )  # enum path parameter: its first value
    assert "/life/api/invoice/&lt;period&gt;" in life  # free text path parameter stays a placeholder
    price = (await client.get("/price/", headers=BROWSER)).text
    assert '<a href="/price/api/categories.md">Markdown page</a>' in price
    assert "also as Markdown at <code>/price/api/search.md</code>" in price  # q is required
    health = (await client.get("/health/", headers=BROWSER)).text
    service = next(s for s in load_services() if s.name == "health")
    assert service.notice and f"<strong>{service.notice}</strong>" in health.replace("&#x27;", "'")


@pytest.mark.parametrize("base", ["", "/models", "/life"])
async def test_docs_pages_load_only_from_this_origin(client, base):
    r = await client.get(f"{base}/docs")
    assert r.status_code == 200 and r.headers["content-type"] == "text/html; charset=utf-8"
    assert "script-src 'self'" in r.headers["content-security-policy"]
    html = r.text
    _loads_only_this_origin(html)
    assert f'data-openapi="{base}/openapi.json"' in html
    assert f'<script src="{base}/docs/assets/swagger-ui-bundle.js"></script>' in html
    assert "<script>" not in html  # no inline script: the CSP allows only this origin's files
    for name, media in [
        ("swagger-ui-bundle.js", "text/javascript"),
        ("swagger-ui.css", "text/css"),
        ("docs.js", "text/javascript"),
        ("pages.css", "text/css"),
        ("copy.js", "text/javascript"),
        ("favicon.png", "image/png"),
    ]:
        asset = await client.get(f"{base}/docs/assets/{name}")
        assert asset.status_code == 200 and asset.headers["content-type"].startswith(media), name
        assert asset.headers["cache-control"] == pages.ASSET_CACHE
        assert len(asset.content) > 100
    assert b"SwaggerUIBundle" in (await client.get(f"{base}/docs/assets/swagger-ui-bundle.js")).content
    assert (
        b"validatorUrl: null" in (await client.get(f"{base}/docs/assets/docs.js")).content
    )  # no badge from validator.swagger.io
    missing = await client.get(f"{base}/docs/assets/../../etc/passwd")
    assert missing.status_code == 404
    missing = await client.get(f"{base}/docs/assets/swagger-ui.js")
    assert missing.status_code == 404 and missing.headers["content-type"] == "application/problem+json"
    assert "swagger-ui-bundle.js" in missing.json()["detail"]


async def test_service_at_its_own_host(settings, monkeypatch):
    monkeypatch.setenv("TWLOOKUP_HOST_MODELS", "models.example.test")
    app = create_app(settings)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://models.example.test") as c:
        page = (await c.get("/", headers=BROWSER)).text
        assert "All twlookup services" not in page  # this host has no index
        assert '<link rel="stylesheet" href="/docs/assets/pages.css">' in page
        assert "http://models.example.test/mcp" in page
        assert (await c.get("/docs/assets/pages.css")).status_code == 200
        assert 'data-openapi="/openapi.json"' in (await c.get("/docs")).text
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        index = (await c.get("/", headers=BROWSER)).text
        assert '<dt>Host</dt><dd><a href="https://models.example.test/">https://models.example.test/</a></dd>' in index


async def test_payment_notes_follow_the_settings(settings):
    off = settings.model_copy(update={"payments_enabled": False})
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(off)), base_url="http://testserver") as c:
        index = (await c.get("/", headers=BROWSER)).text
        assert "Payments are switched off on this server" in index
        assert "<code>GET /models/api/pro/export</code>: $0.05 (not open now)" in index
        service = (await c.get("/models/", headers=BROWSER)).text
        assert "Payments are switched off on this server" in service
        assert "<code>GET /models/api/pro/export</code> · $0.05 (not open now)" in service


async def test_unknown_paths_stay_json(client):
    r = await client.get("/no-such-service/", headers=BROWSER)  # no app: the root's 404 problem, even for a browser
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"


@pytest.mark.parametrize("name", IMPLEMENTED)
async def test_every_service_page_renders_and_its_runnable_examples_answer(client, name):
    r = await client.get(f"/{name}/", headers=BROWSER)
    assert r.status_code == 200 and r.headers["content-type"] == "text/html; charset=utf-8", r.text[:300]
    service = next(s for s in load_services() if s.name == name)
    runnable = 0
    rules = service_examples.cross_parameter_rules(name)  # a rule no schema states may still refuse it
    for op in service.operations:
        example = pages._example(op, f"/{name}", "http://testserver")
        assert escape_html(example) in r.text
        if op.method != "GET" or op.paid or "<" in example:
            continue
        url = example.removeprefix("curl '").removesuffix("'")
        answer = await client.get(url)
        if getattr(op.fn, "__twlookup_auth__", None) == "operator":  # review queue: operators only
            assert answer.status_code == 401, (url, answer.text[:300])
            continue
        assert answer.status_code in ((200, 422) if op.path in rules else (200,)), (url, answer.text[:300])
        runnable += 1
    assert runnable >= 1


def escape_html(text: str) -> str:
    from html import escape

    return escape(text)
