"""The grace period in process: once a service's reference data is in memory, a store that fails
its data version check does not stop that service answering, until the grace period is over; a
route that needs the store answers 503 at once while the store is suspect. (Against a real server
on a stalled PostgreSQL: tests/server/test_store_stall.py.)"""

from __future__ import annotations

import time

import httpx
import pytest
from sqlalchemy.exc import OperationalError

from twlookup.app import create_app
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.reference import Reference

MEMORY = "/models/api/upcoming"
STORE = "/bikes/api/model/yamaha-rd350lc-1980"


@pytest.fixture
def app_client(settings):
    app = create_app(settings.model_copy(update={"data_check_seconds": 0, "store_grace_seconds": 30}))
    yield httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t", timeout=30)
    Reference.reset_all()
    create_app(settings)


@pytest.fixture
def store_down(monkeypatch):
    """From now on every store connection fails as a refused one would."""

    def refuse(*_args, **_kwargs):
        raise OperationalError("connect", {}, Exception("connection refused"))

    def go() -> None:
        monkeypatch.setattr(store_engine.get_engine(), "connect", refuse)
        monkeypatch.setattr(store_engine, "session", refuse)

    return go


@pytest.mark.asyncio
async def test_memory_routes_answer_through_a_failed_check_until_the_grace_ends(app_client, store_down):
    async with app_client as c:
        assert (await c.get(MEMORY)).status_code == 200
        assert Reference.servable("models") and not Reference.suspect()
        store_down()
        r = await c.get(MEMORY)
        assert r.status_code == 200, r.text  # the check failed; the answer came from memory
        assert Reference.suspect()
        r = await c.get(STORE)  # needs the store itself
        assert r.status_code == 503 and r.json()["type"].endswith("/store-unavailable")
        Reference._ok_at = time.monotonic() - 31  # the store last answered longer ago than the grace
        assert not Reference.servable("models")
        r = await c.get(MEMORY)
        assert r.status_code == 503 and r.json()["type"].endswith("/store-unavailable"), r.text


@pytest.fixture
def client_of(settings):
    """A client of an app built with the given version-check cadence and grace (both 0 by
    default); the settings' own app is rebuilt after the test."""

    def build(check_seconds: float = 0, grace_seconds: float = 0) -> httpx.AsyncClient:
        update = {"data_check_seconds": check_seconds, "store_grace_seconds": grace_seconds}
        app = create_app(settings.model_copy(update=update))
        return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")

    yield build
    Reference.reset_all()
    create_app(settings)


@pytest.mark.asyncio
async def test_with_no_grace_a_failed_check_is_a_503(client_of, store_down):
    async with client_of() as c:
        assert (await c.get(MEMORY)).status_code == 200
        store_down()
        assert (await c.get(MEMORY)).status_code == 503


@pytest.mark.asyncio
async def test_a_new_check_cadence_is_not_outlasted_by_a_freshness_window_of_the_old_one(client_of, store_down):
    # an app checking every 2 s found the store fresh; one built after it checks on every request
    # and must see the store go down at once (it used to answer from memory for up to 2 s more)
    async with client_of(check_seconds=2) as c:
        assert (await c.get(MEMORY)).status_code == 200
    async with client_of() as c:
        store_down()
        assert (await c.get(MEMORY)).status_code == 503
