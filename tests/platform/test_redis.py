"""Rate-limit counters in Redis are shared by several app instances (as by several processes)."""

import os
import uuid

import httpx
import pytest

from twlookup.app import create_app

pytestmark = pytest.mark.asyncio


@pytest.fixture
def redis_url():
    url = os.environ.get("TWLOOKUP_TEST_REDIS_URL")
    if not url:
        pytest.skip("TWLOOKUP_TEST_REDIS_URL is not set (Redis tests need a server; .ci/run sets it)")
    return url


async def test_two_instances_share_one_budget(settings, redis_url):
    ip = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"  # fresh key per run
    overrides = {"redis_url": redis_url, "rate_limit_default": "3/minute"}
    apps = [create_app(settings.model_copy(update=overrides)) for _ in range(2)]
    clients = [
        httpx.AsyncClient(transport=httpx.ASGITransport(app=a, client=(ip, 1)), base_url="http://t") for a in apps
    ]
    try:
        codes = []
        for i in range(4):
            r = await clients[i % 2].get("/models/api/upcoming")
            codes.append(r.status_code)
        assert codes == [200, 200, 200, 429]
        r = await clients[0].get("/models/api/upcoming")
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert (await clients[1].get("/healthz")).json()["rate_limit_storage"] == "redis"
    finally:
        for c in clients:
            await c.aclose()
