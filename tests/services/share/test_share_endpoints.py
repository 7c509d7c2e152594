"""share over HTTP: public lists show only approved items; submissions, votes and comments go
through review (API and CLI); the score formula against hand-worked values; paid routes; limits."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
import respx

from twlookup import cli
from twlookup.app import create_app
from twlookup.platform import review
from twlookup.platform.store import engine as store_engine
from twlookup.services.share import data, logic
from twlookup.services.share.tables import ClickRow, CommentRow, ShareRow
from twlookup.settings import Settings

TOKEN = "share-operator-" + "z" * 24
OTHER = "bikes-operator-" + "w" * 24
VIDEO = "https://youtu.be/dQw4w9WgXcQ?si=abc"


def auth(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _clean() -> None:
    with store_engine.session() as s, s.begin():
        s.query(review.Decision).filter(review.Decision.service == "share").delete()
        s.query(review.Submission).filter(review.Submission.service == "share").delete()
        s.query(ClickRow).delete()
        real = [r.id for r in s.query(ShareRow).filter(ShareRow.sample.is_(False))]
        s.query(CommentRow).filter(CommentRow.share_id.in_(real)).delete()
        s.query(CommentRow).delete()
        s.query(ShareRow).filter(ShareRow.sample.is_(False)).delete()
        s.query(ShareRow).update({ShareRow.comments: 0})


@pytest.fixture
def oembed():
    """Mocked oEmbed upstreams (tests/services/share/examples.py MOCKS): no traffic leaves the machine."""
    import service_examples

    with service_examples.mocks("share") as mock:
        yield mock


@pytest.fixture
async def share(db_url, oembed):
    _clean()
    settings = Settings(
        database_url=db_url,
        rate_limit_default="100000/minute",
        _env_file=None,
        review_operators=[
            review.operator_entry("olivia", "share", TOKEN),
            review.operator_entry("bob", "bikes", OTHER),
        ],
    )
    app = create_app(settings)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        yield c
    _clean()


def test_score_formula_hand_worked():
    now = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    c = logic.Counts(votes=10, comments=3, clicks=20)
    assert logic.points(c) == 18.0  # 10 + 2x3 + 0.1x20
    # 2 hours old: 18 / (2 + 2)^1.8 = 18 / 12.1257 = 1.48445
    assert logic.score(c, now - timedelta(hours=2), now) == pytest.approx(1.48445, abs=1e-4)
    # brand new: 18 / 2^1.8 = 18 / 3.48220 = 5.16915
    assert logic.score(c, now, now) == pytest.approx(5.16915, abs=1e-4)
    assert logic.window_start("week", now) == now - timedelta(days=7)


async def test_nothing_unreviewed_is_public_and_review_publishes(share):
    before = (await share.get("/share/api/stats")).json()
    r = await share.post(
        "/share/api/shares",
        json={"url": VIDEO, "description": "經典歌曲", "category": "music", "title": "Never Gonna Give You Up"},
    )
    assert r.status_code == 200 and r.json()["submission"]["status"] == "submitted" and "審核" in r.json()["note"]
    sub = r.json()["submission"]["id"]
    # the same video written another way is the same submission
    r = await share.post(
        "/share/api/shares",
        json={"url": "https://m.youtube.com/shorts/dQw4w9WgXcQ", "description": "again", "category": "music"},
    )
    assert r.status_code == 409 and r.json()["id"] == sub
    for path in ("/share/api/new", "/share/api/rankings?period=year", "/share/api/search?q=Never"):
        assert "dQw4w9WgXcQ" not in (await share.get(path)).text, path
    stats = (await share.get("/share/api/stats")).json()
    assert stats["shares"] == before["shares"] and stats["waiting_for_review"] == 1
    assert (await share.get("/share/api/review/queue")).status_code == 401
    assert (await share.get("/share/api/review/queue", headers=auth(OTHER))).status_code == 403

    r = await share.post("/share/api/review/decide", json={"ids": [sub], "decision": "approve"}, headers=auth())
    assert r.status_code == 200 and r.json()["decided"][0]["decided_by"] == "olivia"
    found = (await share.get("/share/api/search", params={"q": "never gonna"})).json()["shares"]
    assert (
        len(found) == 1
        and found[0]["url"] == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
        and found[0]["sample"] is False
    )
    share_id = found[0]["id"]
    r = await share.post("/share/api/shares", json={"url": VIDEO, "description": "again", "category": "music"})
    assert r.status_code == 409 and r.json()["id"] == share_id  # now an existing public share

    # votes and comments: counted / shown only once approved; a rejected comment never shows
    v = (await share.post("/share/api/vote", json={"id": share_id})).json()["submission"]["id"]
    assert (
        await share.post("/share/api/vote", json={"id": share_id})
    ).status_code == 409  # one per client per share per day
    c1 = (await share.post("/share/api/comment", json={"id": share_id, "body": "好聽"})).json()["submission"]["id"]
    c2 = (await share.post("/share/api/comment", json={"id": share_id, "body": "廣告連結 buy now"})).json()[
        "submission"
    ]["id"]
    detail = (await share.get(f"/share/api/shares/{share_id}")).json()
    assert detail["share"]["votes"] == 0 and detail["comments"] == []
    await share.post("/share/api/review/decide", json={"ids": [v, c1], "decision": "approve"}, headers=auth())
    await share.post(
        "/share/api/review/decide", json={"ids": [c2], "decision": "reject", "reason": "spam"}, headers=auth()
    )
    detail = (await share.get(f"/share/api/shares/{share_id}")).json()
    assert detail["share"]["votes"] == 1 and detail["share"]["comments"] == 1
    assert [c["body"] for c in detail["comments"]] == ["好聽"]
    assert (await share.get("/share/api/review/queue?status=rejected", headers=auth())).json()["submissions"][0][
        "reason"
    ] == "spam"
    ranked = (await share.get("/share/api/rankings", params={"period": "day", "platform": "youtube"})).json()
    assert [s["id"] for s in ranked["shares"]] == [share_id] and ranked["shares"][0]["rank"] == 1


async def test_cli_review_of_a_share(share, db_url, monkeypatch, capsys):
    monkeypatch.setattr(cli, "_settings", lambda: Settings(database_url=db_url, _env_file=None))
    r = await share.post(
        "/share/api/shares", json={"url": "https://vimeo.com/76979871", "description": "短片", "category": "other"}
    )
    sub = r.json()["submission"]["id"]
    assert cli.main(["review", "list", "share"]) == 0 and f"#{sub} share submitted" in capsys.readouterr().out
    assert cli.main(["review", "reject", "share", str(sub), "--operator", "carol", "--reason", "not from Taiwan"]) == 0
    assert "vimeo" not in (await share.get("/share/api/new")).text
    export = await share.get("/share/api/search", params={"q": "短片"})
    assert export.json()["count"] == 0


async def test_clicks_count_once_per_client_per_day(share, tmp_path):
    with samples_seeded(tmp_path):
        ident = (await share.get("/share/api/new")).json()["shares"][0]["id"]
        first = (await share.post("/share/api/click", json={"id": ident})).json()
        again = (await share.post("/share/api/click", json={"id": ident})).json()
        assert first["counted"] is True and again == {"id": ident, "counted": False, "clicks": first["clicks"]}


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "name"),
    [
        (
            "POST",
            "/share/api/shares",
            {"url": "https://example.com/v/1", "description": "xx", "category": "music"},
            422,
            "url",
        ),
        ("POST", "/share/api/shares", {"url": VIDEO, "description": "xx", "category": "cooking"}, 422, "category"),
        ("POST", "/share/api/shares", {"url": VIDEO, "description": "x", "category": "music"}, 422, "description"),
        ("POST", "/share/api/comment", {"id": 1, "body": "  "}, 422, "body"),
        ("POST", "/share/api/vote", {"id": 999999}, 404, None),
        ("GET", "/share/api/shares/999999", None, 404, None),
        ("GET", "/share/api/rankings?period=decade", None, 422, "period"),
        ("GET", "/share/api/new?limit=51", None, 422, "limit"),
        ("GET", "/share/api/search?q=", None, 422, "q"),
    ],
)
async def test_errors(share, method, path, body, status, name):
    r = await share.request(method, path, json=body)
    assert r.status_code == status
    if name:
        assert r.json()["errors"][0]["parameter"] == name
    else:
        assert "999999" in r.json()["detail"]


FACILITATOR = "https://facilitator.test"
SOLANA = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"


async def test_paid_routes_ask_for_payment_on_two_networks(fresh_store):
    from for_sale import put_on_sale

    db_url = fresh_store
    put_on_sale(db_url)  # an empty store is not sold: these stand for real shares
    supported = {
        "kinds": [
            {"x402Version": 2, "scheme": "exact", "network": "eip155:8453"},
            {
                "x402Version": 2,
                "scheme": "exact",
                "network": SOLANA,
                "extra": {"feePayer": "EwWqGE4ZFKLofuestmU4LDdK7XM1N4ALgdZccwYugwGd"},
            },
        ],
        "extensions": [],
        "signers": {},
    }
    settings = Settings(
        database_url=db_url,
        _env_file=None,
        facilitator="remote",
        facilitator_url=FACILITATOR,
        pay_to_svm="9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    )
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{FACILITATOR}/supported").respond(json=supported)
        app = create_app(settings)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            for path, amount in (
                ("/share/api/pro/pack", "300000"),
                ("/share/api/pro/trend", "20000"),
                ("/share/api/pro/export", "50000"),
            ):
                r = await c.get(path)
                assert r.status_code == 402
                accepts = r.json()["accepts"]
                assert [a["network"] for a in accepts] == [
                    "eip155:8453",
                    SOLANA,
                ]  # USDC on an EVM layer-2 and on Solana
                assert {a["amount"] for a in accepts} == {amount}


def test_paid_answers_directly(tmp_path):
    from twlookup.services.share import operations
    from twlookup.services.share.schemas import TrendQuery

    with samples_seeded(tmp_path):
        trend = operations.trend(TrendQuery(period="year"))
        assert trend.count == len(trend.top) and sum(trend.platforms.values()) == trend.count and trend.sample
        export = operations.export()
        assert all(i.sample for i in export.shares) and "著作權屬於原作者" in export.notice
        pack = operations.pack()
        assert pack.markdown.startswith("# twlookup share") and "範例資料（sample）" in pack.markdown


async def test_sixty_calls_per_ip_per_minute(db_url):
    app = create_app(Settings(database_url=db_url, _env_file=None))  # share's spec limit, not the test default
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        for _ in range(60):
            assert (await c.get("/share/api/stats")).status_code == 200
        r = await c.get("/share/api/stats")
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1


async def test_title_from_youtube_oembed_through_the_safe_fetcher(share, oembed):
    r = await share.post(
        "/share/api/shares", json={"url": VIDEO, "description": "經典", "category": "music", "title": "my title"}
    )
    payload = r.json()["submission"]["payload"]
    assert payload["title"] == "Rick Astley - Never Gonna Give You Up (Official Video) (4K Remaster)"
    assert payload["title_from"] == "oembed"
    asked = [c.request.url for c in oembed.calls if c.request.url.host == "www.youtube.com"]
    assert asked and asked[0].params["url"] == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"


async def test_oembed_failure_or_refusal_keeps_the_submitters_title(share, oembed, monkeypatch):
    from twlookup.platform import fetch as fetch_module

    # vimeo's oEmbed answers 404 here: the submitter's title is kept
    r = await share.post(
        "/share/api/shares",
        json={"url": "https://vimeo.com/76979871", "description": "短片", "category": "other", "title": "A film"},
    )
    assert (r.json()["submission"]["payload"]["title"], r.json()["submission"]["payload"]["title_from"]) == (
        "A film",
        "submitter",
    )
    # a name that resolves to a private address is refused by the fetcher: still submitted, no title fetched
    monkeypatch.setattr(fetch_module, "resolve", fetch_module.static_resolver({"www.youtube.com": ["10.0.0.5"]}))
    r = await share.post(
        "/share/api/shares", json={"url": "https://youtu.be/aaaaaaaaaaa", "description": "測試", "category": "other"}
    )
    assert r.status_code == 200 and r.json()["submission"]["payload"]["title_from"] == "none"
    # an upstream that cannot be reached (DNS failure) does not hold the submission up
    monkeypatch.setattr(fetch_module, "resolve", fetch_module.static_resolver({}))
    r = await share.post(
        "/share/api/shares", json={"url": "https://youtu.be/bbbbbbbbbbb", "description": "測試", "category": "other"}
    )
    assert r.status_code == 200 and r.json()["submission"]["payload"]["title_from"] == "none"


async def test_a_slow_oembed_does_not_hold_up_other_requests(share, oembed):
    import asyncio
    import time

    async def slow(request):
        await asyncio.sleep(1.0)
        return httpx.Response(200, json={"title": "slow title"})

    oembed.get(url__startswith="https://www.youtube.com/oembed").mock(side_effect=slow)
    started = time.monotonic()
    submit = asyncio.create_task(
        share.post(
            "/share/api/shares",
            json={"url": "https://youtu.be/ccccccccccc", "description": "很慢的影片", "category": "other"},
        )
    )
    await asyncio.sleep(0.1)
    stats = await share.get("/share/api/stats")
    stats_done = time.monotonic() - started
    r = await submit
    assert stats.status_code == 200 and stats_done < 0.9  # answered while the oEmbed call was still waiting
    assert r.json()["submission"]["payload"]["title"] == "slow title" and time.monotonic() - started >= 1.0


async def test_sixty_per_minute_across_two_processes_sharing_redis(db_url):
    import os
    import uuid

    url = os.environ.get("TWLOOKUP_TEST_REDIS_URL")
    if not url:
        pytest.skip("TWLOOKUP_TEST_REDIS_URL is not set (Redis tests need a server; .ci/run sets it)")
    ip = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"  # a fresh key per run
    apps = [
        create_app(Settings(database_url=db_url, redis_url=url, _env_file=None)) for _ in range(2)
    ]  # two app instances
    clients = [
        httpx.AsyncClient(transport=httpx.ASGITransport(app=a, client=(ip, 1)), base_url="http://t") for a in apps
    ]
    try:
        codes = [(await clients[i % 2].get("/share/api/stats")).status_code for i in range(61)]
        assert codes[:60] == [200] * 60 and codes[60] == 429  # 30 through each instance, then the 61st is refused
    finally:
        for c in clients:
            await c.aclose()


SAMPLES = Path(__file__).parent / "fixtures"  # test-only illustrations: share/sample.yaml with three 範例 rows
SHIPPED = Path(__file__).resolve().parents[3] / "data"


@contextmanager
def samples_seeded(folder: Path):
    """The operator lists the three test illustrations in share/sample.yaml (under `folder`) and re-seeds;
    afterwards the shipped (empty) seed again."""
    (folder / "share").mkdir(parents=True)
    (folder / "share" / "sample.yaml").write_text((SAMPLES / "sample.yaml").read_text(encoding="utf-8"), "utf-8")
    try:
        with store_engine.session() as s, s.begin():
            assert data.seed_share(s, folder) == 3
        yield
    finally:
        with store_engine.session() as s, s.begin():
            assert data.seed_share(s, SHIPPED) == 0


def test_the_shipped_seed_holds_no_invented_share():
    from twlookup.platform.store.seed import load_yaml

    assert load_yaml(SHIPPED / "share" / "sample.yaml")["shares"] == []
    with store_engine.session() as s:
        assert s.query(ShareRow).filter(ShareRow.sample.is_(True)).count() == 0


async def test_the_empty_state_says_how_to_contribute(share):
    for path in ("/share/api/rankings?period=month", "/share/api/new", "/share/api/search?q=夜市", "/share/api/stats"):
        body = (await share.get(path)).json()
        assert body["sample"] is False and "POST /share/api/shares" in body["note"], path
        assert "operator approves" in body["note"] and "reviewed" in body["note"], path


async def test_the_paid_export_of_an_empty_store_is_not_sold(share):
    r = await share.get("/share/api/pro/export")
    assert r.status_code == 503 and int(r.headers["retry-after"]) >= 60
    assert "share_share holds no rows" in r.json()["detail"] and "payment-required" not in r.headers


async def test_samples_are_marked_in_every_answer_and_can_be_dropped(share, monkeypatch, tmp_path):
    from twlookup.services.share import operations

    monkeypatch.setattr(operations, "now_utc", lambda: datetime(2026, 11, 23, 12, 0, tzinfo=UTC))
    with samples_seeded(tmp_path / "seeded"):
        for path in (
            "/share/api/rankings?period=month",
            "/share/api/new",
            "/share/api/search?q=範例",
        ):
            body = (await share.get(path)).json()
            assert body["sample"] is True and body["shares"] and body["note"] is None, path
            assert all(s["sample"] and "範例" in s["title"] for s in body["shares"]), path
        stats = (await share.get("/share/api/stats")).json()
        assert stats["sample"] is True and stats["shares"] == 3
        first = (await share.get("/share/api/new")).json()["shares"][0]["id"]
        assert (await share.get(f"/share/api/shares/{first}")).json()["share"]["sample"] is True
        r = await share.get("/share/api/pro/export")  # never sold while a sample row is stored
        assert r.status_code == 503 and "3 sample rows" in r.json()["detail"]

        # the operator drops the samples: an empty list in sample.yaml and a re-seed
        (tmp_path / "share").mkdir()
        (tmp_path / "share" / "sample.yaml").write_text("shares: []\n", encoding="utf-8")
        with store_engine.session() as s, s.begin():
            assert data.seed_share(s, tmp_path) == 0
        stats = (await share.get("/share/api/stats")).json()
        assert stats["shares"] == 0 and stats["sample"] is False
        new = (await share.get("/share/api/new")).json()
        assert (new["count"], new["shares"], new["sample"]) == (0, [], False)


@pytest.mark.parametrize("path", ["/share/api/vote", "/share/api/comment", "/share/api/click"])
@pytest.mark.parametrize("ident", [True, "1", 1.5, 0])
async def test_a_body_id_must_be_a_json_integer(share, path, ident):
    body = {"id": ident, "body": "好聽"} if path.endswith("comment") else {"id": ident}
    r = await share.post(path, json=body)
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "id", r.text


@pytest.mark.parametrize("path", ["/share/api/vote", "/share/api/comment", "/share/api/click"])
async def test_an_integer_valued_float_is_the_integer(share, path):
    """JSON Schema counts 57619668.0 as an integer: it is that id (no such share: 404), not a 422."""
    body = {"id": 57619668.0, "body": "好聽"} if path.endswith("comment") else {"id": 57619668.0}
    r = await share.post(path, json=body)
    assert r.status_code == 404 and "57619668" in r.json()["detail"], r.text
