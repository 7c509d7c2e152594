"""The opinions service: credibility by its rule, the two communities' formats, the posts importer,
every route and tool, the live search (mocked upstreams) and its 503, and the paid routes."""

import asyncio
import time
from datetime import date, datetime
from pathlib import Path

import httpx
import pytest
import respx
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from twlookup.cli import DEFAULT_DATA, ensure_ready
from twlookup.platform import clock
from twlookup.platform.errors import Problem
from twlookup.services.opinions import operations
from twlookup.services.opinions.data import _load, import_hn, import_posts, import_stackexchange
from twlookup.services.opinions.logic import credibility
from twlookup.services.opinions.parsers import foreign, live

FIX = Path(__file__).parent / "fixtures"
API = "/opinions/api"


def test_credibility_parts_hand_worked():
    # score 999 -> log10(1000)/3 = 1 -> 0.35; comments 0 -> 0; no own text -> the text parts are 0, never guessed
    value, label, parts = credibility.credibility(999, 0, None, missing="not shown")
    assert {p.name: p.points for p in parts} == {
        "community": 0.35,
        "replies": 0.0,
        "specificity": 0.0,
        "disclosure": 0.0,
        "ai_check": 0.0,
    }
    assert value == 0.35 and label == "medium"
    assert "not stored" in parts[4].why
    # 9 and 9: 0.35 x log10(10)/3 and 0.25 x log10(10)/2.5; AI-looking own text; no detail; no sponsorship
    value, label, parts = credibility.credibility(9, 9, "As an AI language model, I hope this helps.")
    points = {p.name: p.points for p in parts}
    assert points["community"] == pytest.approx(0.1167, abs=1e-4) and points["replies"] == pytest.approx(0.1)
    assert points["specificity"] == 0 and points["disclosure"] == 0.15 and points["ai_check"] == 0
    assert label == "medium" and value == pytest.approx(0.3667, abs=1e-4)
    # a declared sponsorship takes the disclosure part away; five details fill specificity
    _, _, parts = credibility.credibility(
        0, 0, "業配文。用了 3 個月，重 180g，電池 5000mAh，型號 AB-1234，價格 2990 元。"
    )
    points = {p.name: p.points for p in parts}
    assert points["disclosure"] == 0 and "業配" in parts[3].why and points["specificity"] == 0.15


def test_ratio():
    assert credibility.ratio(["recommend", "recommend", "not-recommend", "mixed", "unrated"]) == (2, 1, 1, 0.6667)
    assert credibility.ratio(["mixed"]) == (0, 0, 1, None)


def test_feed_parsers():
    hn = foreign.parse_hn((FIX / "hn-algolia-search.json").read_bytes(), date(2026, 11, 23))
    assert hn[0].id == "hn:900001" and hn[0].url == "https://news.ycombinator.com/item?id=900001"
    assert hn[0].created == datetime(2021, 6, 1, 8, 0) and hn[0].score == 120 and hn[0].comments == 80
    assert "title, summary and link only" in hn[0].licence and hn[0].summary is None
    se = foreign.parse_se((FIX / "stackexchange-search.json").read_bytes(), date(2026, 11, 23))
    assert se[0].id == "se:superuser.com:900003" and se[0].title.startswith(
        'Example: which mechanical keyboard switch "feels"'
    )
    assert se[0].licence == "CC BY-SA 3.0" and se[1].licence == "CC BY-SA 4.0"  # 2017 vs 2023 posts
    assert se[1].site == "hardwarerecs.stackexchange.com" and se[1].comments == 0
    with pytest.raises(ValueError, match="hits"):
        foreign.parse_hn(b'{"items": []}', date(2026, 1, 1))
    with pytest.raises(ValueError, match="points"):
        foreign.parse_hn(
            b'{"hits": [{"objectID": "1", "title": "t", "created_at_i": 1, "points": "many"}]}', date(2026, 1, 1)
        )
    with pytest.raises(ValueError, match="not JSON"):
        foreign.parse_se(b"<html>", date(2026, 1, 1))


@pytest.fixture
def fresh_session(tmp_path):
    url = f"sqlite:///{tmp_path}/opinions.db"
    ensure_ready(url, DEFAULT_DATA)
    engine = create_engine(url)
    with Session(engine) as session:
        yield session
    engine.dispose()


def test_importers_store_threads_and_keep_what_the_site_wrote(fresh_session):
    assert import_hn(fresh_session, FIX / "hn-algolia-search.json") == 2
    assert import_stackexchange(fresh_session, FIX / "stackexchange-search.json") == 2
    store = _load(fresh_session)
    assert store.threads["hn:900001"].topics == ["e-readers"]  # 'e-reader' / 'kobo' in the title
    assert store.threads["se:superuser.com:900003"].topics == ["mechanical-keyboards"]
    assert "noise-cancelling-headphones" in store.threads["hn:900002"].topics
    assert store.threads["hn:1003052"].summary  # seeded, checked thread untouched
    # re-importing a seeded thread refreshes counts but keeps the site's summary and stance
    raw = b'{"hits": [{"objectID": "1003052", "title": "Thoughts on \\"e-readers\\"", "points": 50, "num_comments": 60, "created_at_i": 1261094400}]}'
    path = FIX.parent / "_tmp_hn.json"
    path.write_bytes(raw)
    try:
        import_hn(fresh_session, path)
    finally:
        path.unlink()
    t = _load(fresh_session).threads["hn:1003052"]
    assert (t.score, t.comments, t.stance) == (50, 60, "mixed") and t.summary


def test_posts_importer(fresh_session, tmp_path, monkeypatch):
    import twlookup.services.opinions.data as data

    monkeypatch.setattr(data, "today_taipei", lambda: date(2026, 11, 23))
    assert import_posts(fresh_session, FIX / "posts.yaml") == 2
    store = _load(fresh_session)
    assert store.posts[1].human_written is True and store.posts[1].licence == "CC BY 4.0"
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "posts:\n  - {id: 3, topic: nowhere, author: a, title: t, body: long enough body text here, human_written: true, published: 2024-01-01}\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="unknown topic"):
        import_posts(fresh_session, bad)
    bad.write_text(
        "posts:\n  - {id: 3, topic: e-readers, author: a, title: t, body: long enough body text here, published: 2024-01-01}\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="human_written"):
        import_posts(fresh_session, bad)
    bad.write_text(
        "posts:\n  - {id: 3, topic: e-readers, author: a, title: t, body: long enough body text here, human_written: true, published: 2027-01-01}\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="future"):
        import_posts(fresh_session, bad)


pytestmark = pytest.mark.filterwarnings("ignore")


async def test_opinions_and_before(client, monkeypatch):
    monkeypatch.setattr(clock, "_fixed", date(2026, 11, 23))
    body = (await client.get(f"{API}/opinions", params={"q": "電子書閱讀器"})).json()  # the topic's Chinese name
    ids = [i["id"] for i in body["items"]]
    assert body["count"] == 4 and "hn:1003052" in ids and "gh:koreader/koreader#4939" in ids
    item = body["items"][ids.index("hn:1003052")]
    assert item["link"] == "https://news.ycombinator.com/item?id=1003052" and item["summary_by"].startswith("this site")
    assert [p["name"] for p in item["credibility"]["parts"]] == [
        "community",
        "replies",
        "specificity",
        "disclosure",
        "ai_check",
    ]
    # an HN thread's own text is not stored: the text parts are 0, never run on this site's summary
    assert item["credibility"]["parts"][4]["points"] == 0 and "not stored" in item["credibility"]["parts"][4]["why"]
    assert item["credibility"]["value"] == pytest.approx(
        sum(p["points"] for p in item["credibility"]["parts"]), abs=1e-3
    )
    body = (await client.get(f"{API}/opinions", params={"q": "smartwatch"})).json()
    assert body["count"] == 0 and "does not fill" in body["note"]
    after = (await client.get(f"{API}/opinions", params={"q": "copilot", "before": 1})).json()
    assert after["count"] == 0  # every stored Copilot thread is from after 2022-11-30
    r = await client.get(f"{API}/opinions", params={"q": "kindle", "before": 2})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "before"
    assert (await client.get(f"{API}/opinions")).status_code == 422


async def test_search_is_foreign_only(client):
    body = (await client.get(f"{API}/search", params={"q": "headphones", "before": 1})).json()
    assert [i["id"] for i in body["items"]] == ["hn:30856651"]
    assert all(i["kind"] == "discussion" for i in body["items"])


async def test_topics_and_topic(client):
    body = (await client.get(f"{API}/topics")).json()
    assert body["count"] == 6 and {t["slug"] for t in body["topics"]} >= {"e-readers", "robot-vacuums"}
    body = (await client.get(f"{API}/topic/e-readers")).json()
    assert "hn:1003052" in [i["id"] for i in body["items"]] and body["note"] is None
    body = (await client.get(f"{API}/topic/robot-vacuums")).json()
    assert len(body["items"]) == 4 and body["note"] is None
    body = (await client.get(f"{API}/topic/smartwatches")).json()
    assert body["items"] == [] and "does not fill" in body["note"]
    r = await client.get(f"{API}/topic/nope")
    assert r.status_code == 404 and "e-readers" in r.json()["detail"]


async def test_posts_routes_when_empty(client):
    body = (await client.get(f"{API}/posts", params={"human_only": 1})).json()
    assert body == {"count": 0, "posts": [], "note": body["note"]} and "sent by their authors" in body["note"]
    assert (await client.get(f"{API}/posts", params={"topic": "nope"})).status_code == 404
    r = await client.get(f"{API}/posts/7")
    assert r.status_code == 404 and r.json()["id"] == "7"
    r = await client.get(f"{API}/posts/abc")
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "id"


async def test_ai_check_route(client):
    text = "作為一個AI語言模型，我無法提供個人意見。希望這對你有幫助！"
    body = (await client.post(f"{API}/ai-check", json={"text": text})).json()
    assert body["label"] == "likely-ai" and 0 <= body["score"] <= 1 and "never a verdict" in body["note"]
    m = body["matches"][0]
    assert text[m["start"] : m["end"]] == m["text"] and m["source"].startswith("https://")
    r = await client.post(f"{API}/ai-check", json={"text": "x" * 5001})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "text"
    assert (await client.post(f"{API}/ai-check", json={"text": ""})).status_code == 422


def _op(name):
    return next(op for op in operations.SERVICE.operations if op.name == name)


async def test_paid_routes(client):
    assert (await client.get(f"{API}/pro/digest", params={"q": "headphones"})).status_code == 402
    r = await client.get(f"{API}/pro/export")  # no posts in the store: nothing to sell
    assert r.status_code == 503 and r.json()["type"].endswith("/not-for-sale") and "payment-required" not in r.headers
    d = await _op("digest").call({"q": "headphones"})
    assert d.items == 2 and d.not_recommend == 1 and d.recommend == 0 and d.recommend_ratio == 0.0
    assert any("news.ycombinator.com/item?id=30856651" in c for c in d.cons)
    assert any("github.com/bluez/bluez/issues/1174" in c for c in d.cons)
    e = await _op("export").call({})
    assert e.count == 0 and "CC BY 4.0" in e.licence


HN_BODY = (FIX / "hn-algolia-search.json").read_bytes()
SE_BODY = b'{"items": [], "has_more": false, "quota_remaining": 290}'


@pytest.fixture
def live_on(monkeypatch):
    """Live search on, and the two fixed hosts resolved to a public address without DNS (the safe
    fetcher still checks it); respx answers in the communities' formats."""
    from twlookup.platform import fetch as safe
    from twlookup.settings import get_settings

    monkeypatch.setattr(get_settings(), "opinions_live", True)
    monkeypatch.setattr(
        safe,
        "resolve",
        safe.static_resolver({"hn.algolia.com": ["151.101.1.1"], "api.stackexchange.com": ["151.101.65.69"]}),
    )
    return monkeypatch


@respx.mock
async def test_live_search_when_enabled(client, live_on):
    hn = respx.get(url__startswith=live.HN_SEARCH).mock(return_value=httpx.Response(200, content=HN_BODY))
    se = respx.get(url__startswith=live.SE_SEARCH).mock(return_value=httpx.Response(200, content=SE_BODY))
    body = (await client.get(f"{API}/search", params={"q": "kobo", "before": 1})).json()
    assert "hn:900001" in [i["id"] for i in body["items"]]
    assert "hn:900002" not in [i["id"] for i in body["items"]]  # 2024: after the cutoff
    sent = hn.calls[0].request
    assert sent.url.params["numericFilters"] == "created_at_i<1669766400" and sent.url.params["query"] == "kobo"
    assert "twlookup-fetcher" in sent.headers["user-agent"] and "cookie" not in sent.headers
    assert [c.request.url.params["site"] for c in se.calls] == list(live.SE_SITES)
    assert all(c.request.url.params["todate"] == "1669766400" for c in se.calls)
    assert "live results" in body["note"]


@respx.mock
async def test_live_search_unreachable_is_503(client, live_on):
    respx.get(url__startswith=live.HN_SEARCH).mock(side_effect=httpx.ConnectTimeout("timed out"))
    r = await client.get(f"{API}/search", params={"q": "kobo"})
    assert r.status_code == 503 and r.headers["retry-after"] == "30" and "Hacker News" in r.json()["detail"]
    respx.get(url__startswith=live.HN_SEARCH).mock(return_value=httpx.Response(500))
    r = await client.get(f"{API}/search", params={"q": "kobo"})
    assert r.status_code == 503 and "HTTP 500" in r.json()["detail"]
    respx.get(url__startswith=live.HN_SEARCH).mock(return_value=httpx.Response(200, content=b"<html>"))
    r = await client.get(f"{API}/search", params={"q": "kobo"})
    assert r.status_code == 503 and r.headers["retry-after"] == "300" and "unexpected format" in r.json()["detail"]


@respx.mock
async def test_live_search_is_bounded_by_the_safe_fetcher(client, live_on):
    from twlookup.settings import get_settings

    live_on.setattr(get_settings(), "opinions_live_max_bytes", 16_384)
    big = b'{"hits": [' + b" " * 20_000 + b"]}"
    respx.get(url__startswith=live.HN_SEARCH).mock(return_value=httpx.Response(200, content=big))
    r = await client.get(f"{API}/search", params={"q": "kobo"})
    assert r.status_code == 503 and "Hacker News" in r.json()["detail"] and "could not be used" in r.json()["detail"]
    # a fixed host that resolves to a private address is not asked at all
    from twlookup.platform import fetch as safe

    live_on.setattr(safe, "resolve", safe.static_resolver({"hn.algolia.com": ["10.0.0.5"]}))
    route = respx.get(url__startswith=live.HN_SEARCH).mock(return_value=httpx.Response(200, content=HN_BODY))
    before = route.call_count
    r = await client.get(f"{API}/search", params={"q": "kobo"})
    assert r.status_code == 503 and route.call_count == before
    assert "10.0.0.5" in r.json()["detail"] or "private" in r.json()["detail"]


async def test_slow_upstream_does_not_slow_other_requests(client, live_on):
    monkeypatch = live_on

    async def slow(*args, **kwargs):
        await asyncio.sleep(1.0)
        return []

    monkeypatch.setattr(live, "search", slow)
    start = time.monotonic()
    slow_call = asyncio.create_task(client.get(f"{API}/search", params={"q": "kobo"}))
    await asyncio.sleep(0.05)
    fast = await client.get(f"{API}/topics")
    fast_done = time.monotonic() - start
    await slow_call
    assert fast.status_code == 200 and fast_done < 0.9


async def test_live_disabled_by_default(client):
    from twlookup.settings import Settings

    assert Settings(_env_file=None).opinions_live is False
    assert not live.enabled()
    with respx.mock(assert_all_called=False) as mock:
        route = mock.get(url__startswith=live.HN_SEARCH)
        await client.get(f"{API}/search", params={"q": "kobo"})
        assert not route.called
    with pytest.raises(Problem):
        raise Problem(503, "x")


async def test_github_and_v2ex_threads_keep_unknown_counts_unknown(client, monkeypatch):
    monkeypatch.setattr(clock, "_fixed", date(2026, 11, 23))
    body = (await client.get(f"{API}/topic/ai-coding-assistants")).json()
    items = {i["id"]: i for i in body["items"]}
    gh = items["gh:microsoft/vscode-copilot-release#1445"]
    assert gh["link"] == "https://github.com/microsoft/vscode-copilot-release/issues/1445"
    assert gh["community"] == "github (github.com/microsoft/vscode-copilot-release)"
    assert gh["score"] is None and gh["comments"] is None
    parts = {p["name"]: p for p in gh["credibility"]["parts"]}
    assert parts["community"]["points"] == 0 and "not shown in the copy read" in parts["community"]["why"]
    assert parts["replies"]["points"] == 0 and "pre_ai" not in parts and "age" not in parts
    assert gh["licence"].startswith("Copyright of the authors (GitHub)") and gh["summary_by"].startswith("this site")
    assert {i["stance"] for i in body["items"]} == {"recommend", "not-recommend"}
    kb = (await client.get(f"{API}/topic/mechanical-keyboards")).json()
    v2 = next(i for i in kb["items"] if i["id"] == "v2ex:826707")
    assert v2["link"] == "https://v2ex.com/t/826707" and v2["community"] == "v2ex"
    assert v2["source"]["url"] == "https://github.com/dropod/issues/issues/10477"


def test_every_stored_thread_links_to_its_community_and_a_copy_read():
    from twlookup.platform.records import load_records
    from twlookup.services.opinions.records import Thread

    threads = load_records(DEFAULT_DATA / "opinions" / "threads.yaml", Thread, "threads")
    assert len(threads) >= 15
    hosts = {
        "hackernews": "https://news.ycombinator.com/item?id=",
        "github": "https://github.com/",
        "v2ex": "https://v2ex.com/t/",
    }
    for t in threads:
        assert t.url.startswith(hosts[t.community]), t.id
        assert t.source.startswith("https://") and t.summary and t.checked == date(2026, 11, 23)
        assert t.licence and "summary and link only" in t.licence
        if t.community == "github":
            assert t.url == t.source and t.score is None and t.comments is None
