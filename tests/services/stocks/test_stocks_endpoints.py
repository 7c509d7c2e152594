"""The stocks service through HTTP and MCP: every endpoint, the limits and every error path.

These run on the seeded store (sample closes); the importer's effect is tested in test_stocks_ingest.py.
"""

from __future__ import annotations

from datetime import date

import pytest
from conftest import assert_problem

from twlookup.platform import clock
from twlookup.platform.store.reference import Reference
from twlookup.services.stocks.operations import SERVICE

pytestmark = pytest.mark.asyncio
BASE = "/stocks/api"
THEMES = ["ai-server", "semi-equipment", "liquid-cooling", "cpo"]
NOT_ADVICE = "not investment advice"


async def test_themes_summary(client):
    r = await client.get(f"{BASE}/themes")
    assert r.status_code == 200
    body = r.json()
    assert NOT_ADVICE in body["notice"] and body["sample"] is True
    assert [t["id"] for t in body["themes"]] == THEMES and body["count"] == 4
    for theme in body["themes"]:
        stats = theme["stats"]
        assert stats["count"] == len(theme["members"]) >= 4
        assert stats["advancing"] + stats["declining"] + stats["unchanged"] + stats["without_close"] == stats["count"]
        pcts = [m["latest"]["change_pct"] for m in theme["members"] if m["latest"]]
        assert stats["average_change_pct"] == pytest.approx(sum(pcts) / len(pcts), abs=0.006)
        assert stats["advancing"] == sum(1 for m in theme["members"] if m["latest"] and m["latest"]["change"] > 0)
        assert theme["source"]["url"].startswith("https://")
    assert "access-control-allow-origin" not in r.headers  # stocks is not a cross-origin service


@pytest.mark.parametrize("theme", THEMES)
async def test_theme_detail(client, theme):
    body = (await client.get(f"{BASE}/themes/{theme}")).json()
    assert body["id"] == theme and NOT_ADVICE in body["notice"]
    assert len(body["note"]) > 100
    for m in body["members"]:
        assert m["code"].isdigit() and len(m["code"]) == 4
        assert m["name_zh"] and m["name_en"] and len(m["note"]) > 20
        assert m["latest"]["close"] > 0 and m["latest"]["sample"] is True
        assert m["source"]["url"].startswith("https://")


async def test_theme_members_are_the_listed_companies(client):
    body = (await client.get(f"{BASE}/themes/ai-server")).json()
    names = {m["code"]: m["name_zh"] for m in body["members"]}
    assert names["2382"] == "廣達" and names["3231"] == "緯創" and names["6669"] == "緯穎" and names["2317"] == "鴻海"


async def test_theme_unknown(client):
    problem = assert_problem(await client.get(f"{BASE}/themes/robotics"), 422, "theme")
    assert problem["errors"][0]["allowed"] == THEMES


async def test_stock(client):
    body = (await client.get(f"{BASE}/stock/2382")).json()
    assert body["name_zh"] == "廣達" and body["kind"] == "stock"
    assert [t["id"] for t in body["themes"]] == ["ai-server"]
    assert 0 < body["days"] == len(body["closes"]) <= 60
    dates = [c["date"] for c in body["closes"]]
    assert dates == sorted(dates) and body["latest"] == body["closes"][-1]
    assert body["sample"] is True and body["market"] is None and body["etf_payouts"] is None
    assert body["close_sources"][0]["sample"] is True and NOT_ADVICE in body["notice"]
    etf = (await client.get(f"{BASE}/stock/0056")).json()
    assert etf["kind"] == "etf" and etf["etf_payouts"] == "/api/etf/0056" and etf["themes"] == []


async def test_stock_errors(client):
    problem = assert_problem(await client.get(f"{BASE}/stock/2330"), 404)
    assert problem["id"] == "2330" and "2382" in problem["detail"]
    assert_problem(await client.get(f"{BASE}/stock/abc"), 422, "code")
    assert_problem(await client.get(f"{BASE}/stock/12"), 422, "code")
    assert_problem(await client.get(f"{BASE}/stock/2382", params={"days": 5}), 422, "days")


async def test_etf_dividends_table(client):
    body = (await client.get(f"{BASE}/etf-dividends")).json()
    assert {e["code"] for e in body["etfs"]} == {"0056", "00878", "00919", "00713", "00929"}
    assert "mechanical extrapolation" in body["method"] and NOT_ADVICE in body["notice"]
    for e in body["etfs"]:
        assert e["payouts"] and all(p["amount"] > 0 and p["source"]["url"].startswith("https://") for p in e["payouts"])
        assert not any(p["source"]["sample"] for p in e["payouts"])
        est = e["estimate_2027"]
        assert est["year"] == 2027 and est["per_unit"] > 0 and est["method"]
        assert est["yield_pct"] == pytest.approx(est["per_unit"] / e["latest"]["close"] * 100, abs=0.01)


async def test_etf_detail_and_estimate(client):
    body = (await client.get(f"{BASE}/etf/0056")).json()
    est = body["etf"]["estimate_2027"]
    # 1.07 + 0.866 x 3 (2025Q2-2026Q1, data/stocks/etfs.yaml)
    assert est["per_unit"] == 3.668 and est["complete"] and est["window"] == ["2025Q2", "2026Q1"]
    assert est["basis"] == ["2025Q2", "2025Q3", "2025Q4", "2026Q1"]
    q4 = next(p for p in body["etf"]["payouts"] if p["period"] == "2025Q4")
    assert (q4["ex_date"], q4["pay_date"], q4["amount"]) == ("2025-10-23", "2025-11-14", 0.866)
    monthly = (await client.get(f"{BASE}/etf/00929")).json()["etf"]
    assert monthly["frequency"] == "monthly" and monthly["estimate_2027"]["payouts_per_year"] == 12
    assert monthly["estimate_2027"]["complete"] is False and "average" in monthly["estimate_2027"]["method"]
    # 11 of the 12 months 2025-04..2026-03 recorded: 0.07 x 3 + 0.08 x 3 + 0.09 + 0.09 + 0.10 + 0.10 + 0.11 = 0.94;
    # average 0.94 / 11 = 0.085454..., times 12 = 1.025454... -> 1.0255
    assert monthly["estimate_2027"]["per_unit"] == 1.0255 and monthly["estimate_2027"]["window"] == [
        "2025-04",
        "2026-03",
    ]
    assert len(monthly["estimate_2027"]["basis"]) == 11 and "2025-04" not in monthly["estimate_2027"]["basis"]


async def test_etf_errors(client):
    problem = assert_problem(await client.get(f"{BASE}/etf/2382"), 404)
    assert problem["id"] == "2382" and "0056" in problem["detail"]
    assert_problem(await client.get(f"{BASE}/etf/00-56"), 422, "code")


async def test_status(client):
    body = (await client.get(f"{BASE}/status")).json()
    assert body["latest_trading_date"] == "2026-11-20"
    assert body["securities"] == 25 and body["closes"] >= 250
    # the platform's feed status, the same shape as every service's /api/status
    assert body["service"] == "stocks" and NOT_ADVICE in body["notice"]
    (feed,) = body["feeds"]
    assert feed["feed"] == "stocks.closes" and feed["refresh"] == "twlookup refresh stocks.closes"
    assert "twlookup ingest stocks.closes" in feed["ingest"]
    assert "STOCK_DAY_ALL" in feed["urls"][0] and "tpex_mainboard_daily_close_quotes" in feed["urls"][1]
    assert feed["last_import"] is None and feed["stale"] is True  # only the sample snapshot: no real close held
    assert_problem(await client.get(f"{BASE}/status", params={"x": "1"}), 422, "x")


async def test_pro_routes_are_not_sold_on_sample_closes(client):
    for path in ("history?code=0056", "income-plan?budget=100000&codes=0056,00878", "export"):
        r = await client.get(f"{BASE}/pro/{path}")
        assert assert_problem(r, 503)["type"].endswith("/not-for-sale") and "payment-required" not in r.headers


async def test_pro_routes_ask_for_payment_after_validating(for_sale):
    client = for_sale  # closes real and fresh
    for path, params in (
        ("history", {"code": "0056"}),
        ("income-plan", {"budget": 100000, "codes": "0056,00878"}),
        ("export", {}),
    ):
        r = await client.get(f"{BASE}/pro/{path}", params=params)
        assert r.status_code == 402 and "payment-required" in r.headers
    bad = [
        ("history", {}, "code"),
        ("history", {"code": "0056", "days": 0}, "days"),
        ("history", {"code": "0056", "days": 5001}, "days"),
        ("history", {"code": "x"}, "code"),
        ("income-plan", {"codes": "0056"}, "budget"),
        ("income-plan", {"budget": 999, "codes": "0056"}, "budget"),
        ("income-plan", {"budget": 100000}, "codes"),
        ("income-plan", {"budget": 100000, "codes": "0056;00878"}, "codes"),
        ("income-plan", {"budget": 100000, "codes": "0056,0056"}, "codes"),
        ("income-plan", {"budget": 100000, "codes": "0056,2382"}, "codes"),
        ("income-plan", {"budget": 100000, "codes": ",".join(["0056"] * 11)}, "codes"),
        ("export", {"all": "1"}, "all"),
    ]
    for path, params, parameter in bad:
        assert_problem(await client.get(f"{BASE}/pro/{path}", params=params), 422, parameter)
    problem = assert_problem(
        await client.get(f"{BASE}/pro/income-plan", params={"budget": 100000, "codes": "0056,2382"}), 422, "codes"
    )
    assert "2382" in problem["detail"] and "0056, 00713, 00878, 00919, 00929" in problem["detail"]
    problem = assert_problem(await client.get(f"{BASE}/pro/history", params={"code": "2330"}), 422, "code")
    assert "2330" in problem["detail"] and "2382" in problem["detail"]  # checked before any payment


def ops():
    Reference.reset_all()
    return {op.path: op for op in SERVICE.operations}


async def test_pro_history_directly(client):
    body = (await ops()["/api/pro/history"].call({"code": "2382", "days": "3"})).model_dump(mode="json")
    assert body["count"] == 3 and [c["date"] for c in body["closes"]] == ["2026-11-18", "2026-11-19", "2026-11-20"]
    assert body["first_date"] == "2026-11-18" and body["sample"] is True and NOT_ADVICE in body["notice"]
    body = (await ops()["/api/pro/history"].call({"code": "2382", "days": "5000"})).model_dump(mode="json")
    assert body["days"] == 5000 and body["count"] == len(body["closes"]) >= 10


async def test_pro_income_plan_directly(client):
    body = (await ops()["/api/pro/income-plan"].call({"budget": "300000", "codes": "0056,00878,00713"})).model_dump(
        mode="json"
    )
    assert body["codes"] == ["0056", "00878", "00713"] and len(body["lines"]) == 3
    for line in body["lines"]:
        assert line["allocation"] == 100000.0
        assert line["units"] == int(100000 // line["price"]) and line["board_lots"] == line["units"] // 1000
        assert line["cost"] == pytest.approx(line["units"] * line["price"]) and line["sample_price"] is True
        assert line["income_2027"] == pytest.approx(sum(line["payouts_2027"]))
    assert body["income_2027"] == pytest.approx(sum(line["income_2027"] for line in body["lines"]))
    assert body["invested"] + body["leftover"] == pytest.approx(300000)
    assert body["nhi"]["rate"] == 0.0211 and body["nhi"]["threshold"] == 20000 and body["nhi"]["sources"]
    assert body["nhi"]["proposed_yearly_cap"] == 50_000_000 and "not in force" in body["nhi"]["note"] + str(
        body["assumptions"]
    )
    expected_yearly = round(body["income_2027"] * 0.0211) if body["income_2027"] >= 20000 else 0
    assert body["nhi"]["premium_2027_if_yearly"] == expected_yearly
    assert any("dot.gov.tw" in s["url"] for s in body["income_tax"]["sources"])  # the Ministry of Finance's own page
    tax = body["income_tax"]
    assert (tax["credit_rate"], tax["credit_cap"], tax["separate_rate"]) == (0.085, 80000, 0.28)
    assert tax["credit_option"] == round(body["income_2027"] * 0.085)
    assert any("odd-lot" in a for a in body["assumptions"]) and any(
        "Sum of the last four" in a for a in body["assumptions"]
    )
    assert body["sample"] is True and NOT_ADVICE in body["notice"]


async def test_pro_export_directly(client):
    body = (await ops()["/api/pro/export"].call({})).model_dump(mode="json")
    assert [t["id"] for t in body["themes"]] == THEMES and len(body["etfs"]) == 5
    assert all(t["members"] for t in body["themes"]) and all(e["estimate_2027"] for e in body["etfs"])
    assert body["latest_trading_date"] == "2026-11-20" and body["sample"] is True


async def test_mcp_tools_are_the_spec_names(client):
    assert {op.tool for op in SERVICE.tools} == {
        "list_stock_themes",
        "get_theme_stocks",
        "get_stock",
        "get_etf_dividends",
        "estimate_etf_dividend_2027",
    }
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    call = {"name": "estimate_etf_dividend_2027", "arguments": {"code": "00713"}}
    r = await client.post(
        "/stocks/mcp", headers=headers, json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}
    )
    assert r.status_code == 200, r.text
    est = r.json()["result"]["structuredContent"]["etf"]["estimate_2027"]
    assert est["per_unit"] == 3.44  # 1.1 + 0.78 x 3, as the UDN 2026-03-06 report sums it


async def test_mcp_official_client(live_url):
    from mcp import Client

    async with Client(f"{live_url}/stocks/mcp") as mcp:
        tools = {t.name for t in (await mcp.list_tools()).tools}
        assert "get_stock" in tools and "list_stock_themes" in tools
        result = await mcp.call_tool("get_theme_stocks", {"theme": "liquid-cooling"})
        assert not result.is_error and result.structured_content["id"] == "liquid-cooling"
        bad = await mcp.call_tool("get_stock", {"code": "9999"})
        assert bad.is_error and "9999" in bad.content[0].text


async def test_stock_shows_the_latest_60_trading_days_of_a_longer_history(client, serve_reference):
    """70 trading days in the store: the stock endpoint lists the latest 60, oldest first (spec limit)."""
    from dataclasses import replace
    from datetime import date, timedelta
    from decimal import Decimal

    from twlookup.services.stocks import operations
    from twlookup.services.stocks.records import Close

    market = operations.MARKET.get()
    prov = {"source": "https://openapi.twse.com.tw/v1/exchangeReport/STOCK_DAY_ALL", "checked": date(2026, 11, 22)}
    days = [date(2026, 8, 3) + timedelta(days=i) for i in range(200)]
    days = [d for d in days if d.weekday() < 5][:70]
    series = [
        Close(code="2382", date=d, close=Decimal(200 + i), change=Decimal(1), market="TWSE", **prov)
        for i, d in enumerate(days)
    ]
    longer = replace(market, closes={**market.closes, "2382": series})
    serve_reference(operations.MARKET, longer)
    body = (await client.get(f"{BASE}/stock/2382")).json()
    assert body["days"] == 60 and len(body["closes"]) == 60
    assert body["closes"][0]["date"] == days[10].isoformat() and body["closes"][-1]["date"] == days[-1].isoformat()
    assert body["latest"]["close"] == 269.0 and body["sample"] is False


async def test_etf_payouts_say_how_far_behind_the_record_is(client, monkeypatch):
    """The review of 2026-11-25: 0056's payouts stop at 2026Q1 yet drive the 2027 estimate with no
    warning. On 2026-11-26 (in 2026Q4) the quarters 2026Q2 and 2026Q3 have ended without a record."""

    monkeypatch.setattr(clock, "_fixed", date(2026, 11, 26))
    etf = (await client.get(f"{BASE}/etf/0056")).json()["etf"]
    assert etf["payouts_through"] == "2026Q1" and etf["periods_missing"] == ["2026Q2", "2026Q3"]
    assert etf["stale"] is True and "2026Q2" in etf["warning"]
    est = etf["estimate_2027"]
    assert est["stale"] is True and "2026Q1" in est["warning"]
    table = (await client.get(f"{BASE}/etf-dividends")).json()
    assert all(e["stale"] for e in table["etfs"] if e["periods_missing"])
    # on the day after the last recorded quarter ends nothing is missing yet
    monkeypatch.setattr(clock, "_fixed", date(2026, 4, 15))
    etf = (await client.get(f"{BASE}/etf/0056")).json()["etf"]
    assert etf["periods_missing"] == [] and etf["stale"] is False and etf["warning"] is None
