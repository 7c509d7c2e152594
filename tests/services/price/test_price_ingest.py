"""`twlookup ingest price.daily FILE` against fixture files in the feed's published format: the
running app answers from the new observations without a restart, imported products lose their
sample history for good, and a bad file changes nothing."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from twlookup.app import create_app
from twlookup.cli import DEFAULT_DATA, main
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.seed import seed
from twlookup.services import load_seeders
from twlookup.settings import Settings, get_settings

pytestmark = pytest.mark.asyncio

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
async def store(tmp_path, monkeypatch, settings, fresh_store):
    """A store of its own (ingesting must not change what the other tests read), and a client."""
    url = fresh_store  # a copy of the seeded template store
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", url)
    get_settings.cache_clear()  # the CLI reads its settings (and so the store) from the environment
    app = create_app(Settings(database_url=url, rate_limit_default="100000/minute", _env_file=None))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        yield c
    get_settings.cache_clear()
    store_engine.configure(settings.database_url)


def ingest(name: str) -> int:
    return main(["ingest", "price.daily", str(FIXTURES / name)])


async def test_ingest_changes_the_answers_without_restart(store, capsys):
    before = (await store.get("/price/api/product/LA1")).json()
    assert before["sample"] is True and before["as_of"] == "2026-11-21"
    assert await _counts(store) == {"vegetables": 7, "fruits": 5}

    assert ingest("farm_trans_115.11.22.json") == 0
    assert "4 rows imported" in capsys.readouterr().out  # the rest-day marker is skipped
    body = (await store.get("/price/api/product/LA1")).json()
    # 11-22: 台北一 18.0, 台中市 16.0 -> the day's price is 16.0 at 台中市; the sample history is gone
    assert body["as_of"] == "2026-11-22" and body["sample"] is False
    assert (body["product"]["price"], body["product"]["market"], body["product"]["sample"]) == (16.0, "台中市", False)
    assert body["product"]["source"]["url"] == "https://data.moa.gov.tw/Service/OpenData/FromM/FarmTransData.aspx"
    assert [m["market"] for m in body["markets"]] == ["台中市", "台北一"]
    s = body["summary"]
    assert (s["days_observed"], s["min"], s["max"], s["mean"], s["current"], s["above_low"]) == (
        1,
        16.0,
        16.0,
        16.0,
        16.0,
        0.0,
    )
    assert await _counts(store) == {"vegetables": 8, "fruits": 5}  # SM1 牛蒡 is new
    cats = {c["slug"]: c for c in (await store.get("/price/api/categories")).json()["categories"]}
    # LA1 and SM1 (vegetables) and A1 (fruits) have published prices now; the others are still sample
    assert (cats["vegetables"]["sample_products"], cats["fruits"]["sample_products"]) == (6, 4)
    assert cats["vegetables"]["sample"] is True
    assert {s["sample"] for s in cats["vegetables"]["prices_sources"]} == {False, True}
    assert (await store.get("/price/api/deals")).json()["count"] == 0  # nothing imported traded before

    assert ingest("farm_trans_115.11.24.json") == 0
    deals = (await store.get("/price/api/deals")).json()
    # LA1 16.0 -> 12.0: 4.0, 25 %; A1 30.0 -> 27.0: 3.0, 10 %; SM1 rose 51.5 -> 55.0
    assert deals["as_of"] == "2026-11-24" and deals["sample"] is False
    assert [
        (d["id"], d["previous_price"], d["price"], d["drop_amount"], d["drop_percent"]) for d in deals["drops"]
    ] == [
        ("LA1", 16.0, 12.0, 4.0, 25.0),
        ("A1", 30.0, 27.0, 3.0, 10.0),
    ]
    s = (await store.get("/price/api/product/la1")).json()["summary"]
    # 16.0 and 12.0: min 12, max 16, mean 14, low on 11-24, current at the low
    assert (s["min"], s["max"], s["mean"], s["low_date"], s["above_low"], s["above_low_percent"]) == (
        12.0,
        16.0,
        14.0,
        "2026-11-24",
        0.0,
        0.0,
    )
    sm1 = (await store.get("/price/api/product/SM1")).json()
    assert (
        sm1["product"]["category"] == "vegetables" and sm1["product"]["price"] == 55.0
    )  # no 種類代碼: stays a vegetable
    la2 = (await store.get("/price/api/product/LA2")).json()
    assert la2["sample"] is True and la2["product"]["price_date"] == "2026-11-21"  # untouched sample product

    seed(load_seeders(), DEFAULT_DATA)  # a re-seed does not bring LA1's sample history back
    body = (await store.get("/price/api/product/LA1")).json()
    assert body["sample"] is False and body["summary"]["days_observed"] == 2


async def test_a_bad_file_changes_nothing(store, tmp_path, capsys):
    before = (await store.get("/price/api/product/LA1")).json()
    bad = tmp_path / "bad.json"
    bad.write_text(
        '[{"交易日期":"115.11.22","種類代碼":"N06","作物代號":"FA1","作物名稱":"玫瑰","市場代號":"105",'
        '"市場名稱":"台北市場","上價":1,"中價":1,"下價":1,"平均價":1,"交易量":1}]',
        encoding="utf-8",
    )
    assert main(["ingest", "price.daily", str(bad)]) == 1
    assert "種類代碼 'N06' is not one of ['N04', 'N05']" in capsys.readouterr().err
    new_without_kind = tmp_path / "new.json"
    new_without_kind.write_text(
        '[{"交易日期":"115.11.22","作物代號":"ZZ9","作物名稱":"新作物","市場代號":"109",'
        '"市場名稱":"台北一","上價":1,"中價":1,"下價":1,"平均價":1,"交易量":1}]',
        encoding="utf-8",
    )
    assert main(["ingest", "price.daily", str(new_without_kind)]) == 1
    assert "no 種類代碼" in capsys.readouterr().err
    empty = tmp_path / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    assert main(["ingest", "price.daily", str(empty)]) == 1
    assert (await store.get("/price/api/product/LA1")).json() == before


async def _counts(c: httpx.AsyncClient) -> dict[str, int]:
    return {x["slug"]: x["product_count"] for x in (await c.get("/price/api/categories")).json()["categories"]}
