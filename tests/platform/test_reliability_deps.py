"""Redis and the facilitator refusing, hanging or stalling: no route answers 500, nothing waits
past its bound, /healthz says what is down, and free routes are unaffected."""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx
import pytest
from anyio import to_thread
from pydantic import BaseModel

from tests.conftest import redis_url
from tests.faults import closed_port, silent_listener, stall_proxy
from twlookup.app import create_app
from twlookup.platform.store.reference import Reference

from .test_payments_gate import shop

pytestmark = pytest.mark.asyncio


def client_for(settings, services=None, ip: str = "10.9.8.7", **overrides) -> httpx.AsyncClient:
    app = create_app(settings.model_copy(update=overrides), services=services)
    transport = httpx.ASGITransport(app=app, client=(ip, 1))
    return httpx.AsyncClient(transport=transport, base_url="http://t", timeout=10)


async def timed(coro):
    began = time.monotonic()
    r = await coro
    return r, time.monotonic() - began


# -- Redis --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fault", ["refused", "silent"])
async def test_redis_down_allows_and_logs_by_default(settings, fault, caplog):
    with silent_listener() as listener:
        port = listener.port if fault == "silent" else closed_port()
        async with client_for(settings, redis_url=f"redis://127.0.0.1:{port}/0", redis_timeout_seconds=0.2) as c:
            await to_thread.run_sync(Reference.refresh)  # every cache warm: time the limiter only
            for _ in range(3):
                r, took = await timed(c.get("/models/api/upcoming"))
                assert r.status_code == 200 and took < 1.0
            r, took = await timed(c.get("/healthz"))
            assert took < 1.0 and r.status_code == 200
            body = r.json()
            assert body["status"] == "degraded" and body["down"] == ["rate_limit"]
            assert body["checks"]["rate_limit"]["when_down"] == "allow"
    assert any("rate-limit store (Redis) unavailable" in m for m in caplog.messages)


async def test_redis_down_refuse_and_local_modes(settings):
    url = f"redis://127.0.0.1:{closed_port()}/0"
    async with client_for(settings, redis_url=url, rate_limit_on_store_error="refuse") as c:
        r = await c.get("/models/api/upcoming")
        assert r.status_code == 503 and r.headers["content-type"] == "application/problem+json"
        assert r.json()["type"].endswith("/rate-limit-unavailable") and int(r.headers["retry-after"]) >= 1
    async with client_for(
        settings, redis_url=url, rate_limit_on_store_error="local", rate_limit_default="2/minute"
    ) as c:
        codes = [(await c.get("/models/api/upcoming")).status_code for _ in range(3)]
        assert codes == [200, 200, 429]


async def test_redis_stalling_mid_connection(settings):
    base = redis_url()
    if not base:
        pytest.skip("TWLOOKUP_TEST_REDIS_URL is not set (the stalled-Redis test needs a server)")
    port = int(base.split("://", 1)[1].split("/")[0].split(":")[1])
    with stall_proxy(port) as proxy:
        url = f"redis://127.0.0.1:{proxy.port}/11"  # a db number of its own
        ip = f"10.{uuid.uuid4().int % 250}.7.7"
        async with client_for(
            settings, ip=ip, redis_url=url, rate_limit_default="1000/minute", redis_retry_seconds=0.5
        ) as c:
            assert (await c.get("/models/api/upcoming")).status_code == 200
            assert (await c.get("/healthz")).json()["status"] == "ok"
            proxy.stall()
            r, took = await timed(c.get("/models/api/upcoming"))
            assert r.status_code == 200 and took < 1.0
            r, took = await timed(c.get("/healthz"))
            assert took < 1.0 and r.json()["down"] == ["rate_limit"]
            proxy.resume()
            await asyncio.sleep(0.6)
            deadline = time.monotonic() + 5
            while (await c.get("/healthz")).json()["status"] != "ok":
                assert time.monotonic() < deadline
                await asyncio.sleep(0.2)


# -- the facilitator ----------------------------------------------------------------------------


async def test_hanging_facilitator_is_bounded_remembered_and_blocks_nothing(settings):
    with silent_listener() as listener:
        overrides = {
            "facilitator": "remote",
            "facilitator_url": f"http://127.0.0.1:{listener.port}",
            "facilitator_timeout_seconds": 0.5,
        }
        async with client_for(settings, services=[shop()], **overrides) as c:
            paid = asyncio.ensure_future(c.get("/bikes/api/pro/item?n=1"))
            await asyncio.sleep(0.05)
            # while the first paid request waits on the facilitator, the rest of the app answers
            r, took = await timed(c.get("/bikes/openapi.json"))
            assert r.status_code == 200 and took < 0.4
            r, took = await timed(c.get("/healthz"))
            assert r.status_code == 200 and took < 0.4
            r = await paid
            assert r.status_code == 503 and r.json()["type"].endswith("/facilitator-unavailable")
            # the failure is remembered: the next paid request is refused at once, with Retry-After
            r, took = await timed(c.get("/bikes/api/pro/item?n=1"))
            assert r.status_code == 503 and took < 0.2 and int(r.headers["retry-after"]) >= 1
            health = (await c.get("/healthz")).json()
            assert health["checks"]["facilitator"]["status"] == "down"
            assert len(listener.conns) == 1  # one attempt, not one per request


async def test_refusing_facilitator_backs_off(settings):
    overrides = {"facilitator": "remote", "facilitator_url": f"http://127.0.0.1:{closed_port()}"}
    async with client_for(settings, services=[shop()], **overrides) as c:
        for _ in range(3):
            r, took = await timed(c.get("/bikes/api/pro/item?n=1"))
            assert r.status_code == 503 and took < 1.0
        assert (await c.get("/healthz")).status_code == 200  # the store is fine; payments are degraded


# -- the request bound --------------------------------------------------------------------------


class Out(BaseModel):
    ok: bool


def slow_service():
    from twlookup.platform.service import Service

    service = Service(name="slow", title="t", description="a service whose operations hang")

    @service.operation("GET", "/api/async", tool="hang_async")
    async def hang_async() -> Out:
        """Waits on an upstream that never answers."""
        await asyncio.sleep(30)
        return Out(ok=True)

    @service.operation("GET", "/api/sync", blocking=True)  # slow work is declared blocking: it runs in a thread
    def hang_sync() -> Out:
        """Blocks in its worker thread."""
        time.sleep(3)
        return Out(ok=True)

    return service


async def test_operations_past_the_request_bound_answer_503(settings):
    async with client_for(settings, services=[slow_service()], request_timeout_seconds=0.3) as c:
        r, took = await timed(c.get("/slow/api/async"))
        assert (
            r.status_code == 503 and took < 1.5 and r.json()["type"].endswith("/timeout") and r.headers["retry-after"]
        )
        r, took = await timed(c.get("/slow/api/sync"))
        assert r.status_code == 503 and took < 1.5 and r.json()["type"].endswith("/store-unavailable")
        r = await c.post(
            "/slow/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "hang_async"}}
        )
        result = r.json()["result"]  # a tool failure: an isError result with the 503 problem, not -32603
        assert r.status_code == 200 and result["isError"] and result["structuredContent"]["status"] == 503
