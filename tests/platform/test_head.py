"""HEAD answers wherever GET does, with GET's status and headers and no body (RFC 9110 9.3.2):
the index, /healthz, /docs, every service's page, summary, OpenAPI document, docs and text
pages, the pass shop, and every free GET operation. Monitors and link checkers use HEAD."""

import pytest
from fastapi.routing import APIRoute

from twlookup.services import load_services

pytestmark = pytest.mark.asyncio

HTML = {"accept": "text/html"}


async def _same_as_get(client, path: str, headers: dict[str, str] | None = None) -> int:
    got = await client.get(path, headers=headers)
    head = await client.head(path, headers=headers)
    assert head.status_code == got.status_code, (path, head.status_code, got.status_code)
    assert head.content == b"", path
    assert head.headers["content-type"] == got.headers["content-type"], path
    # the length GET sends, or none (RFC 9110 8.6): a HEAD on an operation said 0. (An answer that
    # differs from call to call, a random draw, is left out: two GETs disagree on their length.)
    again = await client.get(path, headers=headers)
    if again.headers.get("content-length") == got.headers.get("content-length"):
        assert head.headers.get("content-length") == got.headers.get("content-length"), path
    return head.status_code


async def test_head_on_the_root_pages(client):
    for path in ("/", "/healthz", "/docs", "/docs/assets/pages.css"):
        assert await _same_as_get(client, path) == 200, path
    assert await _same_as_get(client, "/", HTML) == 200
    r = await client.head("/healthz")
    assert r.status_code == 200 and int(r.headers["content-length"]) > 0  # GET's length, no body


async def test_head_on_every_get_route_of_every_service(client):
    checked = 0
    for service in load_services():
        base = f"/{service.name}"
        for path in ("/", "/docs", "/openapi.json", "/api/pro", *service.text_routes):
            assert await _same_as_get(client, base + path) == 200, base + path
            checked += 1
        assert await _same_as_get(client, base + "/", HTML) == 200
        # the service's own FastAPI GET routes (Service.api), where it has any without parameters
        for route in service.api.routes:
            if isinstance(route, APIRoute) and "GET" in route.methods and "{" not in route.path:
                await _same_as_get(client, base + route.path)
                checked += 1
        # free GET operations: HEAD gets GET's answer (200, or the same 422 for missing parameters)
        for op in service.operations:
            if op.method == "GET" and not op.paid and not op.pattern and not op.is_async:
                await _same_as_get(client, base + op.path)
                checked += 1
    assert checked > 150


async def test_head_on_the_pass_shop_shows_the_challenge(client):
    r = await client.head("/pay/pass")
    assert r.status_code == 402 and r.content == b"" and r.headers["payment-required"]


async def test_other_methods_on_get_routes_are_405_naming_head(client):
    r = await client.delete("/healthz")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    r = await client.post("/pay/pass")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
