"""games.wikidata: video games from Wikidata's SPARQL endpoint, on a fixture in the endpoint's own
format (SPARQL 1.1 Query Results JSON): the Taiwan date taken where Wikidata has one, platforms
read onto the five tracked here, items on none of them left out, a curated record winning over an
imported one, and each answer saying which it is."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import httpx
import pytest
import respx

from twlookup.app import create_app
from twlookup.domain.release_import import ENDPOINT
from twlookup.platform.feeds.download import Bounds
from twlookup.platform.feeds.run import Refresher, Store
from twlookup.platform.store import engine as store_engine
from twlookup.services.games.feeds import WIKIDATA
from twlookup.services.games.parsers import games, platform
from twlookup.settings import Settings

FIXTURE = Path(__file__).parent / "fixtures" / "wikidata-games-2026-11-26.json"
DAY = date(2026, 11, 26)


@pytest.mark.parametrize(
    ("label", "code"),
    [
        ("PlayStation 5", "ps5"),
        ("Xbox Series X and Series S", "xbox"),
        ("Nintendo Switch 2", "switch2"),
        ("Microsoft Windows", "pc"),
        ("Android", "mobile"),
        ("iOS", "mobile"),
        ("PlayStation 4", None),
        ("Nintendo Switch", None),
        ("Xbox One", None),
    ],
)
def test_platform_labels(label, code):
    assert platform(label) == code


def test_the_answer_becomes_games_with_the_taiwan_date_where_given():
    got = dict(games(FIXTURE.read_bytes(), DAY))
    # Arcade Memories is on PlayStation 4 only; Q130100004 has no English label: left out
    assert set(got) == {"Q118121519", "Q130100001", "Q130100002"}
    lantern = got["Q130100001"]
    assert (lantern.release, lantern.platforms, lantern.publisher, lantern.note) == (
        "2027-03-19",  # the Taiwan date, a day after the unplaced one
        ["pc", "switch2"],
        "Example Games",
        None,
    )
    tide = got["Q130100002"]
    assert (tide.release, tide.platforms, tide.developer) == ("2027-06", ["mobile"], None)  # a label-less developer
    assert tide.note == "Wikidata gives no Taiwan date: the origin's date"
    assert got["Q118121519"].platforms == ["ps5", "xbox"] and got["Q118121519"].record_origin == "imported"


@pytest.fixture
async def store(settings, fresh_store):
    app = create_app(Settings(database_url=fresh_store, rate_limit_default="100000/minute", _env_file=None))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        yield c
    store_engine.configure(settings.database_url)


async def test_refresh_imports_and_curated_records_win(store, pin_today):

    pin_today(DAY)
    before = (await store.get("/games/api/games")).json()["count"]
    refresher = Refresher(
        bounds=Bounds(timeout=10, retries=0), lease=timedelta(minutes=5), store=Store(), today=lambda: DAY
    )
    with respx.mock(assert_all_called=True) as router:
        router.get(ENDPOINT).mock(return_value=httpx.Response(200, content=FIXTURE.read_bytes()))
        (outcome,) = refresher.refresh(WIKIDATA)
    assert outcome.outcome == "imported" and outcome.rows == 3
    listed = (await store.get("/games/api/games")).json()
    assert listed["count"] == before + 2  # GTA VI is curated already
    assert [g["record_origin"] for g in listed["games"] if g["name"] == "Grand Theft Auto VI"] == ["curated"]
    g = (await store.get("/games/api/game", params={"q": "Lantern Road"})).json()["game"]
    assert (g["record_origin"], g["status"], g["days_until"], g["source"]["url"]) == (
        "imported",
        "confirmed",
        113,  # 2026-11-26 to 2027-03-19
        "https://www.wikidata.org/wiki/Q130100001",
    )
    tide = (await store.get("/games/api/game", params={"q": "tide-breakers"})).json()["game"]
    assert (tide["status"], tide["precision"]) == ("window", "month")
