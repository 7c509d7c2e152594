"""The shared knowledge-base lookup (Wikidata + Wikipedia) through the games, movie and sports
routes: real response formats via respx, the store cache, and every failure path."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import respx
import wikimedia_fixtures as wm
from sqlalchemy import delete

from twlookup.domain import knowledge_base as kb
from twlookup.platform.store import engine as store_engine

REAL_API = "https://www.wikidata.org/w/api.php"
REAL_SUMMARY = "https://{lang}.wikipedia.org/api/rest_v1/page/summary/{title}"


@pytest.fixture
def real_addresses(monkeypatch):
    monkeypatch.setattr(kb, "WIKIDATA_API", REAL_API)
    monkeypatch.setattr(kb, "SUMMARY_URL", REAL_SUMMARY)


@pytest.fixture
def conf(monkeypatch):
    """KB settings the test can change; the cache starts empty."""
    settings = {"timeout": 2.0, "cache_seconds": 3600, "user_agent": "twlookup-test/1 (ops@twlookup.test)"}
    monkeypatch.setattr(kb, "kb_settings", lambda: kb.KBSettings(**settings))
    with store_engine.session() as session, session.begin():
        session.execute(delete(kb.KnowledgeCache))
    return settings


@respx.mock(assert_all_mocked=True, assert_all_called=False)
async def test_found_game_with_facts_article_and_licence(client, conf, real_addresses, respx_mock):
    routes = wm.mock_game_lookup(respx_mock)
    r = await client.get("/games/api/lookup", params={"q": "Grand Theft Auto VI"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["catalogue"] == {
        "id": "gta-6",
        "name": "Grand Theft Auto VI",
        "name_zh": "俠盜獵車手 VI",
        "matched_as": "name",
    }
    k = body["knowledge"]
    assert k["found"] and not k["cached"] and not k["stale"]
    # the search's second hit is the video game (P31 Q7889): chosen over the first
    assert k["item"] == {
        "id": wm.GTA,
        "label": "俠盜獵車手VI",
        "label_language": "zh-tw",
        "description": "Rockstar Games 開發的電子遊戲",  # zh-hant preferred to en
        "url": f"https://www.wikidata.org/wiki/{wm.GTA}",
    }
    assert k["matches_domain"] and k["ambiguous"]
    assert [c["id"] for c in k["candidates"]] == ["Q118121520"]
    facts = {f["property"]: [v["value"] for v in f["values"]] for f in k["facts"]}
    assert facts["P577"] == ["2026-11-19"]  # the deprecated year-precision statement is left out
    assert facts["P400"] == ["PlayStation 5", "Xbox Series X/S"]
    assert facts["P178"] == facts["P123"] == ["Rockstar Games"]
    assert facts["P856"] == ["https://www.rockstargames.com/VI"]
    assert facts["P31"] == ["電子遊戲"]
    assert "P750" not in facts  # a "no value" statement is no fact
    article = k["article"]
    assert article["title"] == "俠盜獵車手VI" and article["language"] == "zh-tw"
    assert len(article["summary"]) <= kb.EXTRACT_CHARS and article["summary"].endswith("…")
    assert article["url"] == "https://zh.wikipedia.org/wiki/俠盜獵車手VI" and article["licence"] == "CC BY-SA 4.0"
    assert k["licence"]["wikidata"] == "CC0-1.0"
    assert k["source"]["url"] == f"https://www.wikidata.org/wiki/{wm.GTA}"
    # what was asked of Wikimedia: English search (no CJK), labels in zh-tw, a descriptive User-Agent
    sent = routes["search"].calls[0].request
    assert sent.url.host == "www.wikidata.org"
    assert dict(sent.url.params) == {
        "action": "wbsearchentities",
        "search": "Grand Theft Auto VI",
        "language": "en",
        "uselang": "zh-tw",
        "type": "item",
        "limit": "5",
        "format": "json",
    }
    assert sent.headers["user-agent"] == conf["user_agent"]
    first = routes["entities"].calls[0].request.url.params
    assert first["ids"] == f"Q118121520|{wm.GTA}" and first["languages"] == "zh-tw|zh-hant|en|zh"
    assert routes["summary"].calls[0].request.headers["accept-language"] == "zh-tw"
    # the same lookup again: from the store, no outbound call
    calls = sum(route.call_count for route in routes.values())
    r = await client.get("/games/api/lookup", params={"q": "gta-6"})  # the catalogue id searches by its name
    assert r.json()["knowledge"]["cached"] is True
    assert r.json()["knowledge"]["item"]["id"] == wm.GTA
    assert sum(route.call_count for route in routes.values()) == calls


@respx.mock(assert_all_called=False)
async def test_chinese_query_searches_in_chinese(client, conf, respx_mock):
    routes = wm.mock_game_lookup(respx_mock)
    respx_mock.route(path__regex=r"/api/rest_v1/page/summary/").respond(404, json={"type": "not_found"})
    r = await client.get("/games/api/lookup", params={"q": "薩爾達傳說 王國之淚"})
    assert r.status_code == 200
    assert routes["search"].calls[0].request.url.params["language"] == "zh"
    k = r.json()["knowledge"]
    assert k["article"] is None and "no zh article" in k["article_note"]
    assert k["facts"]  # the Wikidata facts stand without the article


@respx.mock(assert_all_called=False)
async def test_no_match_in_catalogue_or_knowledge_base_is_404(client, conf, respx_mock):
    wm.route_api(respx_mock, "wbsearchentities").respond(json=wm.search("xqzv", []))
    r = await client.get("/movie/api/lookup", params={"q": "xqzv"})
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
    assert r.json()["id"] == "xqzv"


@respx.mock(assert_all_called=False)
async def test_catalogue_item_unknown_to_wikidata_is_still_answered(client, conf, respx_mock):
    wm.route_api(respx_mock, "wbsearchentities").respond(json=wm.search("x", []))
    r = await client.get("/games/api/lookup", params={"q": "GTA VI"})
    assert r.status_code == 200
    assert r.json()["catalogue"]["id"] == "gta-6" and r.json()["knowledge"]["found"] is False


@pytest.mark.parametrize(
    ("effect", "reason"),
    [
        (httpx.Response(500, text="upstream broke"), "HTTP 500"),
        (httpx.Response(429, text="slow down"), "HTTP 429"),
        (httpx.Response(200, json=wm.API_ERROR), "API error (Waiting for a database server"),
        (httpx.Response(200, text="<html>maintenance</html>"), "not JSON"),
        (httpx.ConnectError("refused"), "connection failed"),
        (httpx.ReadTimeout("slow"), "time limit"),
    ],
)
@respx.mock(assert_all_called=False)
async def test_unreachable_upstream_is_503_with_retry_after(client, conf, respx_mock, effect, reason):
    route = wm.route_api(respx_mock, "wbsearchentities")
    if isinstance(effect, Exception):
        route.side_effect = effect
    else:
        route.return_value = effect
    r = await client.get("/sports/api/lookup", params={"q": "Asian Games"})
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"] == "30" and r.headers["content-type"] == "application/problem+json"
    problem = r.json()
    assert problem["upstream"] == "www.wikidata.org" and problem["type"].endswith("/upstream-unavailable")
    assert reason in problem["detail"] and "Nothing was charged" in problem["detail"]


async def test_unmocked_lookup_fails_fast_without_going_out(client, conf):
    began = time.monotonic()
    r = await client.get("/movie/api/lookup", params={"q": "anything at all"})
    assert r.status_code == 503 and time.monotonic() - began < 3


@respx.mock(assert_all_called=False)
async def test_whole_lookup_is_bounded_by_the_timeout(client, conf, respx_mock):
    conf["timeout"] = 0.2

    async def hang(request):
        await asyncio.sleep(5)
        return httpx.Response(200, json=wm.GAME_SEARCH)

    wm.route_api(respx_mock, "wbsearchentities", side_effect=hang)
    began = time.monotonic()
    r = await client.get("/games/api/lookup", params={"q": "Hollow Knight Silksong"})
    assert r.status_code == 503 and time.monotonic() - began < 1.5


@respx.mock(assert_all_called=False)
async def test_slow_knowledge_base_does_not_delay_other_requests(client, conf, respx_mock):
    conf["timeout"] = 5.0
    released = asyncio.Event()

    async def slow(request):
        await asyncio.sleep(4)
        released.set()
        return httpx.Response(200, json=wm.search("slow", []))

    wm.route_api(respx_mock, "wbsearchentities", side_effect=slow)
    for path in ("/games/api/games", "/movie/api/titles", "/sports/api/events"):  # caches warm, as after start
        assert (await client.get(path)).status_code == 200
    lookup = asyncio.create_task(client.get("/games/api/lookup", params={"q": "a slow game"}))
    await asyncio.sleep(0.1)  # the lookup is now waiting on Wikidata
    began = time.monotonic()
    for path in ("/games/api/games", "/movie/api/titles", "/sports/api/events"):
        r = await client.get(path)
        assert r.status_code == 200
    assert not released.is_set(), f"the other requests waited {time.monotonic() - began:.1f} s, for the slow lookup"
    assert (await lookup).status_code == 404  # no match anywhere, once Wikidata answered


@respx.mock(assert_all_called=False)
async def test_stale_cache_is_served_when_upstream_is_down_and_refreshed_when_up(client, conf, respx_mock):
    routes = wm.mock_game_lookup(respx_mock)
    respx_mock.route(path__regex=r"/api/rest_v1/page/summary/").respond(json=wm.GAME_SUMMARY)
    assert (await client.get("/games/api/lookup", params={"q": "Grand Theft Auto VI"})).status_code == 200
    with store_engine.session() as session, session.begin():
        row = session.get(kb.KnowledgeCache, "games:grandtheftautovi")
        row.fetched_at = datetime.now(UTC) - timedelta(hours=2)  # older than the hour the cache keeps
    routes["search"].side_effect = httpx.ConnectError("down")
    r = await client.get("/games/api/lookup", params={"q": "Grand Theft Auto VI"})
    assert r.status_code == 200
    assert r.json()["knowledge"]["stale"] is True and r.json()["knowledge"]["cached"] is True
    routes["search"].side_effect = None
    routes["search"].return_value = httpx.Response(200, json=wm.GAME_SEARCH)
    r = await client.get("/games/api/lookup", params={"q": "Grand Theft Auto VI"})
    assert r.json()["knowledge"]["stale"] is False and r.json()["knowledge"]["cached"] is False


@respx.mock(assert_all_called=False)
async def test_mcp_tool_gives_the_same_lookup(client, conf, respx_mock):
    wm.mock_game_lookup(respx_mock)
    respx_mock.route(path__regex=r"/api/rest_v1/page/summary/").respond(json=wm.GAME_SUMMARY)
    from twlookup.services.games.operations import SERVICE

    op = next(o for o in SERVICE.operations if o.tool == "lookup_any_game")
    out = (await op.call({"q": "Grand Theft Auto VI"})).model_dump(mode="json")
    assert out["knowledge"]["item"]["id"] == wm.GTA


def test_time_values_at_their_precision():
    assert kb.time_text({"time": "+2027-03-05T00:00:00Z", "precision": 11}) == "2027-03-05"
    assert kb.time_text({"time": "+2027-03-00T00:00:00Z", "precision": 10}) == "2027-03"
    assert kb.time_text({"time": "+2027-00-00T00:00:00Z", "precision": 9}) == "2027"
    assert kb.time_text({"time": "garbage"}) is None
