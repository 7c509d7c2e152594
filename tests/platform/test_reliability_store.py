"""A store that refuses, hangs or stalls mid-connection: bounded 503s, a /healthz that answers
within a second and says what is down, and routes that need no store keep answering."""

from __future__ import annotations

import asyncio
import os
import time

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.conftest import DATA, postgres_url
from tests.faults import closed_port, silent_listener, stall_proxy
from twlookup.app import create_app
from twlookup.cli import ensure_ready
from twlookup.platform.store import engine as store_engine

FAST = {
    "store_connect_timeout_seconds": 2,
    "store_pool_timeout_seconds": 1,
    "store_statement_timeout_seconds": 1,
    "request_timeout_seconds": 1.5,
    "health_timeout_seconds": 0.5,
    "data_check_seconds": 0,  # every request reads the data version: the store is really asked
}


def client_for(settings, **overrides) -> httpx.AsyncClient:
    app = create_app(settings.model_copy(update={**FAST, **overrides}))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t", timeout=10)


@pytest.fixture
def restore_store(settings):
    yield
    store_engine.configure(settings.database_url, store_engine.StoreTimeouts())
    create_app(settings)  # the process-wide bounds back to the session's settings


async def timed(coro):
    began = time.monotonic()
    r = await coro
    return r, time.monotonic() - began


async def mcp_ping(c: httpx.AsyncClient) -> httpx.Response:
    return await c.post(
        "/models/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        headers={"Accept": "application/json, text/event-stream"},
    )


async def assert_store_down_answers(c: httpx.AsyncClient, request_bound: float) -> None:
    r, took = await timed(c.get("/healthz"))
    assert took < 1.0, f"/healthz took {took:.2f} s"
    body = r.json()
    assert r.status_code == 503 and body["status"] == "unavailable" and "store" in body["down"]
    assert body["checks"]["store"]["status"] == "down"
    r, took = await timed(c.get("/models/api/upcoming"))
    assert r.status_code == 503 and took < request_bound + 1.0, (r.status_code, took)
    assert r.headers["content-type"] == "application/problem+json" and r.headers["retry-after"]
    assert r.json()["type"].endswith("/store-unavailable")
    assert "SELECT" not in r.text and "psycopg" not in r.text
    # what needs no store keeps answering
    r, took = await timed(c.get("/models/openapi.json"))
    assert r.status_code == 200 and took < 1.0
    r, took = await timed(mcp_ping(c))
    assert r.status_code == 200 and r.json()["result"] == {} and took < 1.0


@pytest.mark.asyncio
async def test_store_refusing_connections(settings, restore_store):
    url = f"postgresql+psycopg://postgres@127.0.0.1:{closed_port()}/none"
    async with client_for(settings, database_url=url) as c:
        await assert_store_down_answers(c, FAST["request_timeout_seconds"])
        r = await c.post(
            "/models/mcp",
            json={
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "upcoming_retirements", "arguments": {}},
            },
            headers={"Accept": "application/json, text/event-stream"},
        )
        assert r.status_code == 200
        result = r.json()["result"]  # a tool failure: an isError result with the 503 problem, not -32603
        assert result["isError"] and result["structuredContent"]["status"] == 503


@pytest.mark.asyncio
async def test_store_accepting_and_never_answering(settings, restore_store):
    with silent_listener() as listener:
        url = f"postgresql+psycopg://postgres@127.0.0.1:{listener.port}/none"
        async with client_for(settings, database_url=url) as c:
            await assert_store_down_answers(c, FAST["request_timeout_seconds"])
            # the probe still stuck on the hung connection is not started again
            began = time.monotonic()
            results = await asyncio.gather(*(c.get("/healthz") for _ in range(5)))
            assert time.monotonic() - began < 1.0 and all(r.status_code == 503 for r in results)


@pytest.fixture(scope="module")
def pg_url():
    """A database of these tests' own on the test server, made for this run and dropped after
    (other suites use the shared one, and other branches may migrate it differently)."""
    base = postgres_url()
    if not base:
        pytest.skip("TWLOOKUP_TEST_DATABASE_URL is not set (the stalled-PostgreSQL tests need a server)")
    name = f"twlookup_reliability_{os.getpid()}"
    admin = create_engine(base.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'drop database if exists "{name}" with (force)'))
        conn.execute(text(f'create database "{name}"'))
    url = base.rsplit("/", 1)[0] + "/" + name
    try:
        ensure_ready(url, DATA)
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'drop database if exists "{name}" with (force)'))
        admin.dispose()


@pytest.mark.asyncio
async def test_postgres_stalling_mid_connection_then_recovering(settings, pg_url, restore_store):
    port = int(pg_url.split("@", 1)[1].split("/")[0].split(":")[1])
    with stall_proxy(port) as proxy:
        url = pg_url.replace(f"127.0.0.1:{port}", f"127.0.0.1:{proxy.port}")
        async with client_for(settings, database_url=url) as c:
            assert (await c.get("/models/api/upcoming")).status_code == 200
            assert (await c.get("/healthz")).json()["status"] == "ok"
            proxy.stall()
            await assert_store_down_answers(c, FAST["request_timeout_seconds"])
            # many requests at once: each is bounded, none waits on another's stuck connection
            began = time.monotonic()
            results = await asyncio.gather(*(c.get("/models/api/upcoming") for _ in range(12)))
            assert {r.status_code for r in results} == {503}
            assert time.monotonic() - began < FAST["request_timeout_seconds"] + FAST["store_pool_timeout_seconds"] + 2
            proxy.resume()
            deadline = time.monotonic() + 10
            while (await c.get("/models/api/upcoming")).status_code != 200:
                assert time.monotonic() < deadline, "the app did not recover after the store came back"
                await asyncio.sleep(0.2)
            assert (await c.get("/healthz")).json()["status"] == "ok"


@pytest.mark.asyncio
async def test_postgres_going_away_after_start(settings, pg_url, restore_store):
    port = int(pg_url.split("@", 1)[1].split("/")[0].split(":")[1])
    proxy_cm = stall_proxy(port)
    proxy = proxy_cm.__enter__()
    try:
        url = pg_url.replace(f"127.0.0.1:{port}", f"127.0.0.1:{proxy.port}")
        async with client_for(settings, database_url=url) as c:
            assert (await c.get("/models/api/upcoming")).status_code == 200
            proxy_cm.__exit__(None, None, None)  # every connection dropped, the port closed
            proxy_cm = None
            r = await c.get("/models/api/upcoming")
            assert r.status_code == 503 and r.json()["type"].endswith("/store-unavailable")
            r = await c.post(
                "/models/mcp",
                json={
                    "jsonrpc": "2.0",
                    "id": 3,
                    "method": "tools/call",
                    "params": {"name": "list_models", "arguments": {}},
                },
                headers={"Accept": "application/json, text/event-stream"},
            )
            result = r.json()["result"]
            assert r.status_code == 200 and result["isError"] and result["structuredContent"]["status"] == 503
    finally:
        if proxy_cm is not None:
            proxy_cm.__exit__(None, None, None)


def test_serve_waits_for_an_unreachable_store_then_exits_with_one_line(monkeypatch, capsys, restore_store):
    from twlookup import cli

    url = f"postgresql+psycopg://postgres@127.0.0.1:{closed_port()}/none"
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", url)
    monkeypatch.setenv("TWLOOKUP_STARTUP_WAIT_SECONDS", "1.5")
    from twlookup.settings import get_settings

    get_settings.cache_clear()
    ran = []
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: ran.append(1))
    began = time.monotonic()
    try:
        code = cli.main(["serve"])
    finally:
        get_settings.cache_clear()
    took = time.monotonic() - began
    assert code == 1 and not ran
    assert 1.4 <= took < 6
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "store" in err[0] and "Traceback" not in err[0], err
