"""The holiday service through HTTP and MCP: every endpoint, the limits and every error path."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from conftest import assert_problem, assert_sources
from yaml_files import load_yaml

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.schemas import today_taipei

pytestmark = pytest.mark.asyncio

BASE = "/holiday/api"
CAL_2027 = load_yaml((DEFAULT_DATA / "calendar" / "taiwan.yaml").read_text(encoding="utf-8"))["years"][2027]


async def test_long_weekends(client):
    r = await client.get(f"{BASE}/long-weekends-2027")
    assert r.status_code == 200
    body = r.json()
    assert body["count"] == 9 == len(body["long_weekends"])
    got = [(w["start"], w["end"], w["days"]) for w in body["long_weekends"]]
    assert got == [(w["start"].isoformat(), w["end"].isoformat(), w["days"]) for w in CAL_2027["long_weekends"]]
    lny = body["long_weekends"][1]
    assert lny["weekdays"][0] == "Thursday" and len(lny["weekdays"]) == 7
    assert any(h["name_en"] == "Lunar New Year (day 1)" for h in lny["holidays"])
    assert body["sources"][0]["url"] == CAL_2027["source"]
    assert_sources(body["sources"])


async def test_holidays_2027(client):
    body = (await client.get(f"{BASE}/holidays-2027")).json()
    assert body["count"] == 121 == len(body["days"])
    assert body["weekend_days"] == 104 and body["weekday_days_off"] == 17
    by_date = {d["date"]: d for d in body["days"]}
    assert by_date["2027-10-10"]["reason"] == "National Day"
    assert by_date["2027-01-02"]["reason"] == "Weekend" and by_date["2027-01-02"]["kind"] == "weekend"
    assert "2027-06-10" not in by_date  # an ordinary Thursday
    assert_sources(body["sources"])


async def test_leave_plan_defaults_and_limits(client):
    r = await client.get(f"{BASE}/leave-plan", params={"leave": 0})
    body = r.json()
    assert r.status_code == 200 and body["count"] == 8 == len(body["plans"]) and body["limit"] == 8
    assert (body["plans"][0]["start"], body["plans"][0]["end"], body["plans"][0]["days"]) == (
        "2027-02-04",
        "2027-02-10",
        7,
    )
    body = (await client.get(f"{BASE}/leave-plan", params={"leave": 1, "limit": 20})).json()
    assert len(body["plans"]) == 20
    top = body["plans"][0]
    assert (top["start"], top["end"], top["days"], top["leave_days"], top["leave_dates"], top["efficiency"]) == (
        "2027-02-03",
        "2027-02-10",
        8,
        1,
        ["2027-02-03"],
        8.0,
    )
    assert [p["rank"] for p in body["plans"]] == list(range(1, 21))
    assert_sources(body["sources"])


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({}, "leave"),
        ({"leave": "-1"}, "leave"),
        ({"leave": "31"}, "leave"),
        ({"leave": "two"}, "leave"),
        ({"leave": "2", "limit": "0"}, "limit"),
        ({"leave": "2", "limit": "21"}, "limit"),
        ({"leave": "2", "days": "3"}, "days"),
    ],
)
async def test_leave_plan_rejects_bad_params(client, params, parameter):
    problem = assert_problem(await client.get(f"{BASE}/leave-plan", params=params), 422, parameter)
    if parameter == "leave" and params.get("leave") in ("-1", "31"):
        assert problem["errors"][0]["allowed"] == {"minimum": 0, "maximum": 30}


async def test_strategies(client):
    body = (await client.get(f"{BASE}/strategies-2027")).json()
    assert len(body["long_weekends"]) == 9
    for item in body["long_weekends"]:
        lw = item["long_weekend"]
        assert [s["leave"] for s in item["strategies"]] == [1, 2, 3, 4, 5]
        for s in item["strategies"]:
            plan = s["plan"]
            assert plan["start"] <= lw["start"] and lw["end"] <= plan["end"]
            assert plan["leave_days"] <= s["leave"]
    lny = body["long_weekends"][1]["strategies"][4]["plan"]
    assert (lny["start"], lny["end"], lny["days"]) == ("2027-01-30", "2027-02-14", 16)
    assert_sources(body["sources"])


async def test_abroad_with_peak_data(client):
    r = await client.get(f"{BASE}/abroad", params={"country": "jp"})
    body = r.json()
    assert r.status_code == 200 and body["country"] == "JP" and body["peak_data"]
    assert any(h["date"] == "2027-04-29" for h in body["holidays"])
    assert all(p["source"]["url"] for p in body["peak_seasons"])
    overlap_starts = {o["long_weekend"]["start"] for o in body["overlaps"]}
    assert "2027-01-01" in overlap_starts  # New Year holidays in Japan
    assert "2027-04-30" in overlap_starts  # Golden Week
    assert body["sources"][0]["url"] == "https://github.com/vacanza/holidays"
    assert body["sources"][0]["licence"] == "MIT"
    assert_sources(body["sources"])


async def test_abroad_peaks_and_holidays_agree(client):
    """A holiday-break peak answers the calendar's days and names them; a season answers its source's."""
    for country in ("KR", "HK"):
        body = (await client.get(f"{BASE}/abroad", params={"country": country})).json()
        peak = next(p for p in body["peak_seasons"] if "New Year" in p["name_en"])
        assert (peak["start"], peak["end"], peak["dates_from"]) == ("2027-02-06", "2027-02-09", "holidays calendar")
        listed = {h["date"] for h in body["holidays"]}
        assert {h["date"] for h in peak["holidays"]} <= listed
        assert "2027-02-09" in listed  # KR: substitute day; HK: the fourth day of Lunar New Year
        season = next(p for p in body["peak_seasons"] if p["dates_from"] == "source")
        assert season["holidays"] == []
    hk = (await client.get(f"{BASE}/abroad", params={"country": "HK"})).json()
    assert {"Good Friday", "The day following Good Friday"} <= {h["name"] for h in hk["holidays"]}  # Cap. 149


async def test_abroad_without_peak_data_says_so(client):
    body = (await client.get(f"{BASE}/abroad", params={"country": "DE"})).json()
    assert body["peak_data"] is False and body["peak_seasons"] == []
    assert "no sourced peak-season data" in body["notes"][0]
    assert any(h["name"] == "German Unity Day" for h in body["holidays"])


@pytest.mark.parametrize(
    "params", [{"country": "ZZ"}, {"country": "JPN"}, {"country": ""}, {}, {"country": "JP", "year": "2027"}]
)
async def test_abroad_rejects_bad_country(client, params):
    problem = assert_problem(await client.get(f"{BASE}/abroad", params=params), 422)
    if params.get("country") == "ZZ":
        assert "ISO 3166-1 alpha-2" in problem["detail"] and "JP" in problem["errors"][0]["allowed"]
        assert len(problem["detail"]) < 200  # the list is in `allowed`, not repeated in the text


async def test_crowd(client):
    r = await client.get(f"{BASE}/crowd", params={"country": "JP", "start": "2027-04-29", "end": "2027-05-05"})
    body = r.json()
    assert r.status_code == 200
    assert body["crowd_level"] == "very high" and body["points"] >= 6
    assert "Level:" in body["rule"]
    assert sum(f["points"] for f in body["factors"]) == body["points"]
    assert any(f["kind"] == "peak_high" and f["name"] == "Golden Week" for f in body["factors"])
    assert any(w["start"] == "2027-04-30" for w in body["taiwan_long_weekends"])
    assert_sources(body["sources"])
    quiet = (
        await client.get(f"{BASE}/crowd", params={"country": "jp", "start": "2027-06-14", "end": "2027-06-18"})
    ).json()
    assert quiet["crowd_level"] == "low" and quiet["factors"] == []
    none = (
        await client.get(f"{BASE}/crowd", params={"country": "DE", "start": "2027-10-01", "end": "2027-10-05"})
    ).json()
    assert none["peak_data"] is False and none["notes"]


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"country": "JP", "start": "2027-05-05", "end": "2027-05-01"}, "end"),
        ({"country": "JP", "start": "2027-01-01", "end": "2027-03-02"}, "end"),  # 61 days
        ({"country": "JP", "start": "2027/01/01", "end": "2027-01-02"}, "start"),
        ({"country": "JP", "start": "2027-02-30", "end": "2027-03-02"}, "start"),
        ({"country": "JP", "start": "2027-01-01"}, "end"),
        ({"country": "QQ", "start": "2027-01-01", "end": "2027-01-02"}, "country"),
        ({"country": "JP", "start": "2027-01-01", "end": "2027-01-02", "x": "1"}, "x"),
    ],
)
async def test_crowd_rejects_bad_params(client, params, parameter):
    assert_problem(await client.get(f"{BASE}/crowd", params=params), 422, parameter)


async def test_crowd_sixty_days_is_allowed(client):
    r = await client.get(f"{BASE}/crowd", params={"country": "TH", "start": "2027-01-01", "end": "2027-03-01"})
    assert r.status_code == 200 and r.json()["days"] == 60


async def test_flight_timing(client):
    today = today_taipei()
    depart = max(date(2027, 2, 4), today + timedelta(days=1))
    r = await client.get(f"{BASE}/flight-timing", params={"depart": depart.isoformat(), "dest": "jp"})
    body = r.json()
    assert r.status_code == 200
    assert body["dest"] == "JP" and body["haul"] == "short_haul"
    assert body["days_left"] == (depart - today).days
    assert body["verdict"] in ("book now", "good window", "early: watch fares", "last minute")
    assert body["reasons"] and body["rule"]["source"]["url"].startswith("http")
    assert_sources(body["sources"])
    far = today + timedelta(days=300)
    body = (await client.get(f"{BASE}/flight-timing", params={"depart": far.isoformat(), "dest": "US"})).json()
    assert body["haul"] == "long_haul"
    if not body["in_peak"]:
        assert body["verdict"] == "early: watch fares"
    soon = today + timedelta(days=3)
    body = (await client.get(f"{BASE}/flight-timing", params={"depart": soon.isoformat(), "dest": "KR"})).json()
    assert body["verdict"] == "last minute"


async def test_flight_timing_errors(client):
    today = today_taipei()
    problem = assert_problem(
        await client.get(
            f"{BASE}/flight-timing", params={"depart": (today - timedelta(days=1)).isoformat(), "dest": "JP"}
        ),
        422,
        "depart",
    )
    assert "past" in problem["detail"]
    problem = assert_problem(
        await client.get(f"{BASE}/flight-timing", params={"depart": "2027-03-01", "dest": "BR"}), 422, "dest"
    )
    assert "JP" in problem["errors"][0]["allowed"] and "US" in problem["errors"][0]["allowed"]
    assert_problem(
        await client.get(f"{BASE}/flight-timing", params={"depart": "2027-03-01", "dest": "TW"}), 422, "dest"
    )
    assert_problem(
        await client.get(f"{BASE}/flight-timing", params={"depart": "2027-03-01", "dest": "JAPAN"}), 422, "dest"
    )
    assert_problem(
        await client.get(f"{BASE}/flight-timing", params={"depart": "tomorrow", "dest": "JP"}), 422, "depart"
    )
    assert_problem(await client.get(f"{BASE}/flight-timing", params={"dest": "JP"}), 422, "depart")
    far = (today + timedelta(days=800)).isoformat()
    assert_problem(await client.get(f"{BASE}/flight-timing", params={"depart": far, "dest": "JP"}), 422, "depart")


async def test_tickets_guide(client):
    body = (await client.get(f"{BASE}/tickets-guide")).json()
    assert body["count"] == 3
    assert {s["id"] for s in body["sections"]} == {"immersive-theatre", "escape-rooms", "holidays-2027"}
    assert all(s["sources"] and s["tips_zh"] for s in body["sections"])
    assert_sources(body["sources"])
    assert_problem(await client.get(f"{BASE}/tickets-guide", params={"lang": "en"}), 422, "lang")


async def test_pro_routes_ask_for_payment_after_validating(client):
    r = await client.get(f"{BASE}/pro/trip-plan", params={"leave": 3, "countries": "JP,kr"})
    assert r.status_code == 402 and "payment-required" in r.headers
    r = await client.get(f"{BASE}/pro/export")
    assert r.status_code == 402
    bad = [
        {"leave": 3},
        {"countries": "JP"},
        {"leave": 31, "countries": "JP"},
        {"leave": 3, "countries": "JP,ZZ"},
        {"leave": 3, "countries": "JP,JP"},
        {"leave": 3, "countries": "JP,KR,TH,VN,SG,HK"},
        {"leave": 3, "countries": ","},
    ]
    for params in bad:
        assert_problem(await client.get(f"{BASE}/pro/trip-plan", params=params), 422)
    assert_problem(await client.get(f"{BASE}/pro/export", params={"full": "1"}), 422, "full")


async def test_pro_operations_directly(client):
    """The paid operations' answers (the gate is tested above; here the logic behind it)."""
    from twlookup.platform.store.reference import Reference
    from twlookup.services.holiday.operations import SERVICE

    Reference.reset_all()
    ops = {op.path: op for op in SERVICE.operations}
    plan = (await ops["/api/pro/trip-plan"].call({"leave": "3", "countries": "jp,de"})).model_dump(mode="json")
    assert plan["countries"] == ["JP", "DE"] and len(plan["options"]) == 5
    first = plan["options"][0]
    assert first["plan"]["leave_days"] <= 3
    assert {d["country"] for d in first["destinations"]} == {"JP", "DE"}
    for d in first["destinations"]:
        assert d["crowd_level"] in ("low", "medium", "high", "very high")
        assert d["flight"] is not None or d["flight_note"]
    assert plan["sources"]
    export = (await ops["/api/pro/export"].call({})).model_dump(mode="json")
    assert export["calendar"]["count"] == 121 and len(export["long_weekends"]) == 9
    assert {d["country"] for d in export["destinations"]} >= {"JP", "KR", "US"}
    assert len(export["flight_rules"]) == 2 and len(export["tickets_guide"]) == 3
    assert export["sources"]


async def test_mcp_tools_are_the_spec_names(client):
    from twlookup.services.holiday.operations import SERVICE

    assert {op.tool for op in SERVICE.tools} == {
        "get_2027_long_weekends",
        "plan_leave_2027",
        "check_destination_crowd",
        "flight_booking_timing",
        "ticket_booking_guide",
    }
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    r = await client.post(
        "/holiday/mcp",
        headers=headers,
        json={
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "plan_leave_2027", "arguments": {"leave": 1, "limit": 2}},
        },
    )
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    assert not result.get("isError")
    assert result["structuredContent"]["plans"][0]["start"] == "2027-02-03"


async def test_crowd_says_when_a_destination_calendar_is_incomplete_for_the_year(client):
    # India's lunar holidays are tabulated by the holidays package for 2001-2035 only.
    body = (
        await client.get(f"{BASE}/crowd", params={"country": "IN", "start": "2040-10-01", "end": "2040-10-10"})
    ).json()
    assert any(n.startswith("Incomplete destination holidays for IN in 2040") for n in body["notes"])
    body = (
        await client.get(f"{BASE}/crowd", params={"country": "IN", "start": "2030-10-01", "end": "2030-10-10"})
    ).json()
    assert not any(n.startswith("Incomplete") for n in body["notes"])


async def test_crowd_refuses_years_outside_the_country_calendar(client):
    problem = assert_problem(
        await client.get(f"{BASE}/crowd", params={"country": "SS", "start": "2005-01-01", "end": "2005-01-05"}), 422
    )
    assert problem["errors"][0]["parameter"] == "start" and problem["errors"][0]["allowed"]["minimum_year"] > 2005
