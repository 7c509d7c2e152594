"""Status routes say what the store holds and how old it is (issue 27): on a fresh store nothing has
been checked against the source, and `stale` alone told a user nothing about what is served."""

from datetime import date

import httpx
import pytest

from twlookup.app import create_app

pytestmark = pytest.mark.asyncio
TODAY = date(2026, 11, 26)


@pytest.fixture
def pinned(monkeypatch):
    monkeypatch.setattr("twlookup.platform.feeds.status.today_taipei", lambda: TODAY)


@pytest.fixture
async def client(settings, fresh_store):
    """A store of the test's own, as seeded: other tests import feed files into the shared one."""
    app = create_app(settings.model_copy(update={"database_url": fresh_store}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        yield c


async def _feed(client, path, name):
    body = (await client.get(path)).json()
    return next(f for f in body["feeds"] if f["feed"] == name)


async def test_cardgame_status_names_the_lists_held_and_their_age(client, pinned):
    f = await _feed(client, "/cardgame/api/status", "cardgame.banlist")
    assert f["stale"] is True and f["last_success"] is None
    assert "2026-07-01" in f["holds"] and "7 AE lists" in f["holds"]
    assert f["data_date"] == "2026-08-22" and f["data_age_days"] == (TODAY - date(2026, 8, 22)).days
    assert "never checked" in f["stale_reason"] and "2026-08-22" in f["stale_reason"]


async def test_motion_status_names_the_web_features_version_held(client, pinned):
    f = await _feed(client, "/motion/api/status", "motion.support")
    assert "3.40.0" in f["holds"] and f["data_date"] == "2026-11-23" and f["data_age_days"] == 3
    libs = await _feed(client, "/motion/api/status", "motion.libraries")
    assert "libraries" in libs["holds"] and libs["data_date"] is not None


async def test_creator_status_names_the_companies_held(client, pinned):
    f = await _feed(client, "/creator/api/status", "creator.companies")
    assert "1 company" in f["holds"] and "sample" in f["holds"] and f["data_date"] is not None
    assert f["stale_reason"]
