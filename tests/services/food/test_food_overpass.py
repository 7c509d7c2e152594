"""The Overpass feed: `twlookup refresh food.overpass` asks an Overpass API server (mocked with respx,
answering a fixture in Overpass's JSON output format: elements with type, id, lat/lon or center,
tags), imports real OpenStreetMap shops with their attribution, and /food/api/nearby around Taipei
Main Station then finds them, open or closed by the one clock and Taiwan's holiday calendar.

Opening hours follow the OSM specification as its reference implementation (opening_hours.js)
reads it; each case below was worked by hand and the same expressions (with the holiday's weekday
written in for PH) were checked against opening_hours.js 3.x on 2026-11-26:
- a rule for a day replaces that whole day, including the previous evening's run past midnight
  (opening_hours.js issue #441: "PH off" closes 00:00-02:00 on the holiday);
- a run past midnight belongs to the day it starts, and a later rule for that day does not take
  back the part after midnight (opening_hours.js issue #87).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
import respx

from twlookup.app import create_app
from twlookup.cli import DEFAULT_DATA
from twlookup.platform import clock
from twlookup.platform.feeds.download import Bounds
from twlookup.platform.feeds.run import Refresher
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.reference import Reference
from twlookup.services.food import parsers
from twlookup.services.food.data import _categories
from twlookup.services.food.feeds import OVERPASS, OVERPASS_SERVER, overpass_stamp
from twlookup.settings import Settings

FIXTURES = Path(__file__).parent / "fixtures"
STATION_FILE = FIXTURES / "overpass-taipei-station.json"
STATION = {"lat": 25.0478, "lon": 121.5170, "radius": 300}  # Taipei Main Station
NIGHT, BRUNCH, NOODLES, BENTO = "node/9100000001", "node/9100000002", "node/9100000003", "way/9200000001"


def test_the_feed_asks_overpass_for_nodes_with_coordinates():
    assert OVERPASS.refreshable and OVERPASS.every == timedelta(days=7)
    part = OVERPASS.parts(None)[0]  # static parts ignore the context
    query = parse_qs(urlsplit(part.url).query)["data"][0]
    assert part.url.startswith(OVERPASS_SERVER + "?data=")
    # `out tags` prints no coordinates, and most shops are nodes: the query must print bodies
    assert query.endswith("out center;") and "out tags" not in query and "[out:json]" in query
    assert 'area["ISO3166-1"="TW"][admin_level=2]' in query


def test_the_download_may_take_as_long_as_the_query(monkeypatch):
    """The query may run 600 s on the server before the answer starts: the download's bound is
    raised for this feed alone (the feeds' usual bound is 60 s)."""
    from twlookup.services.food import feeds

    used: list[float] = []

    class Spy(feeds.Fetcher):
        def __init__(self, bounds, **kwargs):
            used.append(bounds.timeout)
            super().__init__(bounds, **kwargs)

    monkeypatch.setattr(feeds, "Fetcher", Spy)
    part = OVERPASS.parts(None)[0]
    with respx.mock as router, feeds.Fetcher(Bounds(timeout=60, retries=0)) as fetcher:
        router.get(url__startswith=OVERPASS_SERVER).mock(
            return_value=httpx.Response(200, content=STATION_FILE.read_bytes())
        )
        fetched = part.fetch(fetcher, part)
    assert used == [60, 660.0] and fetched.body == STATION_FILE.read_bytes()
    assert fetched.filename == "overpass-taiwan.json"


def test_stamp_is_the_osm_data_time_and_a_server_error_is_refused():
    stamp = overpass_stamp(STATION_FILE.read_bytes(), "x.json")
    assert (stamp.part, stamp.label, str(stamp.data_date)) == ("taiwan", "2026-11-25T23:58:12Z", "2026-11-25")
    assert overpass_stamp(b'{"elements": []}', "x.json").key is None
    # Overpass answers 200 with a remark when the query ran out of time: the elements are incomplete
    cut = b'{"version": 0.6, "elements": [], "remark": "runtime error: Query timed out in \\"query\\" at line 1"}'
    with pytest.raises(ValueError, match="did not finish"):
        parsers.parse_overpass(cut, _categories(DEFAULT_DATA / "food"), stamp.data_date)


@pytest.fixture
async def imported(fresh_store, settings, monkeypatch):
    """A store of its own, refreshed from the (mocked) Overpass server, and a client on it."""
    url = fresh_store
    store_engine.configure(url)
    refresher = Refresher(bounds=Bounds(retries=0), lease=timedelta(minutes=5), sleep=lambda _s: None)
    with respx.mock(assert_all_called=True) as router:
        route = router.get(url__startswith=OVERPASS_SERVER).mock(
            return_value=httpx.Response(200, content=STATION_FILE.read_bytes())
        )
        outcomes = refresher.refresh(OVERPASS)
    assert [(o.part, o.outcome) for o in outcomes] == [("taiwan", "imported")]
    assert "out center;" in parse_qs(urlsplit(str(route.calls[0].request.url)).query)["data"][0]
    Reference.reset_all()
    app = create_app(Settings(database_url=url, rate_limit_default="100000/minute", _env_file=None))
    store_engine.configure(url)

    def at(*args: int) -> None:  # the one clock, pinned (Asia/Taipei)
        monkeypatch.setattr(clock, "now", lambda: datetime(*args, tzinfo=clock.TAIPEI))

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        yield c, at
    Reference.reset_all()


async def nearby(client: httpx.AsyncClient) -> dict:
    r = await client.get("/food/api/nearby", params=STATION)
    assert r.status_code == 200
    return r.json()


async def test_nearby_taipei_main_station_finds_the_imported_shops(imported):
    client, at = imported
    at(2026, 10, 8, 16, 0)  # Thursday 16:00, a working day
    body = await nearby(client)
    assert [s["id"] for s in body["shops"]] == [BRUNCH, BENTO]  # nearest first
    assert body["sample"] is False and body["imported_shops"] == 5 and body["note"] is None
    assert body["unknown_hours"] == 1  # the noodle shop gives no hours: unknown, left out
    assert body["attribution"]["attribution"] == "© OpenStreetMap contributors"
    assert body["attribution"]["licence"] == "ODbL-1.0"
    brunch = body["shops"][0]
    assert brunch["osm_url"] == "https://www.openstreetmap.org/node/9100000002"
    assert brunch["source"]["licence"] == "ODbL-1.0" and brunch["sample"] is False
    # by hand: 0.0002 deg of latitude = 22.2 m; 0.0005 deg of longitude x cos 25.0478 deg = 50.4 m; 55 m
    assert brunch["distance_m"] == 55


@pytest.mark.parametrize(
    ("moment", "holiday", "open_ids"),
    [
        # Thursday 23:00, not a holiday: the stall's evening (18:00-02:00) is on
        ((2026, 10, 8, 23, 0), False, [NIGHT]),
        # Friday 2026-10-09 is 國慶日補假 (observed, a PH): "PH off" replaces the whole day,
        # Thursday evening's 00:00-02:00 included (opening_hours.js #441)
        ((2026, 10, 9, 1, 0), True, []),
        # the holiday at noon: the café keeps its PH hours 10:00-14:00, the bento shop its daily ones
        ((2026, 10, 9, 12, 0), True, [BRUNCH, BENTO]),
        # the holiday at 16:00: the PH rule replaced Friday's 08:00-17:00, so the café is closed
        ((2026, 10, 9, 16, 0), True, [BENTO]),
        # the Friday after, 16:00: an ordinary Friday, the café is open to 17:00
        ((2026, 10, 16, 16, 0), False, [BRUNCH, BENTO]),
        # Saturday 2026-10-10 (國慶日) at 01:00: a holiday again, closed all day
        ((2026, 10, 10, 1, 0), True, []),
        # Sunday 2026-10-11 is no holiday; at 23:30 the stall is open, and at Monday 01:30 still
        # (Sunday's evening runs past midnight)
        ((2026, 10, 11, 23, 30), False, [NIGHT]),
        ((2026, 10, 12, 1, 30), False, [NIGHT]),
        # Monday 02:00: the end is exclusive
        ((2026, 10, 12, 2, 0), False, []),
    ],
)
async def test_open_now_past_midnight_and_public_holidays(imported, moment, holiday, open_ids):
    client, at = imported
    at(*moment)
    body = await nearby(client)
    assert body["public_holiday"] is holiday
    assert [s["id"] for s in body["shops"]] == open_ids
    assert body["as_of"].startswith(f"{moment[0]}-{moment[1]:02d}-{moment[2]:02d}T{moment[3]:02d}:{moment[4]:02d}")


async def test_a_place_with_no_imported_shops_says_so(imported):
    client, at = imported
    at(2026, 10, 8, 12, 0)
    body = (await client.get("/food/api/nearby", params={"lat": 23.9739, "lon": 121.6015, "radius": 1000})).json()
    assert body["count"] == 0 and body["imported_shops"] == 5
    assert "1000 公尺內沒有已匯入的 OpenStreetMap 店家" in body["note"]
    assert "twlookup refresh food.overpass" in body["note"] and body["attribution"] is None
