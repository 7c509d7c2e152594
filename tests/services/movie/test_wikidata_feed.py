"""movie.wikidata: films and series from Wikidata's SPARQL endpoint, on a fixture in the endpoint's
own format (SPARQL 1.1 Query Results JSON, built here with the bindings the feed's query asks for):
the Taiwan date taken where Wikidata has one, items the catalogue cannot use left out, a curated
record winning over an imported one, each answer saying which it is, and a refresh that fails
(an HTTP error, an answer that is not SPARQL JSON) changing nothing."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
import respx

from twlookup.app import create_app
from twlookup.domain.release_import import ENDPOINT
from twlookup.platform.feeds.download import Bounds
from twlookup.platform.feeds.run import Refresher, Store
from twlookup.platform.store import engine as store_engine
from twlookup.services.movie.feeds import WIKIDATA, query
from twlookup.services.movie.parsers import titles
from twlookup.settings import Settings

FIXTURE = Path(__file__).parent / "fixtures" / "wikidata-movie-2026-11-26.json"
DAY = date(2026, 11, 26)


def test_the_answer_becomes_titles_with_the_taiwan_date_where_given():
    got = dict(titles(FIXTURE.read_bytes(), DAY))
    # Q130000003 has no country of origin and Q130000004 no English label: left out
    assert set(got) == {"Q105625853", "Q130000001", "Q130000002", "Q130000005", "Q130000006", "Q130000007"}
    harbour = got["Q130000001"]
    # three dates: none placed (2027-02-12), Japan (2027-02-20), Taiwan (2027-02-26)
    assert (harbour.release, harbour.taiwan_release) == ("2027-02-12", "2027-02-26")
    assert (harbour.id, harbour.name_zh, harbour.type, harbour.platform, harbour.origin) == (
        "harbour-lights",
        "港灣之光",
        "film",
        "cinema",
        "KR",
    )
    assert harbour.source == "https://www.wikidata.org/wiki/Q130000001" and harbour.checked == DAY
    assert harbour.licence == "CC0 1.0 (Wikidata)" and harbour.record_origin == "imported"
    assert "in Taiwan (P291 Q865)" in harbour.source_title
    tide = got["Q130000002"]  # a television series and an anime series: the more specific type
    assert (tide.type, tide.release, tide.taiwan_release, tide.platform) == (
        "anime-series",
        "2027-04",
        None,
        "Tokyo MX",
    )
    night = got["Q130000005"]  # only a Taiwan date: it is the release, not a second one
    assert (night.release, night.taiwan_release, night.platform) == ("2027-01-15", None, "Netflix")
    assert got["Q130000006"].release == "2027"  # year precision stays a year


def test_the_query_asks_for_the_window_and_the_place_of_publication():
    q = query(DAY)
    assert '"2026-09-27T00:00:00Z"' in q and '"2027-12-31T00:00:00Z"' in q  # 60 days before, 400 after
    assert "pq:P291" in q and "wikibase:timePrecision" in q and "wd:Q63952888" in q


@pytest.fixture
async def store(settings, fresh_store):
    app = create_app(Settings(database_url=fresh_store, rate_limit_default="100000/minute", _env_file=None))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        yield c
    store_engine.configure(settings.database_url)


def _refresher() -> Refresher:
    return Refresher(
        bounds=Bounds(timeout=10, retries=1, backoff=0),
        lease=timedelta(minutes=5),
        store=Store(),
        sleep=lambda _s: None,
        today=lambda: DAY,
    )


async def test_refresh_imports_and_curated_records_win(store, pin_today):

    pin_today(DAY)
    before = (await store.get("/movie/api/titles")).json()["count"]
    with respx.mock(assert_all_called=True) as router:
        route = router.get(ENDPOINT).mock(
            return_value=httpx.Response(
                200, content=FIXTURE.read_bytes(), headers={"Content-Type": "application/sparql-results+json"}
            )
        )
        (outcome,) = _refresher().refresh(WIKIDATA)
    assert outcome.outcome == "imported" and outcome.rows == 6, outcome
    sent = parse_qs(urlsplit(str(route.calls.last.request.url)).query)
    assert sent["format"] == ["json"] and sent["query"] == [query(DAY)]

    listed = (await store.get("/movie/api/titles")).json()
    assert listed["count"] == before + 5  # Avengers: Doomsday is curated already
    origins = {t["id"]: t["record_origin"] for t in listed["titles"]}
    assert origins["avengers-doomsday"] == "curated" and origins["harbour-lights"] == "imported"
    assert sum(1 for t in listed["titles"] if t["name"] == "Avengers: Doomsday") == 1

    t = (await store.get("/movie/api/title", params={"q": "港灣之光"})).json()["title"]
    assert (t["record_origin"], t["release_in_taiwan"], t["state"], t["days_until"]) == (
        "imported",
        "2027-02-26",
        "upcoming",
        92,  # 2026-11-26 to 2027-02-26
    )
    assert t["source"]["url"] == "https://www.wikidata.org/wiki/Q130000001" and t["source"]["checked"] == "2026-11-26"
    c = (await store.get("/movie/api/countdown", params={"q": "harbour-lights"})).json()
    assert (c["region"], c["target"]) == ("TW", "2027-02-26")
    early = (await store.get("/movie/api/title", params={"q": "Early Light"})).json()["title"]
    assert (early["state"], early["basis"], early["days_since"]) == ("released", "date passed, no delay reported", 55)
    curated = (await store.get("/movie/api/title", params={"q": "avengers-doomsday"})).json()["title"]
    assert curated["record_origin"] == "curated" and "wikidata" not in curated["source"]["url"]


async def test_a_failed_refresh_changes_nothing(store):
    before = (await store.get("/movie/api/titles")).json()["count"]
    with respx.mock as router:
        router.get(ENDPOINT).mock(return_value=httpx.Response(503, headers={"Retry-After": "0"}))
        (failed,) = _refresher().refresh(WIKIDATA)
    assert failed.outcome == "failed" and "HTTP 503" in failed.message
    with respx.mock as router:
        router.get(ENDPOINT).mock(return_value=httpx.Response(200, text="<html>Query timeout</html>"))
        (refused,) = _refresher().refresh(WIKIDATA)
    assert refused.outcome == "failed" and "not SPARQL JSON results" in refused.message
    assert (await store.get("/movie/api/titles")).json()["count"] == before
