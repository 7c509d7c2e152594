"""The trip service through HTTP and MCP: every endpoint, CORS, the paid routes, every error
path, and the rate importer changing the answers without a restart."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import httpx
import pytest
from conftest import assert_problem, assert_sources
from mcp import Client

from twlookup import cli
from twlookup.app import create_app
from twlookup.domain.taiwan_calendar_tables import TAIWAN_CALENDAR
from twlookup.platform.schemas import today_taipei
from twlookup.platform.store import engine as store_engine
from twlookup.settings import Settings, get_settings

pytestmark = pytest.mark.asyncio

BASE = "/trip/api"
FIXTURE = Path(__file__).parent / "fixtures" / "ExchangeRate@202611221600.csv"
TOOLS = {
    "exchange_rates",
    "convert_currency",
    "entry_requirements",
    "destination_info",
    "japan_taxfree_rules",
    "themepark_tickets",
    "esim_estimate",
    "domestic_travel",
    "taiwan_holidays",
}


# ---------------------------------------------------------------- exchange rates


async def test_fx_board_all_and_some(client):
    body = (await client.get(f"{BASE}/fx")).json()
    assert body["count"] == 19 and body["rates"][0]["currency"] == "USD"
    assert body["sample"] is True and "SAMPLE" in body["note"]
    assert all(r["source"]["sample"] and r["source"]["checked"] for r in body["rates"])
    assert_sources(body["sources"])
    some = (await client.get(f"{BASE}/fx", params={"cur": "jpy,KRW,jpy"})).json()
    assert [r["currency"] for r in some["rates"]] == ["JPY", "KRW"]
    jpy, krw = some["rates"]
    assert (jpy["cash_buy"], jpy["cash_sell"], jpy["spot_buy"], jpy["spot_sell"]) == (0.1942, 0.2046, 0.1977, 0.2012)
    assert jpy["cash_spread_percent"] == 5.22 and jpy["posted_types"] == ["cash", "spot"]
    assert krw["spot_buy"] is None and krw["posted_types"] == ["cash"]


@pytest.mark.parametrize(
    ("params", "parameter"), [({"cur": ""}, "cur"), ({"cur": "JPY,"}, "cur"), ({"cur": "YEN"}, None), ({"x": "1"}, "x")]
)
async def test_fx_errors(client, params, parameter):
    r = await client.get(f"{BASE}/fx", params=params)
    if parameter is None:
        assert assert_problem(r, 404)["id"] == "YEN"
    else:
        assert_problem(r, 422, parameter)


async def test_convert_buy_and_sell(client):
    # 10,000 TWD / 0.2046 (cash 本行賣出) = 48,875.86 -> 48,876 JPY
    body = (await client.get(f"{BASE}/fx/convert", params={"amount": 10000, "cur": "jpy"})).json()
    assert (body["direction"], body["type"], body["rate"]) == ("buy", "cash", 0.2046)
    assert body["pay"] == {"currency": "TWD", "amount": 10000.0} and body["get"] == {
        "currency": "JPY",
        "amount": 48876.0,
    }
    assert "本行賣出" in body["bank_rate"] and body["sample"] is True and body["source"]["sample"] is True
    # 50,000 JPY x 0.1942 (cash 本行買入) = 9,710.00 TWD
    body = (await client.get(f"{BASE}/fx/convert", params={"amount": 50000, "cur": "JPY", "direction": "sell"})).json()
    assert body["get"] == {"currency": "TWD", "amount": 9710.0} and body["spread_cost_twd"] == 260.0
    # 1,000 USD x 31.545 (spot 本行買入) = 31,545.00 TWD
    body = (
        await client.get(
            f"{BASE}/fx/convert", params={"amount": 1000, "cur": "USD", "direction": "sell", "type": "spot"}
        )
    ).json()
    assert body["get"]["amount"] == 31545.0 and "即期" in body["bank_rate"]


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"cur": "JPY"}, "amount"),
        ({"amount": 0, "cur": "JPY"}, "amount"),
        ({"amount": -5, "cur": "JPY"}, "amount"),
        ({"amount": "lots", "cur": "JPY"}, "amount"),
        ({"amount": 100_000_001, "cur": "JPY"}, "amount"),
        ({"amount": 100}, "cur"),
        ({"amount": 100, "cur": "JP"}, "cur"),
        ({"amount": 100, "cur": "JPY", "direction": "swap"}, "direction"),
        ({"amount": 100, "cur": "JPY", "type": "card"}, "type"),
        ({"amount": 100, "cur": "ZAR", "type": "cash"}, "type"),
        ({"amount": 100, "cur": "KRW", "type": "spot"}, "type"),
    ],
)
async def test_convert_errors(client, params, parameter):
    body = assert_problem(await client.get(f"{BASE}/fx/convert", params=params), 422, parameter)
    if params.get("cur") == "ZAR":
        assert body["errors"][0]["allowed"] == ["spot"] and "no cash rate for ZAR" in body["detail"]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        # 1,000.5 JPY cannot be handed over; it used to be shown as 1,001 paid while 1,000.5 was converted
        ({"amount": 1000.5, "cur": "JPY", "direction": "sell"}, "whole units only"),
        ({"amount": 100.005, "cur": "USD"}, "at most 2 decimals"),
        ({"amount": 0.5, "cur": "VND", "direction": "sell"}, "whole units only"),
        ({"amount": "nan", "cur": "USD"}, "finite"),
        ({"amount": "inf", "cur": "USD"}, "finite"),
    ],
)
async def test_convert_refuses_amounts_it_would_round(client, params, message):
    body = assert_problem(await client.get(f"{BASE}/fx/convert", params=params), 422, "amount")
    assert message in body["detail"], body


async def test_convert_accepts_amounts_at_the_currency_precision(client):
    # 100.05 TWD / 31.89 (USD cash 本行賣出) = 3.1374 -> 3.14 USD; 1,001 JPY x 0.1942 = 194.3942 -> 194.39 TWD
    body = (await client.get(f"{BASE}/fx/convert", params={"amount": 100.05, "cur": "USD"})).json()
    assert body["pay"]["amount"] == 100.05 and body["get"] == {"currency": "USD", "amount": 3.14}
    body = (await client.get(f"{BASE}/fx/convert", params={"amount": 1001, "cur": "JPY", "direction": "sell"})).json()
    assert body["pay"]["amount"] == 1001.0 and body["get"] == {"currency": "TWD", "amount": 194.39}


async def test_convert_unknown_currency_is_404(client):
    body = assert_problem(await client.get(f"{BASE}/fx/convert", params={"amount": 1, "cur": "XAU"}), 404)
    assert body["id"] == "XAU" and "JPY" in body["detail"]


# ---------------------------------------------------------------- entry, places, guides


@pytest.mark.parametrize("today", [date(2026, 10, 31), date(2026, 12, 31), date(2027, 1, 1)])
async def test_entry_japan_korea_vietnam(client, pin_today, today):
    """Pinned on both sides of Japan's tax-free change (2026-11-01) and of the end of Korea's
    K-ETA exemption for Taiwan (valid to 2026-12-31)."""

    pin_today(today)
    jp = (await client.get(f"{BASE}/entry", params={"country": "jp"})).json()
    assert jp["country"] == "JP" and jp["as_of"] == today.isoformat()
    ids = {i["id"] for i in jp["items"]}
    assert {"visa-exemption", "visit-japan-web"} <= ids
    assert ("tax-free-refund" in ids) == (today >= date(2026, 11, 1))
    kr = (await client.get(f"{BASE}/entry", params={"country": "KR"})).json()
    ids = {i["id"]: i for i in kr["items"]}
    upcoming = {i["id"] for i in kr["upcoming_changes"]}
    if today <= date(2026, 12, 31):
        assert ids["k-eta-exempt"]["valid_until"] == "2026-12-31" and "k-eta-after-exemption" in upcoming
    else:
        assert "k-eta-after-exemption" in ids and "k-eta-exempt" not in ids
    assert "e-arrival-card" in ids
    vn = (await client.get(f"{BASE}/entry", params={"country": "VN"})).json()
    assert {"visa-required", "e-visa"} <= {i["id"] for i in vn["items"]}
    # the one visa-free route for a Taiwan passport: Phu Quoc only, up to 30 days
    phu_quoc = next(i for i in vn["items"] if i["id"] == "phu-quoc-visa-free")
    assert (
        phu_quoc["requirement"] == "conditional"
        and "30 days" in phu_quoc["detail"]
        and "80/NQ-CP" in phu_quoc["detail"]
    )
    for body in (jp, kr, vn):
        assert_sources(body["sources"])
        assert all(i["source"]["checked"] == "2026-11-22" for i in body["items"])


@pytest.mark.parametrize("params", [{}, {"country": "US"}, {"country": ""}, {"country": "JP", "date": "2027-01-01"}])
async def test_entry_errors(client, params):
    assert_problem(await client.get(f"{BASE}/entry", params=params), 422, "date" if "date" in params else "country")


async def test_places(client):
    body = (await client.get(f"{BASE}/places")).json()
    assert body["count"] == 12 == len(body["places"])
    tokyo = (await client.get(f"{BASE}/places", params={"id": "tokyo"})).json()["places"][0]
    assert (tokyo["country"], tokyo["currency"], tokyo["hours_from_taiwan"]) == ("JP", "JPY", 1)
    assert tokyo["fx"]["cash_sell"] == 0.2046 and tokyo["fx"]["sample"] is True
    assert tokyo["themeparks"] == ["tokyo-disney-resort"] and tokyo["entry"] == "/api/entry?country=JP"
    hanoi = (await client.get(f"{BASE}/places", params={"id": "hanoi"})).json()["places"][0]
    assert hanoi["hours_from_taiwan"] == -1 and hanoi["fx"]["spot_sell"] is None
    assert_sources(body["sources"])


async def test_places_errors(client):
    body = assert_problem(await client.get(f"{BASE}/places", params={"id": "atlantis"}), 404)
    assert body["id"] == "atlantis" and "tokyo" in body["detail"]
    assert_problem(await client.get(f"{BASE}/places", params={"id": "Tokyo City"}), 422, "id")


@pytest.mark.parametrize("today", [date(2026, 10, 31), date(2026, 11, 1)])
async def test_japan_taxfree(client, pin_today, today):

    pin_today(today)
    body = (await client.get(f"{BASE}/japan-taxfree")).json()
    assert body["regime_id"] == "refund-method" and body["in_force_from"] == "2026-11-01"
    assert body["in_force"] is (today >= date(2026, 11, 1))
    assert body["customs_deadline_days"] == 90 and body["minimum_jpy_excluding_tax"] == 5000
    # ¥5,000 + 10% = ¥5,500, which holds ¥500 of tax; ¥10,800 at 8% holds ¥800
    assert [(e["price_including_tax_jpy"], e["refund_jpy"]) for e in body["examples"]] == [(5500, 500), (10800, 800)]
    assert all(
        r["source"]["url"].startswith(("https://www.mlit.go.jp/", "https://www.nta.go.jp/")) for r in body["rules"]
    )
    rules = {r["id"]: r for r in body["rules"]}
    # Since 2023-04-01 eligibility is the status of residence (Temporary Visitor ...), not "entered less than six months ago"
    assert "Temporary Visitor" in rules["who"]["detail"] and "six months" not in rules["who"]["detail"]
    assert rules["who"]["source"]["url"] == "https://www.mlit.go.jp/kankocho/tax-free/reiwa4kaisei.html"
    # only the buyer's own separate shipment ended; a shop shipping directly abroad is not ruled out
    assert (
        "2025-03-31" in rules["carry-only"]["detail"]
        and "ships an item abroad directly" in rules["carry-only"]["detail"]
    )
    assert {s["url"] for s in body["sources"]} >= {r["source"]["url"] for r in body["rules"]}
    assert all("before any fee" in e["description"] for e in body["examples"])
    assert_sources(body["sources"])
    assert_problem(await client.get(f"{BASE}/japan-taxfree", params={"year": "2025"}), 422, "year")


async def test_themepark(client):
    body = (await client.get(f"{BASE}/themepark")).json()
    assert body["count"] == 4 and all(p["price"] is None and p["ticket_rules"] for p in body["parks"])
    assert_sources(body["sources"])


async def test_esim(client):
    # moderate 1.5 GB x 5 = 7.5; +10% = 8.25 -> 8.3 GB -> 10 GB plan
    body = (await client.get(f"{BASE}/esim/estimate", params={"days": 5})).json()
    assert (body["usage"], body["total_gb"], body["suggested_plan_gb"]) == ("moderate", 8.3, 10)
    assert body["usage_levels"] == {"light": 0.5, "moderate": 1.5, "heavy": 4.0} and "margin" in body["method"]
    # the daily budgets are the service's assumption; the cited page only backs the video rates
    assert "planning assumption" in body["method"]
    heavy = (await client.get(f"{BASE}/esim/estimate", params={"days": 90, "usage": "heavy"})).json()
    assert heavy["total_gb"] == 396.0 and heavy["suggested_plan_gb"] is None
    for params, parameter in [
        ({}, "days"),
        ({"days": 0}, "days"),
        ({"days": 91}, "days"),
        ({"days": 3, "usage": "extreme"}, "usage"),
    ]:
        assert_problem(await client.get(f"{BASE}/esim/estimate", params=params), 422, parameter)


async def test_domestic(client):
    today = today_taipei()
    body = (await client.get(f"{BASE}/domestic")).json()
    assert [m["id"] for m in body["modes"]] == ["thsr", "tra"]
    assert body["ordinary_booking_opens_today_for"] == (today + timedelta(days=28)).isoformat()
    for sale in body["holiday_sales"]:
        assert sale["end"] >= today.isoformat()
        assert sale["tra_on_sale"] == (sale["tra_opens"] <= today.isoformat())
    assert_sources(body["sources"])


async def test_holidays_from_the_shared_calendar(client):
    today = today_taipei()
    body = (await client.get(f"{BASE}/holidays")).json()
    cal = TAIWAN_CALENDAR.get()
    expected = [d.date.isoformat() for y in sorted(cal.years) for d in cal.holidays_in(y) if d.date >= today]
    assert [h["date"] for h in body["holidays"]] == expected and body["count"] == len(expected)
    assert 2027 in body["years"]
    if expected:
        assert body["next_holiday"]["date"] == expected[0]
    assert all(w["end"] >= today.isoformat() for w in body["long_weekends"])
    assert all(h["source"]["url"] == cal.years[int(h["date"][:4])].source for h in body["holidays"])
    assert_sources(body["sources"])


async def test_booking(client):
    body = (await client.get(f"{BASE}/booking")).json()
    assert body["count"] == 6 and {i["country"] for i in body["items"]} == {"JP", "KR", "VN", "TW"}
    # a January 2027 trip to Korea is booked now: the list must say a K-ETA may be needed by then
    keta = next(i for i in body["items"] if i["id"] == "korea-k-eta-2027")
    assert "2027-01-01" in keta["lead_time"] and "72 hours" in keta["lead_time"] and "2026-12-31" in keta["detail"]
    assert_sources(body["sources"])


# ---------------------------------------------------------------- cross-origin


async def test_cors_on_trip_not_on_models(client):
    origin = {"Origin": "https://app.example"}
    r = await client.get(f"{BASE}/fx", params={"cur": "JPY"}, headers=origin)
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "*"
    pre = await client.options(f"{BASE}/fx/convert", headers={**origin, "Access-Control-Request-Method": "GET"})
    assert pre.status_code == 200 and pre.headers["access-control-allow-origin"] == "*"
    assert "GET" in pre.headers["access-control-allow-methods"]
    r = await client.get("/models/api/models", headers=origin)
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers


# ---------------------------------------------------------------- paid routes


async def test_pro_routes_are_not_sold_on_the_sample_board(client):
    for path in ("trip-pack?place=tokyo&days=5&budget_twd=20000", "export"):
        r = await client.get(f"{BASE}/pro/{path}")
        assert r.status_code == 503 and "trip_fx_rate holds 19 sample rows" in r.json()["detail"]
        assert "payment-required" not in r.headers


async def test_pro_routes_ask_for_payment_after_validating(for_sale):
    client = for_sale  # a store whose rate board is the bank's and fresh
    r = await client.get(f"{BASE}/pro/trip-pack", params={"place": "tokyo", "days": 5, "budget_twd": 20000})
    assert r.status_code == 402 and "payment-required" in r.headers
    assert (await client.get(f"{BASE}/pro/export")).status_code == 402
    for params, parameter in [
        ({"days": 5, "budget_twd": 1}, "place"),
        ({"place": "tokyo", "budget_twd": 1}, "days"),
        ({"place": "tokyo", "days": 31, "budget_twd": 1}, "days"),
        ({"place": "tokyo", "days": 3, "budget_twd": 0}, "budget_twd"),
        ({"place": "tokyo", "days": 3}, "budget_twd"),
        ({"place": "TOKYO!", "days": 3, "budget_twd": 5}, "place"),
    ]:
        assert_problem(await client.get(f"{BASE}/pro/trip-pack", params=params), 422, parameter)
    assert_problem(await client.get(f"{BASE}/pro/export", params={"full": "1"}), 422, "full")


def _ops():
    from twlookup.services.trip.operations import SERVICE

    return {op.path: op for op in SERVICE.operations}


async def test_trip_pack_directly(client):
    from twlookup.platform.errors import Problem

    today = today_taipei()
    pack = (await _ops()["/api/pro/trip-pack"].call({"place": "tokyo", "days": "5", "budget_twd": "20000"})).model_dump(
        mode="json"
    )
    assert pack["start"] == today.isoformat() and pack["end"] == (today + timedelta(days=4)).isoformat()
    assert pack["place"]["id"] == "tokyo" and pack["sample"] is True
    # 20,000 TWD / 0.2046 = 97,751.71 -> 97,752 JPY cash; / 0.2012 = 99,403.58 -> 99,404 JPY spot
    assert [(c["type"], c["get"]["amount"]) for c in pack["conversion"]] == [("cash", 97752.0), ("spot", 99404.0)]
    assert pack["esim"]["suggested_plan_gb"] == 10 and pack["japan_taxfree"]["regime_id"] == "refund-method"
    assert {i["id"] for i in pack["entry"]} >= {"visa-exemption", "visit-japan-web"}
    cal = TAIWAN_CALENDAR.get()
    expected = [d.isoformat() for d in sorted(cal.days_off) if today <= d <= today + timedelta(days=4)]
    assert [h["date"] for h in pack["holidays"]] == expected
    assert_sources(pack["sources"])
    seoul = (
        await _ops()["/api/pro/trip-pack"].call({"place": "seoul", "days": "30", "budget_twd": "3000"})
    ).model_dump(mode="json")
    # 3,000 TWD / 0.02464 (KRW cash only) = 121,753.25 -> 121,753 KRW; at the midpoint 0.02269
    # 132,216.83 KRW, so the spread costs (132,216.83 - 121,753.25) x 0.02269 = 237.42 TWD
    assert seoul["japan_taxfree"] is None and seoul["conversion"] == [
        {
            "type": "cash",
            "rate": 0.02464,
            "budget_twd": 3000,
            "get": {"currency": "KRW", "amount": 121753.0},
            "spread_cost_twd": 237.42,
        }
    ]
    if today <= date(2026, 12, 31) < today + timedelta(days=29):
        assert {"k-eta-exempt", "k-eta-after-exemption"} <= {i["id"] for i in seoul["entry"]} and seoul["entry_notes"]
    with pytest.raises(Problem) as err:
        await _ops()["/api/pro/trip-pack"].call({"place": "atlantis", "days": "2", "budget_twd": "1"})
    assert err.value.status == 404


async def test_export_directly(client):
    export = (await _ops()["/api/pro/export"].call({})).model_dump(mode="json")
    assert export["fx"]["count"] == 19 and [e["country"] for e in export["entry"]] == ["JP", "KR", "VN"]
    assert export["places"]["count"] == 12 and export["themeparks"]["count"] == 4
    assert [e["usage"] for e in export["esim_levels"]] == ["light", "moderate", "heavy"]
    assert export["booking"]["count"] == 6 and export["holidays"]["years"]
    assert_sources(export["sources"])


# ---------------------------------------------------------------- MCP


async def test_mcp_official_client(live_url):
    async with Client(f"{live_url}/trip/mcp") as mcp:
        tools = (await mcp.list_tools()).tools
        assert {t.name for t in tools if not t.name.startswith("pro_")} == TOOLS
        result = await mcp.call_tool("convert_currency", {"amount": 10000, "cur": "JPY"})
        assert not result.is_error and result.structured_content["get"] == {"currency": "JPY", "amount": 48876.0}
        entry = await mcp.call_tool("entry_requirements", {"country": "VN"})
        assert entry.structured_content["country"] == "VN"
        bad = await mcp.call_tool("convert_currency", {"amount": 100, "cur": "ZAR", "type": "cash"})
        assert bad.is_error
    async with httpx.AsyncClient() as http:
        problem = (
            await http.get(f"{live_url}{BASE}/fx/convert", params={"amount": 100, "cur": "ZAR", "type": "cash"})
        ).json()
    assert bad.content[0].text == problem["detail"]


# ---------------------------------------------------------------- the importer


async def test_ingest_changes_answers_without_restart(tmp_path, monkeypatch, settings, fresh_store):
    url = fresh_store  # a copy of the seeded template store
    app = create_app(Settings(database_url=url, rate_limit_default="100000/minute", _env_file=None))
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", url)
    get_settings.cache_clear()
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
            before = (await c.get(f"{BASE}/fx", params={"cur": "JPY"})).json()
            assert before["sample"] is True and before["rates"][0]["cash_sell"] == 0.2046
            assert cli.main(["ingest", "trip.fx", str(FIXTURE)]) == 0
            after = (await c.get(f"{BASE}/fx")).json()
            assert (
                after["sample"] is False and after["posted_at"] == "2026-11-22T16:00:00+08:00" and after["count"] == 6
            )
            jpy = after["rates"][1]
            assert (jpy["currency"], jpy["cash_sell"], jpy["source"]["sample"]) == ("JPY", 0.205, False)
            # 10,000 TWD / 0.205 = 48,780.49 -> 48,780 JPY, from the imported board
            conv = (await c.get(f"{BASE}/fx/convert", params={"amount": 10000, "cur": "JPY"})).json()
            assert conv["get"]["amount"] == 48780.0 and conv["sample"] is False
            assert_problem(await c.get(f"{BASE}/fx", params={"cur": "USD,GBP"}), 404)  # GBP is not in the file
            # a later seed keeps the imported board
            assert cli.main(["seed"]) == 0
            assert (await c.get(f"{BASE}/fx")).json()["sample"] is False
        bad = tmp_path / "ExchangeRate@202611221700.csv"
        bad.write_text("幣別,匯率,現金,即期\nUSD,1\n", encoding="utf-8")
        assert cli.main(["ingest", "trip.fx", str(bad)]) == 1
        assert cli.main(["ingest", "trip.nope", str(FIXTURE)]) == 2
    finally:
        get_settings.cache_clear()
        store_engine.configure(settings.database_url)


async def test_history_download_updates_its_currency_only(tmp_path, monkeypatch, settings, fresh_store):
    url = fresh_store  # a copy of the seeded template store
    app = create_app(Settings(database_url=url, rate_limit_default="100000/minute", _env_file=None))
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", url)
    get_settings.cache_clear()
    header = (
        "資料日期,幣別,匯率,現金,即期,遠期10天,遠期30天,遠期60天,遠期90天,遠期120天,遠期150天,遠期180天,"
        "匯率,現金,即期,遠期10天,遠期30天,遠期60天,遠期90天,遠期120天,遠期150天,遠期180天,"
    )
    forwards = ",".join(["0.00000"] * 7)
    history = tmp_path / "USD_L6M.csv"
    history.write_bytes(
        (
            "\ufeff" + header + "\r\n"
            f"20261121,USD,本行買入,31.30000,31.65000,{forwards},本行賣出,31.97000,31.75000,{forwards},\r\n"
            f"20261120,USD,本行買入,31.20000,31.55000,{forwards},本行賣出,31.87000,31.65000,{forwards},\r\n"
        ).encode("utf-8")
    )
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
            # a one-currency history file used to replace the whole board: JPY, KRW and VND vanished
            assert cli.main(["ingest", "trip.fx", str(history)]) == 0
            board = (await c.get(f"{BASE}/fx")).json()
            assert board["count"] == 19 and board["sample"] is True  # the other 18 are still the sample
            usd = board["rates"][0]
            assert (usd["currency"], usd["cash_sell"], usd["source"]["sample"]) == ("USD", 31.97, False)
            assert usd["posted_at"] == "2026-11-21T00:00:00+08:00"
            # JPY is still the sample board's: 1,000 TWD / 0.2046 = 4,887.59 -> 4,888 JPY
            conv = (await c.get(f"{BASE}/fx/convert", params={"amount": 1000, "cur": "JPY"})).json()
            assert (conv["rate"], conv["get"]["amount"], conv["sample"]) == (0.2046, 4888.0, True)
            # the day board replaces everything; an older history file then cannot overwrite its USD
            assert cli.main(["ingest", "trip.fx", str(FIXTURE)]) == 0
            assert cli.main(["ingest", "trip.fx", str(history)]) == 1
            usd = (await c.get(f"{BASE}/fx", params={"cur": "USD"})).json()["rates"][0]
            assert usd["posted_at"] == "2026-11-22T16:00:00+08:00" and usd["cash_sell"] == 32.07
            # nor can yesterday's day board replace today's
            older = tmp_path / "ExchangeRate@202611211600.csv"
            older.write_bytes(FIXTURE.read_bytes())
            assert cli.main(["ingest", "trip.fx", str(older)]) == 1
            assert (await c.get(f"{BASE}/fx")).json()["posted_at"] == "2026-11-22T16:00:00+08:00"
    finally:
        get_settings.cache_clear()
        store_engine.configure(settings.database_url)
