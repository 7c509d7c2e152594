"""`twlookup ingest life.invoice | life.lottery | life.fuel FILE`: each importer reads its publisher's
format (fixtures in tests/services/life/fixtures, whose values are made up unless their comment
says otherwise) and changes what a running app answers, without a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from twlookup import cli
from twlookup.app import create_app
from twlookup.platform.store import engine as store_engine
from twlookup.settings import get_settings

pytestmark = pytest.mark.asyncio

FIXTURES = Path(__file__).parent / "fixtures"
BASE = "/life/api"


@pytest.fixture
async def store(tmp_path, settings, monkeypatch, fresh_store) -> AsyncIterator[httpx.AsyncClient]:
    """A store of its own (the shared one stays as seeded), served by a running app."""
    url = fresh_store  # a copy of the seeded template store
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", url)
    get_settings.cache_clear()  # `twlookup ingest` reads its settings (and so this store) from the environment
    app = create_app(settings.model_copy(update={"database_url": url}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        yield c
    get_settings.cache_clear()
    store_engine.configure(settings.database_url)  # the engine is process-wide: give the shared store back


def ingest(feed: str, name: str) -> int:
    return cli.main(["ingest", feed, str(FIXTURES / name)])


async def test_invoice_feed(store, capsys):
    assert (await store.get(f"{BASE}/invoice/latest")).json()["period"] == "114-11-12"
    assert ingest("life.invoice", "invoice.xml") == 0
    assert "life.invoice: 3 rows imported" in capsys.readouterr().out
    latest = (await store.get(f"{BASE}/invoice/latest")).json()
    assert latest["period"] == "115-01-02" and latest["special"] == "12345678"
    assert latest["draw_date"] == "2026-03-25" and latest["source"]["url"].endswith("ETW183W2_11501/")
    assert latest["sample"] is False and latest["reported_by"] is None  # read from the publisher's own file
    old = (await store.get(f"{BASE}/invoice/101-09-10")).json()
    assert old["additional_sixth"] == ["843", "927"] and "additional_sixth" in {p["prize"] for p in old["prizes"]}
    check = (await store.get(f"{BASE}/invoice/check", params={"number": "00000927", "period": "101-09-10"})).json()
    assert check["prize"] == "additional_sixth" and check["amount"] == 200
    # the imported 114-11-12 is the same as the shipped one; 114-09-10 is kept
    assert (await store.get(f"{BASE}/invoice/114-11-12")).json()["grand"] == "00507588"
    assert (await store.get(f"{BASE}/invoice/114-09-10")).json()["special"] == "25834483"


async def test_lottery_feed(store):
    before = (await store.get(f"{BASE}/lottery/lotto649")).json()
    assert before["draws"][0]["period"] == "114000117"
    assert ingest("life.lottery", "lotto649.json") == 0
    assert ingest("life.lottery", "superlotto638.json") == 0
    assert ingest("life.lottery", "daily539.json") == 0
    after = (await store.get(f"{BASE}/lottery/lotto649")).json()
    assert after["count"] == 20  # still the latest 20 of 22
    top = after["draws"][0]
    assert (top["period"], top["draw_date"], top["numbers"], top["second"], top["sample"]) == (
        "115000120",
        "2026-11-20",
        [4, 9, 18, 27, 33, 41],
        12,
        False,
    )
    assert top["source"]["url"] == "https://api.taiwanlottery.com/TLCAPIWeB/Lottery/Lotto649Result"
    latest = (await store.get(f"{BASE}/lottery/latest")).json()
    assert [d["period"] for d in latest["draws"]] == ["115000120", "115000093", "115000280"]
    assert latest["sample"] is False
    sl = (
        await store.get(
            f"{BASE}/lottery/check", params={"game": "superlotto638", "numbers": "1,7,16,22,30,38", "second": 5}
        )
    ).json()
    assert sl["tier"]["name_zh"] == "頭獎" and sl["sample"] is False
    d539 = (await store.get(f"{BASE}/lottery/check", params={"game": "daily539", "numbers": "12,14,21,35,1"})).json()
    assert d539["tier"]["name_zh"] == "貳獎" and d539["amount"] == 20_000


async def test_fuel_feeds(store):
    assert (await store.get(f"{BASE}/fuel")).json()["effective"] == "2025-12-29"
    assert ingest("life.fuel", "cpc_listprice.xml") == 0
    now = (await store.get(f"{BASE}/fuel")).json()
    prices = {p["product"]: (p["price"], p["effective"]) for p in now["products"]}
    assert prices == {
        "92": (27.0, "2026-11-16"),
        "95": (28.7, "2026-11-16"),
        "98": (30.5, "2026-11-16"),
        "diesel": (25.3, "2026-11-16"),
    }
    # the week before 2026-11-16 is not in the store (it jumps back to 2025-12-29): no "change"
    assert {p["change"] for p in now["products"]} == {None} and {p["previous_price"] for p in now["products"]} == {None}
    assert "null where the week before is not in the store" in now["note"]
    assert ingest("life.fuel", "cpc_history_95.xml") == 0
    free = (await store.get(f"{BASE}/fuel/history", params={"product": "95"})).json()
    assert free["weeks"] == 12 and free["history"][0]["effective"] == "2026-11-16"
    assert free["history"][0]["change"] == pytest.approx(0.1)  # 28.6 -> 28.7
    assert (await store.get(f"{BASE}/fuel")).json()["products"][1]["change"] == pytest.approx(0.1)
    assert free["history"][-1]["change"] is not None  # 2026-08-31 follows 2026-08-24 in the store
    assert free["history"][-1]["effective"] == "2026-08-31"
    from twlookup.platform.store.reference import Reference
    from twlookup.services.life.operations import SERVICE

    Reference.reset_all()
    full = await next(op for op in SERVICE.operations if op.path == "/api/pro/fuel/history").call({"product": "95"})
    assert full.weeks == 14 + 9 and full.limit is None  # the imported 14 weeks and the shipped 9


@pytest.mark.parametrize(
    ("feed", "content", "message"),
    [
        ("life.invoice", "<rss><channel></channel></rss>", "no <item>"),
        ("life.invoice", "not xml", "not well-formed XML"),
        (
            "life.invoice",
            "<rss><channel><item><title>最新消息</title><description>x</description></item></channel></rss>",
            "names no period",
        ),
        (
            "life.invoice",
            "<rss><item><title>115年 01~02月</title><description>&lt;p&gt;特別獎：1234&lt;/p&gt;</description></item></rss>",
            "not 8 digits",
        ),
        (
            "life.invoice",
            "<rss><item><title>115年 01~02月</title><description>&lt;p&gt;特別獎：12345678&lt;/p&gt;</description></item></rss>",
            "no 特獎",
        ),
        ("life.lottery", "{}", "no `content`"),
        ("life.lottery", '{"rtCode": 0, "content": {"other": []}}', "content has none of"),
        ("life.lottery", '{"rtCode": 9, "rtMsg": "bad", "content": {}}', "reports an error"),
        (
            "life.lottery",
            '{"content": {"lotto649Res": [{"period": 115000001, "lotteryDate": "2026-01-02T00:00:00", "drawNumberSize": [1, 2, 3]}]}}',
            "must list 7",
        ),
        (
            "life.lottery",
            '{"content": {"lotto649Res": [{"period": 115000001, "lotteryDate": "2026-01-02T00:00:00", "drawNumberSize": [1, 2, 3, 4, 5, 50, 7]}]}}',
            "main numbers",
        ),
        (
            "life.lottery",
            '{"content": {"superLotto638Res": [{"period": 115000001, "lotteryDate": "2026-01-02", "drawNumberSize": [1, 2, 3, 4, 5, 6, 9]}]}}',
            "zone-2",
        ),
        (
            "life.lottery",
            '{"content": {"daily539Res": [{"period": "x", "lotteryDate": "2026-01-02", "drawNumberSize": [1, 2, 3, 4, 5]}]}}',
            "9-digit",
        ),
        ("life.lottery", "[1, 2", "not JSON"),
        ("life.fuel", "<DataSet><tbTable><產品名稱>92無鉛汽油</產品名稱></tbTable></DataSet>", "no rows with 參考牌價"),
        (
            "life.fuel",
            "<DataSet><r><產品名稱>燃料油</產品名稱><參考牌價>18</參考牌價><牌價生效時間>2026-11-16T00:00:00</牌價生效時間></r></DataSet>",
            "no rows for 92",
        ),
        (
            "life.fuel",
            "<DataSet><r><產品名稱>92無鉛汽油</產品名稱><參考牌價>abc</參考牌價><牌價生效時間>2026-11-16T00:00:00</牌價生效時間></r></DataSet>",
            "not a number",
        ),
        (
            "life.fuel",
            "<DataSet><r><產品名稱>92無鉛汽油</產品名稱><參考牌價>27</參考牌價><牌價生效時間>下週一</牌價生效時間></r></DataSet>",
            "not an ISO",
        ),
    ],
)
async def test_bad_files_are_refused_and_change_nothing(store, tmp_path, capsys, feed, content, message):
    before = (await store.get(f"{BASE}/invoice/latest")).json(), (await store.get(f"{BASE}/fuel")).json()
    bad = tmp_path / "bad.file"
    bad.write_text(content, encoding="utf-8")
    assert cli.main(["ingest", feed, str(bad)]) == 1
    assert message in capsys.readouterr().err
    after = (await store.get(f"{BASE}/invoice/latest")).json(), (await store.get(f"{BASE}/fuel")).json()
    assert after == before


async def test_unknown_feed_lists_the_life_feeds(store, capsys):
    assert cli.main(["ingest", "life.weather", str(FIXTURES / "invoice.xml")]) == 2
    err = capsys.readouterr().err
    assert all(f in err for f in ("life.fuel", "life.invoice", "life.lottery"))


async def test_lottery_feed_reads_a_real_response(store):
    """superlotto638_real_2026-06.json: three real draws of June 2026 as Taiwan Lottery's
    SuperLotto638Result answers them (rtMsg null, integer periods, redeemableDate, per-tier *Assign
    objects; trimmed to three draws and three tiers, values unchanged; checked 2026-11-22). The claim
    deadline this service computes must equal the published redeemableDate."""
    assert ingest("life.lottery", "superlotto638_real_2026-06.json") == 0
    body = (await store.get(f"{BASE}/lottery/superlotto638")).json()
    by_period = {d["period"]: d for d in body["draws"]}
    published = {"115000052": "2026-09-29", "115000051": "2026-09-29", "115000049": "2026-09-21"}
    for period, until in published.items():
        assert by_period[period]["claim_until"] == until and by_period[period]["sample"] is False
    assert (by_period["115000049"]["numbers"], by_period["115000049"]["second"]) == ([2, 8, 9, 15, 18, 23], 4)
    # the jackpot of 2026-06-18 (one winning bet): all six and the zone-2 number
    won = (
        await store.get(
            f"{BASE}/lottery/check",
            params={"game": "superlotto638", "numbers": "23,2,9,8,15,18", "second": 4, "period": "115000049"},
        )
    ).json()
    assert won["tier"]["name_zh"] == "頭獎" and won["tier"]["pari_mutuel"] is True
    second = (
        await store.get(
            f"{BASE}/lottery/check",
            params={"game": "superlotto638", "numbers": "23,2,9,8,15,18", "second": 3, "period": "115000049"},
        )
    ).json()
    assert second["tier"]["name_zh"] == "貳獎"
