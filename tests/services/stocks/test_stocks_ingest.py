"""The daily-closes importer: the exchanges' file formats, its errors, and `twlookup ingest` changing
what a running app answers without a restart.

The CLI test runs on its own SQLite store so that the shared test store keeps its seed data.
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from twlookup.app import create_app
from twlookup.cli import main
from twlookup.platform.store import engine as store_engine
from twlookup.services.stocks.parsers import parse
from twlookup.settings import Settings, get_settings

FIXTURES = Path(__file__).parent / "fixtures"
TWSE = FIXTURES / "twse_stock_day_all.json"
TPEX = FIXTURES / "tpex_daily_close_quotes.json"
FOLLOWED = {"0056", "00878", "2317", "2382", "2357", "6669", "3324", "3363", "3081"}


def test_parse_twse_stock_day_all():
    feed, closes = parse(TWSE.read_bytes(), FOLLOWED)
    assert feed.market == "TWSE"
    by_code = {c.code: c for c in closes}
    assert set(by_code) == {"0056", "00878", "2317", "2382", "6669"}  # 0050 not followed; 2357 did not trade
    assert by_code["2382"].date == date(2026, 11, 23)  # ROC 115/11/23
    assert (by_code["2382"].close, by_code["2382"].change) == (Decimal("259.50"), Decimal("-2.5000"))
    assert by_code["0056"].close == Decimal("36.60")


def test_parse_tpex_daily_close_quotes():
    feed, closes = parse(TPEX.read_bytes(), FOLLOWED)
    assert feed.market == "TPEx"
    by_code = {c.code: c for c in closes}
    assert set(by_code) == {"3324", "3363"}  # 3081 shows "----": no trade that day
    assert by_code["3324"].change == Decimal("25.00") and by_code["3363"].change == Decimal("-1.50")


@pytest.mark.parametrize("marker", ["除息", "除權", "除權息 ", "X0.00"])
def test_parse_keeps_an_ex_dividend_day_with_its_change_unknown(marker):
    """TPEx writes 除息/除權/除權息 in Change on an ex-dividend or ex-rights day, TWSE marks the change "X"
    (not compared): the close is real and kept, the change is unknown, and the file still imports."""
    row = {
        "Date": "1151120",
        "SecuritiesCompanyCode": "3324",
        "CompanyName": "雙鴻",
        "Close": "1015.00",
        "Change": marker,
    }
    feed, closes = parse(json.dumps([row]).encode(), FOLLOWED)
    assert feed.market == "TPEx" and len(closes) == 1
    assert closes[0].close == Decimal("1015.00") and closes[0].change is None


def rows(**changes):
    row = {"Date": "1151123", "Code": "2382", "Name": "廣達", "ClosingPrice": "259.50", "Change": "-2.5000"}
    row.update(changes)
    return json.dumps([row]).encode()


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"<html>rate limited</html>", "not UTF-8 JSON"),
        (b"[]", "non-empty JSON array"),
        (b'{"Code": "2382"}', "non-empty JSON array"),
        (b"[1, 2]", "array of objects"),
        (json.dumps([{"Symbol": "2382", "Price": "1"}]).encode(), "neither a TWSE STOCK_DAY_ALL file"),
        (rows(Date="2026-11-23"), "not an ROC date"),
        (rows(Date="1151131"), "not a real date"),
        (rows(ClosingPrice="abc"), "ClosingPrice 'abc' is not a number"),
        (rows(ClosingPrice="0"), "not a positive price"),
        (rows(Change="up"), "Change 'up' is not a number"),
        (rows(Code="1101"), "no traded record of a followed security"),
        (json.dumps([{"Code": "2382", "ClosingPrice": "1"}]).encode(), "no Date field"),
    ],
)
def test_parse_rejects_what_is_not_a_daily_file(raw, message):
    with pytest.raises(ValueError, match=message):
        parse(raw, FOLLOWED)


@pytest.fixture
def own_store(tmp_path, monkeypatch, db_url, fresh_store):
    url = fresh_store  # a copy of the seeded template store
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", url)
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()
    store_engine.configure(db_url)  # hand the shared test store back to the tests that follow


async def test_cli_ingest_changes_the_answers_without_restart(own_store, capsys):
    app = create_app(Settings(database_url=own_store, rate_limit_default="100000/minute", _env_file=None))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as client:
        before = (await client.get("/stocks/api/status")).json()
        assert before["updated_at"] is None and before["latest_trading_date"] == "2026-11-20" and before["sample"]
        stock = (await client.get("/stocks/api/stock/2382")).json()
        assert stock["latest"]["date"] == "2026-11-20" and stock["market"] is None

        assert main(["ingest", "stocks.closes", str(TWSE)]) == 0
        assert main(["ingest", "stocks.closes", str(TPEX)]) == 0
        assert "stocks.closes: 5 rows imported" in capsys.readouterr().out

        after = (await client.get("/stocks/api/status")).json()
        assert after["latest_trading_date"] == "2026-11-23" and after["updated_at"] is not None
        (feed,) = after["feeds"]
        parts = {p["part"]: p for p in feed["parts"]}  # one part per exchange's file
        assert parts["TWSE"]["data_date"] == "2026-11-23" and parts["TWSE"]["rows"] == 5
        assert parts["TPEx"]["rows"] == 2 and parts["TPEx"]["via"] == "ingest"
        assert feed["data_date"] == "2026-11-23" and feed["last_import"] is not None and feed["failing"] is False
        stock = (await client.get("/stocks/api/stock/2382")).json()
        assert stock["latest"] == {
            "date": "2026-11-23",
            "close": 259.5,
            "change": -2.5,
            "change_pct": -0.95,
            "market": "TWSE",
            "sample": False,
        }
        # the made-up sample days of 2382 are gone: its series holds only the real close
        assert stock["market"] == "TWSE" and stock["days"] == 1 and stock["sample"] is False
        assert [s["url"] for s in stock["close_sources"]] == [
            "https://openapi.twse.com.tw/v1/exchangeReport/STOCK_DAY_ALL"
        ]
        otc = (await client.get("/stocks/api/stock/3324")).json()
        assert otc["market"] == "TPEx" and otc["latest"]["close"] == 1015.0
        theme = (await client.get("/stocks/api/themes/ai-server")).json()
        asus = next(m for m in theme["members"] if m["code"] == "2357")
        assert asus["latest"]["date"] == "2026-11-20"  # no trade on the 23rd: the previous close stands
        assert theme["stats"]["latest_date"] == "2026-11-23"
        # the 23rd's counts: 2317 +3, 2382 -2.5, 6669 0, 3231 not in the file, 2357 no trade -> both left out
        stats = theme["stats"]
        assert (stats["advancing"], stats["declining"], stats["unchanged"], stats["not_compared"]) == (1, 1, 1, 2)
        etf = (await client.get("/stocks/api/etf/0056")).json()["etf"]
        assert etf["latest"]["close"] == 36.6 and etf["estimate_2027"]["price"] == 36.6

        # a re-seed replaces the sample snapshot but keeps imported closes
        assert main(["seed"]) == 0
        stock = (await client.get("/stocks/api/stock/2382")).json()
        assert stock["latest"]["date"] == "2026-11-23" and stock["latest"]["sample"] is False
        assert stock["days"] == 1 and stock["sample"] is False  # no sample day came back
        asus = (await client.get("/stocks/api/stock/2357")).json()
        assert asus["sample"] is True and asus["days"] == 10  # not traded in the files: still the sample


def test_cli_ingest_reports_a_bad_file(own_store, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"Code": "2382", "ClosingPrice": "1"}]')
    assert main(["ingest", "stocks.closes", str(bad)]) == 1
    assert "no Date field" in capsys.readouterr().err
