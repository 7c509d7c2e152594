"""The life service through HTTP and MCP: every endpoint, the limits and every error path."""

from __future__ import annotations

from datetime import date, timedelta

import httpx
import pytest
from conftest import assert_problem, assert_sources
from mcp import Client

from twlookup.app import create_app
from twlookup.platform import clock
from twlookup.platform.schemas import today_taipei

pytestmark = pytest.mark.asyncio

BASE = "/life/api"


# ---------------------------------------------------------------- holidays


async def test_holidays_of_a_covered_year(client):
    body = (await client.get(f"{BASE}/holidays", params={"year": 2026})).json()
    assert body["year"] == 2026 and body["official"] is True
    by_date = {h["date"]: h for h in body["holidays"]}
    assert by_date["2026-10-10"]["name_zh"] == "國慶日"
    assert by_date["2026-01-01"]["weekday"] == "Thursday"
    assert all(w["days"] >= 3 and w["holidays"] for w in body["long_weekends"])
    assert body["days_off"] >= 104
    assert_sources(body["sources"])


async def test_holidays_makeup_workdays_2025(client):
    body = (await client.get(f"{BASE}/holidays", params={"year": 2025})).json()
    # 2025: Saturday 2025-02-08 was a make-up workday for the bridge day 2025-01-27.
    assert {"date": "2025-02-08", "weekday": "Saturday", "pays_back": "2025-01-27"} in body["makeup_workdays"]


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"year": 2030}, "year"),
        ({"year": 2024}, "year"),
        ({}, "year"),
        ({"year": "x"}, "year"),
        ({"year": 1900}, "year"),
    ],
)
async def test_holidays_errors(client, params, parameter):
    body = assert_problem(await client.get(f"{BASE}/holidays", params=params), 422, parameter)
    if params.get("year") in (2030, 2024):
        assert "2025, 2026, 2027" in body["detail"] and body["errors"][0]["allowed"] == [2025, 2026, 2027]


async def test_next_holiday(client):
    body = (await client.get(f"{BASE}/holidays/next")).json()
    today = today_taipei()
    assert body["today"] == today.isoformat()
    assert isinstance(body["today_off"], bool)
    assert body["covered_years"] == [2025, 2026, 2027]
    if body["next_holiday"]:
        assert body["next_holiday"]["date"] >= today.isoformat()
        assert body["days_until_next_holiday"] == (date.fromisoformat(body["next_holiday"]["date"]) - today).days
    if body["next_long_weekend"]:
        assert body["next_long_weekend"]["end"] >= today.isoformat()
    assert_sources(body["sources"])
    assert_problem(await client.get(f"{BASE}/holidays/next", params={"x": "1"}), 422, "x")


async def test_is_holiday(client):
    body = (await client.get(f"{BASE}/is-holiday", params={"date": "2026-10-09"})).json()
    assert body["off"] is True and body["holiday"]["kind"] == "observed"  # National Day falls on a Saturday
    assert (body["run"]["start"], body["run"]["end"]) == ("2026-10-09", "2026-10-11")
    work = (await client.get(f"{BASE}/is-holiday", params={"date": "2026-11-24"})).json()
    assert work["off"] is False and work["reason"] is None and work["run"] is None
    weekend = (await client.get(f"{BASE}/is-holiday", params={"date": "2027-06-12"})).json()
    assert weekend["off"] is True and weekend["reason"] == "Weekend"
    makeup = (await client.get(f"{BASE}/is-holiday", params={"date": "2025-02-08"})).json()
    assert makeup["off"] is False and makeup["makeup_workday"] is True
    assert_sources(body["sources"])


async def test_is_holiday_labor_day_before_and_from_2026(client):
    """Labor Day 2025 (a Thursday): a workday on the government calendar, a day off for workers under
    the Labor Standards Act. From 2026 it is on the government calendar for everyone."""
    before = (await client.get(f"{BASE}/is-holiday", params={"date": "2025-05-01"})).json()
    assert before["off"] is False and before["reason"] is None and before["holiday"] is None
    assert before["labor_law_day_off"] is True
    assert "Labor Standards Act" in before["note"] and "Art. 37" in before["note"]
    assert before["sources"][1]["url"] == "https://law.moj.gov.tw/SmartSearch/Theme.aspx?O=2.1&T=22"
    assert before["sources"][1]["checked"] == "2026-11-23"
    assert_sources(before["sources"])
    for day in ("2026-05-01", "2027-05-01"):  # a Friday; a Saturday made up on Friday 30 April
        after = (await client.get(f"{BASE}/is-holiday", params={"date": day})).json()
        assert after["off"] is True and after["holiday"]["name_en"] == "Labor Day"
        assert after["labor_law_day_off"] is False
        assert "for everyone" in after["note"] and "2025 and before" in after["note"]
    other = (await client.get(f"{BASE}/is-holiday", params={"date": "2025-05-02"})).json()
    assert other["labor_law_day_off"] is False and other["note"] is None and len(other["sources"]) == 1


@pytest.mark.parametrize("value", ["2031-01-01", "2026-02-30", "tomorrow", ""])
async def test_is_holiday_errors(client, value):
    body = assert_problem(await client.get(f"{BASE}/is-holiday", params={"date": value}), 422, "date")
    if value == "2031-01-01":
        assert "covered years: 2025, 2026, 2027" in body["detail"]


# ---------------------------------------------------------------- receipt lottery


@pytest.mark.parametrize(("today", "status"), [(date(2026, 5, 5), "open"), (date(2026, 5, 6), "expired")])
async def test_invoice_latest_and_period(client, pin_today, today, status):

    pin_today(today)
    latest = (await client.get(f"{BASE}/invoice/latest")).json()
    assert latest["period"] == "114-11-12" and latest["special"] == "97023797" and latest["grand"] == "00507588"
    assert latest["first"] == ["92377231", "05232592", "78125249"] and latest["additional_sixth"] == []
    assert (latest["draw_date"], latest["claim_start"], latest["claim_end"]) == (
        "2026-01-25",
        "2026-02-06",
        "2026-05-05",
    )
    assert latest["claim_status"] == status  # claims run to 2026-05-05 inclusive
    assert latest["sample"] is False and latest["source"]["url"].startswith("https://www.etax.nat.gov.tw/")
    assert latest["reported_by"].startswith("https://tw.news.yahoo.com/")
    assert {p["prize"] for p in latest["prizes"]} == {
        "special",
        "grand",
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
    }
    assert latest["known_periods"] == ["114-11-12", "114-09-10"]
    same = (await client.get(f"{BASE}/invoice/114-11-12")).json()
    assert same == {**latest, "note": None}  # asked by name, the period needs no "not the newest" warning
    assert latest == (await client.get(f"{BASE}/invoice/latest")).json()
    older = (await client.get(f"{BASE}/invoice/114-09-10")).json()
    assert older["special"] == "25834483" and older["first"] == ["41016094", "98081574", "07309261"]
    assert (older["claim_start"], older["claim_end"]) == ("2025-12-06", "2026-03-05")
    assert_sources(older["sources"])


async def test_invoice_period_errors(client):
    body = assert_problem(await client.get(f"{BASE}/invoice/113-01-02"), 404)
    assert body["id"] == "113-01-02" and "114-11-12" in body["detail"] and "was drawn on 2024-03-25" in body["detail"]
    body = assert_problem(await client.get(f"{BASE}/invoice/199-11-12"), 404)
    assert "drawn on 2111-01-25, not yet" in body["detail"]
    assert_problem(await client.get(f"{BASE}/invoice/114-02-03"), 422, "period")
    assert_problem(await client.get(f"{BASE}/invoice/2025-11"), 422, "period")


@pytest.mark.parametrize(
    ("params", "prize", "amount"),
    [
        ({"number": "97023797"}, "special", 10_000_000),
        ({"number": "25834483", "period": "114-09-10"}, "special", 10_000_000),
        ({"number": "46587380", "period": "114-09-10"}, "grand", 2_000_000),
        ({"number": "11081574", "period": "114-09-10"}, "third", 10_000),  # last 6 of 98081574
        ({"number": "12345678", "period": "114-11-12"}, None, 0),
    ],
)
async def test_invoice_check(client, params, prize, amount):
    body = (await client.get(f"{BASE}/invoice/check", params=params)).json()
    assert body["prize"] == prize and body["amount"] == amount and body["won"] is (prize is not None)
    assert body["period"] == params.get("period", "114-11-12")
    assert body["claim_end"] and body["claim_status"] in ("not yet open", "open", "expired")
    assert body["source"]["url"].startswith("https://")


@pytest.mark.parametrize(
    ("params", "status", "parameter"),
    [
        ({"number": "1234567"}, 422, "number"),
        ({"number": "123456789"}, 422, "number"),
        ({"number": "AB12345678"}, 422, "number"),
        ({}, 422, "number"),
        ({"number": "12345678", "period": "114-12-01"}, 422, "period"),
        ({"number": "12345678", "period": "100-01-02"}, 404, None),
        # Full-width digits match Python's \d: they used to pass and be checked as "not won" even
        # when they spell the special prize; and a full-width period was reported as not imported.
        ({"number": "９７０２３７９７"}, 422, "number"),
        ({"number": "97023797", "period": "１１４-11-12"}, 422, "period"),
    ],
)
async def test_invoice_check_errors(client, params, status, parameter):
    assert_problem(await client.get(f"{BASE}/invoice/check", params=params), status, parameter)


async def test_invoice_errors_say_what_is_allowed_in_words(client):
    body = assert_problem(await client.get(f"{BASE}/invoice/check", params={"number": "1234567"}), 422, "number")
    assert "8-digit receipt number" in body["detail"] and "'1234567'" in body["detail"]
    ops = __import__("twlookup.services.life.operations", fromlist=["SERVICE"]).SERVICE.operations
    check = next(op for op in ops if op.path == "/api/invoice/check")
    with pytest.raises(Exception, match="leading zeros"):  # MCP clients may send a JSON number
        check.parse({"number": 507588})
    body = assert_problem(await client.get(f"{BASE}/invoice/114-12-01"), 422, "period")
    assert "odd month first" in body["detail"] and "latest" in body["detail"]


async def test_invoice_batch_is_not_sold_on_old_winning_numbers(client):
    r = await client.post(f"{BASE}/pro/invoice/check-batch", json={"receipts": [{"number": "97023797"}]})
    problem = assert_problem(r, 503)  # the seeded winning numbers are of 2026-01-25: too old to sell a check on
    assert "life.invoice data is of 2026-01-25" in problem["detail"] and "payment-required" not in r.headers


async def test_invoice_batch_asks_for_payment_after_validating(for_sale):
    client = for_sale  # winning numbers fresh
    r = await client.post(f"{BASE}/pro/invoice/check-batch", json={"receipts": [{"number": "97023797"}]})
    assert r.status_code == 402 and "payment-required" in r.headers
    assert_problem(await client.post(f"{BASE}/pro/invoice/check-batch", json={"receipts": []}), 422, "receipts")
    too_many = {"receipts": [{"number": "12345678"}] * 501}
    assert_problem(await client.post(f"{BASE}/pro/invoice/check-batch", json=too_many), 422, "receipts")
    bad = {"receipts": [{"number": "12345678"}, {"number": "1234"}]}
    assert_problem(await client.post(f"{BASE}/pro/invoice/check-batch", json=bad), 422, "receipts.1.number")
    assert_problem(await client.post(f"{BASE}/pro/invoice/check-batch", json={"numbers": ["12345678"]}), 422)


async def test_pro_operations_directly(client):
    """The paid operations' answers (the gate is tested above; here the logic behind it)."""
    from twlookup.platform.store.reference import Reference
    from twlookup.services.life.operations import SERVICE

    Reference.reset_all()
    ops = {op.path: op for op in SERVICE.operations}
    receipts = [
        {"number": "97023797"},
        {"number": "15232592", "period": "114-11-12"},
        {"number": "12345678", "period": "113-01-02"},
        {"number": "12345678", "period": "114-09-10"},
    ]
    batch = (await ops["/api/pro/invoice/check-batch"].call({"receipts": receipts})).model_dump(mode="json")
    assert batch["checked"] == 3 and batch["won"] == 2 and batch["total_amount"] == 10_040_000
    assert [r["index"] for r in batch["results"]] == [0, 1, 2, 3]
    assert batch["results"][2]["result"] is None and "113-01-02" in batch["results"][2]["error"]
    assert batch["results"][1]["result"]["prize"] == "second"
    assert batch["results"][3]["result"]["won"] is False
    assert_sources(batch["sources"])
    full = (await ops["/api/pro/fuel/history"].call({"product": "diesel"})).model_dump(mode="json")
    assert full["limit"] is None and full["weeks"] == 9 and full["history"][-1]["effective"] == "2025-11-03"


async def test_paid_routes_closed_for_life_answer_403_before_payment(settings):
    app = create_app(settings.model_copy(update={"pro_closed": ["life"]}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        r = await c.get(f"{BASE}/pro/fuel/history", params={"product": "95"})
        assert r.status_code == 403 and r.json()["type"].endswith("/not-open")
        r = await c.post(f"{BASE}/pro/invoice/check-batch", json={"receipts": [{"number": "12345678"}]})
        assert r.status_code == 403 and r.json()["type"].endswith("/not-open")
        assert (await c.get(f"{BASE}/fuel")).status_code == 200  # free routes stay open
        listing = (await c.get("/life/api/pro")).json()["paid_routes"]
        assert {(x["path"], x["open"]) for x in listing} == {
            ("/life/api/pro/fuel/history", False),
            ("/life/api/pro/invoice/check-batch", False),
        }


async def test_paid_route_prices(client):
    listing = {x["path"]: x["price_usd"] for x in (await client.get("/life/api/pro")).json()["paid_routes"]}
    assert listing == {"/life/api/pro/fuel/history": "$0.01", "/life/api/pro/invoice/check-batch": "$0.02"}


# ---------------------------------------------------------------- lottery


async def test_lottery_latest(client):
    body = (await client.get(f"{BASE}/lottery/latest")).json()
    assert [d["game"] for d in body["draws"]] == ["lotto649", "superlotto638", "daily539"]
    l649 = body["draws"][0]
    assert (l649["period"], l649["numbers"], l649["second"], l649["sample"]) == (
        "114000117",
        [5, 7, 9, 14, 17, 30],
        47,
        False,
    )
    assert l649["claim_until"] == "2026-03-30" and l649["reported_by"].startswith("https://")
    sl = body["draws"][1]
    assert (sl["period"], sl["numbers"], sl["second"], sl["sample"]) == ("114000104", [1, 3, 9, 11, 18, 32], 6, False)
    assert body["draws"][2]["sample"] is True and body["sample"] is True  # the daily539 snapshot is sample
    assert body["draws"][2]["second"] is None


@pytest.mark.parametrize("game", ["lotto649", "superlotto638", "daily539"])
async def test_lottery_game_latest_20(client, game):
    body = (await client.get(f"{BASE}/lottery/{game}")).json()
    assert body["limit"] == 20 and body["count"] == len(body["draws"]) == 20
    dates = [d["draw_date"] for d in body["draws"]]
    assert dates == sorted(dates, reverse=True)
    info = body["game"]
    assert info["game"] == game and info["tiers"]
    for d in body["draws"]:
        assert len(d["numbers"]) == info["picks"] and all(1 <= n <= info["maximum"] for n in d["numbers"])
    assert any(t["pari_mutuel"] for t in info["tiers"]) is (game != "daily539")
    assert_sources(body["sources"])


async def test_lottery_unknown_game(client):
    body = assert_problem(await client.get(f"{BASE}/lottery/powerball"), 422, "game")
    assert body["errors"][0]["allowed"] == ["lotto649", "superlotto638", "daily539"]


async def test_lottery_check(client):
    r = await client.get(f"{BASE}/lottery/check", params={"game": "lotto649", "numbers": "5, 7, 9, 14, 17, 47"})
    body = r.json()
    assert r.status_code == 200 and body["won"] is True and body["tier"]["name_zh"] == "貳獎"
    assert body["tier"]["pari_mutuel"] is True and body["amount"] is None and "pari-mutuel" in body["note"]
    assert body["matched"] == [5, 7, 9, 14, 17] and body["extra_matched"] is True
    body = (
        await client.get(
            f"{BASE}/lottery/check", params={"game": "lotto649", "numbers": "5,7,9,47,1,2", "period": "114000117"}
        )
    ).json()
    assert body["tier"]["name_zh"] == "陸獎" and body["amount"] == 1000
    body = (await client.get(f"{BASE}/lottery/check", params={"game": "lotto649", "numbers": "1,2,3,4,6,8"})).json()
    assert body["won"] is False and body["tier"] is None and body["note"] == "No prize."
    # superlotto638 114000104 (2025-12-29): 01 03 09 11 18 32, zone 2: 06
    sl = (
        await client.get(
            f"{BASE}/lottery/check", params={"game": "superlotto638", "numbers": "1,3,9,11,18,33", "second": 6}
        )
    ).json()
    assert sl["tier"]["name_zh"] == "參獎" and sl["amount"] == 150_000 and sl["sample"] is False
    sl = (
        await client.get(
            f"{BASE}/lottery/check",
            params={"game": "superlotto638", "numbers": "1,2,4,5,7,8", "second": 6, "period": "114000101"},
        )
    ).json()
    assert sl["draw"]["period"] == "114000101" and sl["tier"] is None  # 08 is drawn, zone 2 was 05
    d539 = (await client.get(f"{BASE}/lottery/check", params={"game": "daily539", "numbers": "1,2,3,4,5"})).json()
    assert d539["draw"]["second"] is None and len(d539["numbers"]) == 5 and d539["sample"] is True


@pytest.mark.parametrize(
    ("params", "status", "parameter"),
    [
        ({"game": "lotto649", "numbers": "1,2,3,4,5"}, 422, "numbers"),  # count
        ({"game": "lotto649", "numbers": "1,2,3,4,5,50"}, 422, "numbers"),  # range
        ({"game": "lotto649", "numbers": "1,2,3,4,5,5"}, 422, "numbers"),  # repeat
        ({"game": "lotto649", "numbers": "1,2,3,4,5,0"}, 422, "numbers"),
        ({"game": "lotto649", "numbers": "one,two"}, 422, "numbers"),
        ({"game": "lotto649", "numbers": "1,2,3,4,5,6", "second": 2}, 422, "second"),
        ({"game": "superlotto638", "numbers": "1,2,3,4,5,6"}, 422, "second"),
        ({"game": "superlotto638", "numbers": "1,2,3,4,5,6", "second": 9}, 422, "second"),
        ({"game": "superlotto638", "numbers": "1,2,3,4,5,39", "second": 1}, 422, "numbers"),
        ({"game": "daily539", "numbers": "1,2,3,4,5,6"}, 422, "numbers"),
        ({"game": "daily539", "numbers": "1,2,3,4,40"}, 422, "numbers"),
        ({"game": "keno", "numbers": "1,2,3"}, 422, "game"),
        ({"numbers": "1,2,3,4,5,6"}, 422, "game"),
        ({"game": "lotto649"}, 422, "numbers"),
        ({"game": "lotto649", "numbers": "1,2,3,4,5,6", "period": "123"}, 422, "period"),
        ({"game": "lotto649", "numbers": "1,2,3,4,5,6", "period": "113000001"}, 404, None),
        ({"game": "lotto649", "numbers": "1,2,3,4,5,6", "period": "１１４０００１１７"}, 422, "period"),
    ],
)
async def test_lottery_check_errors(client, params, status, parameter):
    body = assert_problem(await client.get(f"{BASE}/lottery/check", params=params), status, parameter)
    if status == 404:
        assert body["id"] == "113000001"


# ---------------------------------------------------------------- fuel


async def test_fuel_this_week(client):
    body = (await client.get(f"{BASE}/fuel")).json()
    by_product = {p["product"]: p for p in body["products"]}
    assert set(by_product) == {"92", "95", "98", "diesel"}
    # CPC from 2025-12-29: 26.8 / 28.3 / 30.3 / 25.2, each NT$0.4 above the week before.
    assert [by_product[k]["price"] for k in ("92", "95", "98", "diesel")] == [26.8, 28.3, 30.3, 25.2]
    assert all(by_product[k]["change"] == pytest.approx(0.4) for k in by_product)
    assert by_product["diesel"]["name_zh"] == "超級柴油" and by_product["95"]["previous_price"] == 27.9
    assert body["effective"] == "2025-12-29" and body["age_days"] == (today_taipei() - date(2025, 12, 29)).days
    assert "not been imported" in body["note"] and body["sample"] is False
    assert all(p["reported_by"].startswith("https://") for p in body["products"])
    assert_sources(body["sources"])


async def test_fuel_history(client):
    body = (await client.get(f"{BASE}/fuel/history", params={"product": "diesel"})).json()
    assert body["limit"] == 12 and body["weeks"] == 9
    assert [w["price"] for w in body["history"][:3]] == [25.2, 24.8, 25.2]
    assert body["history"][-1]["change"] is None and body["history"][0]["change"] == pytest.approx(0.4)
    assert (body["minimum"], body["maximum"]) == (24.8, 25.7)
    derived = next(w for w in body["history"] if w["effective"] == "2025-12-15")
    assert derived["note"].startswith("Derived")


@pytest.mark.parametrize("params", [{}, {"product": "97"}, {"product": "gas"}, {"product": "95", "weeks": "3"}])
async def test_fuel_history_errors(client, params):
    r = await client.get(f"{BASE}/fuel/history", params=params)
    body = assert_problem(r, 422)
    if params.get("product") == "97":
        assert body["errors"][0]["allowed"] == ["92", "95", "98", "diesel"]
    assert_problem(await client.get(f"{BASE}/pro/fuel/history", params={"product": "97"}), 422, "product")
    r = await client.get(f"{BASE}/pro/fuel/history", params={"product": "98"})
    assert assert_problem(r, 503)["type"].endswith("/not-for-sale")  # the seeded prices are of 2025-12-29


async def test_unknown_route_and_wrong_method(client):
    assert_problem(await client.get(f"{BASE}/nothing"), 404)
    assert_problem(await client.post(f"{BASE}/fuel"), 405)


# ---------------------------------------------------------------- MCP


async def test_mcp_tools_are_the_spec_names_and_answer(live_url):
    async with Client(f"{live_url}/life/mcp") as mcp:
        tools = {t.name for t in (await mcp.list_tools()).tools if not t.name.startswith("pro_")}
        assert tools == {
            "get_holidays",
            "is_holiday",
            "get_lottery_results",
            "check_lottery",
            "get_invoice_numbers",
            "check_invoice",
            "get_fuel_prices",
        }
        latest = await mcp.call_tool("get_invoice_numbers", {})
        assert not latest.is_error and latest.structured_content["period"] == "114-11-12"
        check = await mcp.call_tool("check_invoice", {"number": "92377231"})
        assert check.structured_content["prize"] == "first" and check.structured_content["amount"] == 200_000
        bad = await mcp.call_tool("check_lottery", {"game": "superlotto638", "numbers": "1,2,3,4,5,6"})
        assert bad.is_error and "second" in bad.content[0].text
        off = await mcp.call_tool("is_holiday", {"date": (date(2027, 1, 1) + timedelta(days=0)).isoformat()})
        assert off.structured_content["off"] is True


async def test_latest_says_when_the_store_is_behind_the_draws(client, monkeypatch):
    """A check with `period` omitted must not pass an old period off as the latest (a 'not won' for
    a receipt of a newer period would have been wrong)."""
    from twlookup.services.life.operations import invoice, lottery

    for _ops in (invoice, lottery):
        monkeypatch.setattr(clock, "_fixed", date(2026, 11, 22))
    body = (await client.get(f"{BASE}/invoice/check", params={"number": "12345678"})).json()
    assert body["period"] == "114-11-12" and body["newest_drawn_period"] == "115-07-08"
    assert "115-07-08" in body["note"] and "not in this store" in body["note"]
    body = (await client.get(f"{BASE}/invoice/check", params={"number": "12345678", "period": "114-11-12"})).json()
    assert body["note"] is None  # asked for that period: nothing to warn about
    assert "115-07-08" in (await client.get(f"{BASE}/invoice/latest")).json()["note"]
    assert (await client.get(f"{BASE}/invoice/114-11-12")).json()["note"] is None
    body = (await client.get(f"{BASE}/lottery/latest")).json()
    assert "lotto649 2025-12-26" in body["stale_note"]
    body = (await client.get(f"{BASE}/lottery/check", params={"game": "daily539", "numbers": "1,2,3,4,5"})).json()
    assert "daily539" in body["stale_note"]

    monkeypatch.setattr(clock, "_fixed", date(2026, 2, 1))  # 114-11-12 is the newest drawn
    body = (await client.get(f"{BASE}/invoice/check", params={"number": "12345678"})).json()
    assert body["note"] is None and body["newest_drawn_period"] == "114-11-12"
