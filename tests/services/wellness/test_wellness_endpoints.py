"""The wellness service through HTTP and MCP: every endpoint, and every kind of invalid input."""

from __future__ import annotations

import base64
import json

import httpx
import pytest
from mcp import Client

pytestmark = pytest.mark.asyncio

BASE = "/wellness/api"
TOOLS = {
    "check_telehealth_eligibility",
    "score_mood_thermometer",
    "score_phq9",
    "score_gad7",
    "calc_sleep_times",
    "breathing_exercises",
    "digital_wellness_guide",
    "crisis_lines",
}


def problem(r: httpx.Response, status: int, parameter: str | None = None) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    body = r.json()
    if parameter:
        assert body["errors"][0]["parameter"] == parameter, body
    return body


def assert_sourced(sources):
    assert sources
    for s in sources:
        assert s["url"].startswith(("https://", "http://")) and s["checked"] == "2026-11-22"


# -- telehealth ------------------------------------------------------------------------------------


async def test_telehealth_lists_all_eleven(client):
    body = (await client.get(f"{BASE}/telehealth")).json()
    assert body["count"] == 11 == len(body["situations"])
    assert body["regulation"]["name_zh"] == "通訊診察治療辦法" and body["regulation"]["in_force"] == "2024-07-01"
    assert sum(s["special_case"] for s in body["situations"]) == 10
    assert "not a diagnosis or medical advice" in body["notice"]
    for s in body["situations"]:
        assert_sourced(s["sources"])


async def test_telehealth_says_what_conditional_prescribing_means(client):
    # "conditional" must be explained in the answer itself, with where to check the limits
    body = (await client.get(f"{BASE}/telehealth", params={"situation": "end-of-life"})).json()
    assert body["situations"][0]["prescribing"] == "conditional"
    text = body["common_conditions"]
    assert "condition stable" in text and "L0020197" in text and "first visit" in text


async def test_telehealth_empty_situation_says_what_to_give(client):
    out = problem(await client.get(f"{BASE}/telehealth", params={"situation": ""}), 422, "situation")
    assert "post-acute-care" in out["detail"] and "list all 11" in out["detail"]


async def test_telehealth_one_situation(client):
    body = (await client.get(f"{BASE}/telehealth", params={"situation": "end-of-life"})).json()
    (s,) = body["situations"]
    assert (
        s["id"],
        s["special_case"],
        s["remote_consultation_allowed"],
        s["prescribing"],
        s["first_visit_allowed"],
    ) == (
        "end-of-life",
        True,
        True,
        "conditional",
        False,
    )
    remote = (await client.get(f"{BASE}/telehealth", params={"situation": "remote-areas"})).json()["situations"][0]
    assert (remote["special_case"], remote["prescribing"], remote["first_visit_allowed"]) == (False, "allowed", True)


async def test_telehealth_unknown_situation_lists_the_valid_ids(client):
    body = problem(await client.get(f"{BASE}/telehealth", params={"situation": "dentist"}), 404)
    assert body["id"] == "dentist" and "'dentist'" in body["detail"]
    assert "post-acute-care" in body["detail"] and "international" in body["detail"]


@pytest.mark.parametrize(
    ("params", "parameter"),
    [({"situation": ""}, "situation"), ({"situation": "x" * 41}, "situation"), ({"where": "home"}, "where")],
)
async def test_telehealth_bad_parameters(client, params, parameter):
    problem(await client.get(f"{BASE}/telehealth", params=params), 422, parameter)


async def test_telehealth_repeated_parameter(client):
    problem(await client.get(f"{BASE}/telehealth?situation=home-care&situation=international"), 422, "situation")


# -- self-assessments ------------------------------------------------------------------------------


def assert_assessment(body, instrument, total, band):
    assert (body["instrument"], body["total"], body["band"]["id"]) == (instrument, total, band)
    assert "not a diagnosis" in body["not_a_diagnosis"] and body["stored"] is False
    assert [x["number"] for x in body["crisis_lines"]][:1] == ["1925"] and len(body["crisis_lines"]) >= 6
    assert_sourced(body["sources"])
    # No promotion: apart from the sources and the crisis lines, the result links nowhere.
    rest = {k: v for k, v in body.items() if k not in ("sources", "crisis_lines")}
    text = json.dumps(rest, ensure_ascii=False).lower()
    assert "http" not in text and "www." not in text


async def test_mood_thermometer(client):
    body = (await client.post(f"{BASE}/mood-thermometer", json={"answers": [1, 2, 0, 3, 1], "suicidal": 0})).json()
    assert_assessment(body, "bsrs5", 7, "mild")
    assert body["max_total"] == 20 and body["item_flags"] == [] and body["urgent"] is False
    assert body["extra_item"] == {"label": body["extra_item"]["label"], "answer": 0, "flag_at": 2, "flagged": False}


async def test_mood_thermometer_suicide_item_alone(client):
    body = (await client.post(f"{BASE}/mood-thermometer", json={"answers": [0, 0, 0, 0, 0], "suicidal": 2})).json()
    assert_assessment(body, "bsrs5", 0, "normal")
    assert body["urgent"] is True and body["extra_item"]["flagged"] is True
    assert body["item_flags"][0]["item"] is None and body["item_flags"][0]["answer"] == 2


@pytest.mark.parametrize(
    ("answers", "total", "band"),
    [([0] * 9, 0, "minimal"), ([3] * 9, 27, "severe"), ([2, 2, 2, 2, 2, 0, 0, 0, 0], 10, "moderate")],
)
async def test_phq9(client, answers, total, band):
    body = (await client.post(f"{BASE}/phq9", json={"answers": answers})).json()
    assert_assessment(body, "phq9", total, band)
    assert body["extra_item"] is None and len(body["bands"]) == 5


async def test_phq9_item_9_alone(client):
    body = (await client.post(f"{BASE}/phq9", json={"answers": [0] * 8 + [1]})).json()
    assert_assessment(body, "phq9", 1, "minimal")
    assert body["urgent"] is True and [f["item"] for f in body["item_flags"]] == [9]


@pytest.mark.parametrize(
    ("answers", "total", "band"),
    [([0] * 7, 0, "minimal"), ([3] * 7, 21, "severe"), ([3, 3, 3, 3, 3, 0, 0], 15, "severe")],
)
async def test_gad7(client, answers, total, band):
    body = (await client.post(f"{BASE}/gad7", json={"answers": answers})).json()
    assert_assessment(body, "gad7", total, band)
    assert body["item_flags"] == [] and body["urgent"] is False


@pytest.mark.parametrize(
    ("path", "body", "parameter"),
    [
        ("phq9", {"answers": [0] * 8}, "answers"),  # too few
        ("phq9", {"answers": [0] * 10}, "answers"),  # too many
        ("phq9", {"answers": []}, "answers"),
        ("phq9", {"answers": [0] * 8 + [4]}, "answers"),  # above the range
        ("phq9", {"answers": [-1] + [0] * 8}, "answers"),  # below the range
        ("phq9", {"answers": ["1"] + [0] * 8}, "answers"),  # a string, not a number
        ("phq9", {"answers": [1.5] + [0] * 8}, "answers"),  # not a whole number
        ("phq9", {"answers": [True] + [0] * 8}, "answers"),  # a boolean
        ("phq9", {"answers": None}, "answers"),
        ("phq9", {"answers": "0,0,0,0,0,0,0,0,0"}, "answers"),  # a string instead of a list
        ("phq9", {}, "answers"),  # missing
        ("phq9", {"answers": [0] * 9, "note": "x"}, "note"),  # unknown field
        ("gad7", {"answers": [0] * 9}, "answers"),
        ("gad7", {"answers": [0] * 6 + [4]}, "answers"),
        ("mood-thermometer", {"answers": [0] * 5}, "suicidal"),  # the extra item is required
        ("mood-thermometer", {"answers": [0] * 5, "suicidal": 5}, "suicidal"),
        ("mood-thermometer", {"answers": [0] * 5, "suicidal": -1}, "suicidal"),
        ("mood-thermometer", {"answers": [0] * 4 + [5], "suicidal": 0}, "answers"),
        ("mood-thermometer", {"answers": [0] * 6, "suicidal": 0}, "answers"),
    ],
)
async def test_assessment_invalid_input_names_the_parameter(client, path, body, parameter):
    out = problem(await client.post(f"{BASE}/{path}", json=body), 422, parameter)
    assert out["detail"].startswith(parameter)


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        # the item is named 1-based as on the questionnaire, with the allowed range and scale
        ("phq9", {"answers": [0] * 8 + [4]}, ["answer 9 is 4", "exactly 9 answers", "0 to 3", "nearly every day"]),
        ("phq9", {"answers": [0] * 8}, ["got 8 answers", "exactly 9 answers"]),
        ("phq9", {"answers": "0,0,0"}, ["JSON list", "exactly 9 answers"]),
        ("gad7", {"answers": [1.5] + [0] * 6}, ["answer 1 is 1.5", "whole number 0 to 3"]),
        ("mood-thermometer", {"answers": [0] * 4 + [5], "suicidal": 0}, ["answer 5 is 5", "0 to 4", "4 extremely"]),
        ("mood-thermometer", {"answers": [0] * 5, "suicidal": "2"}, ["is '2'", "whole number 0 to 4"]),
    ],
)
async def test_invalid_answers_say_which_item_and_what_is_allowed(client, path, body, words):
    out = problem(await client.post(f"{BASE}/{path}", json=body), 422)
    for w in words:
        assert w in out["detail"], out["detail"]
    assert "answers." not in out["detail"]  # never pydantic's 0-based position


async def test_answers_written_as_whole_floats_count_as_numbers(client):
    # JSON Schema's integer includes 1.0; the scores are the same as for 1.
    body = (await client.post(f"{BASE}/gad7", json={"answers": [1.0, 2, 0, 0, 0, 0, 3.0]})).json()
    assert body["total"] == 6 and body["band"]["id"] == "mild"


async def test_assessment_body_must_be_a_json_object(client):
    problem(await client.post(f"{BASE}/phq9", json=[0] * 9), 422)
    r = await client.post(f"{BASE}/phq9", content=b"{answers: [0]", headers={"content-type": "application/json"})
    problem(r, 400)
    r = await client.post(
        f"{BASE}/phq9", content=b"answers=0,0", headers={"content-type": "application/x-www-form-urlencoded"}
    )
    problem(r, 415)


async def test_assessment_answers_are_not_accepted_in_the_url(client):
    body = problem(await client.get(f"{BASE}/phq9", params={"answers": "0,0,0,0,0,0,0,0,0"}), 405)
    assert "POST" in body["detail"]


# -- sleep, breathing, guide, crisis lines ---------------------------------------------------------


async def test_sleep_from_wake_time(client):
    body = (await client.get(f"{BASE}/sleep", params={"wake": "07:00"})).json()
    assert (
        body["mode"] == "wake" and body["method"]["cycle_minutes"] == 90 and body["method"]["fall_asleep_minutes"] == 15
    )
    assert [(o["cycles"], o["bedtime"], o["meets_adult_minimum"]) for o in body["options"]] == [
        (6, "21:45", True),
        (5, "23:15", True),
        (4, "00:45", False),
        (3, "02:15", False),
    ]
    assert_sourced(body["sources"])


async def test_sleep_from_bedtime(client):
    body = (await client.get(f"{BASE}/sleep", params={"bedtime": "23:00"})).json()
    assert body["mode"] == "bedtime"
    assert [o["wake"] for o in body["options"]] == ["08:15", "06:45", "05:15", "03:45"]


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({}, "wake"),
        ({"wake": "07:00", "bedtime": "23:00"}, "bedtime"),
        ({"wake": "7:00"}, "wake"),
        ({"wake": "24:00"}, "wake"),
        ({"bedtime": "23:60"}, "bedtime"),
        ({"bedtime": "late"}, "bedtime"),
        ({"wake": "07:00", "tz": "UTC"}, "tz"),
    ],
)
async def test_sleep_invalid(client, params, parameter):
    out = problem(await client.get(f"{BASE}/sleep", params=params), 422, parameter)
    if parameter in ("wake", "bedtime") and parameter in params and len(params) == 1:
        # in words a person can fix, not a regular expression
        assert "HH:MM on the 24-hour clock, 00:00 to 23:59" in out["detail"] and "^(" not in out["detail"], out


async def test_breathing(client):
    body = (await client.get(f"{BASE}/breathing")).json()
    assert [e["id"] for e in body["exercises"]] == ["diaphragmatic", "box", "4-7-8"] and body["count"] == 3
    assert "dizzy" in body["caution"]
    for e in body["exercises"]:
        assert e["steps"] and e["minutes"] > 0
        assert_sourced(e["sources"])


async def test_digital_wellness(client):
    body = (await client.get(f"{BASE}/digital-wellness")).json()
    assert body["count"] == len(body["sections"]) == 4
    assert any("2" in tip and "1 hour" in tip for tip in body["sections"][0]["tips"])
    for s in body["sections"]:
        assert_sourced(s["sources"])


async def test_crisis_lines(client):
    body = (await client.get(f"{BASE}/crisis-lines")).json()
    by_number = {x["number"]: x for x in body["lines"]}
    assert by_number["1925"]["hours"].startswith("24 hours") and by_number["113"]["hours"].startswith("24 hours")
    assert {"1995", "1980", "110", "119"} <= set(by_number)
    for x in body["lines"]:
        assert x["source"]["checked"] == "2026-11-22"


@pytest.mark.parametrize("path", ["breathing", "digital-wellness", "crisis-lines"])
async def test_no_parameter_routes_refuse_parameters(client, path):
    problem(await client.get(f"{BASE}/{path}", params={"q": "x"}), 422, "q")


# -- paid export -----------------------------------------------------------------------------------


async def test_export_asks_for_payment_on_the_testnet(client):
    r = await client.get(f"{BASE}/pro/export")
    assert r.status_code == 402
    required = json.loads(base64.b64decode(r.headers["payment-required"]))
    (accept,) = required["accepts"]
    assert accept["network"] == "eip155:84532" and accept["amount"] == "50000"  # US$0.05 in USDC (6 decimals)


async def test_export_rejects_parameters_before_payment(client):
    problem(await client.get(f"{BASE}/pro/export", params={"answers": "1"}), 422, "answers")


async def test_only_export_is_paid(client):
    paid = (await client.get("/wellness/api/pro")).json()["paid_routes"]
    assert [(p["path"], p["price_usd"]) for p in paid] == [("/wellness/api/pro/export", "$0.05")]


async def test_openapi_documents_every_route(client):
    doc = (await client.get("/wellness/openapi.json")).json()
    assert set(doc["paths"]) == {
        "/api/telehealth",
        "/api/mood-thermometer",
        "/api/phq9",
        "/api/gad7",
        "/api/sleep",
        "/api/breathing",
        "/api/digital-wellness",
        "/api/crisis-lines",
        "/api/pro/export",
    }
    assert set(doc["paths"]["/api/phq9"]) == {"post"}


# -- MCP through the official client ---------------------------------------------------------------


async def test_mcp_tools_through_the_official_client(live_url):
    async with Client(f"{live_url}/wellness/mcp") as mcp:
        tools = (await mcp.list_tools()).tools
        assert {t.name for t in tools if not t.name.startswith("pro_")} == TOOLS
        assert all(t.annotations and t.annotations.read_only_hint for t in tools)
        r = await mcp.call_tool("score_phq9", {"answers": [0] * 8 + [2]})
        assert not r.is_error and r.structured_content["item_flags"][0]["item"] == 9
        r = await mcp.call_tool("score_mood_thermometer", {"answers": [4, 4, 4, 4, 4], "suicidal": 0})
        assert r.structured_content["total"] == 20 and r.structured_content["band"]["id"] == "severe"
        r = await mcp.call_tool("check_telehealth_eligibility", {})
        assert r.structured_content["count"] == 11
        r = await mcp.call_tool("calc_sleep_times", {"bedtime": "22:30"})
        assert r.structured_content["options"][0]["wake"] == "07:45"
        for name in ("breathing_exercises", "digital_wellness_guide", "crisis_lines", "score_gad7"):
            args = {"answers": [1] * 7} if name == "score_gad7" else {}
            r = await mcp.call_tool(name, args)
            assert not r.is_error and r.structured_content


async def test_mcp_errors_carry_the_rest_text(live_url):
    async with Client(f"{live_url}/wellness/mcp") as mcp:
        bad = await mcp.call_tool("score_gad7", {"answers": [0] * 6})
        unknown = await mcp.call_tool("check_telehealth_eligibility", {"situation": "dentist"})
    assert bad.is_error and unknown.is_error
    async with httpx.AsyncClient(base_url=live_url) as http:
        rest_bad = (await http.post(f"{BASE}/gad7", json={"answers": [0] * 6})).json()
        rest_unknown = (await http.get(f"{BASE}/telehealth", params={"situation": "dentist"})).json()
    assert bad.content[0].text == rest_bad["detail"] and "answers" in rest_bad["detail"]
    assert unknown.content[0].text == rest_unknown["detail"]


async def test_mcp_and_rest_give_the_same_score(client, live_url):
    args = {"answers": [1, 2, 3, 0, 1, 2, 3, 0, 1]}
    async with Client(f"{live_url}/wellness/mcp") as mcp:
        via_mcp = (await mcp.call_tool("score_phq9", args)).structured_content
    via_rest = (await client.post(f"{BASE}/phq9", json=args)).json()
    assert via_mcp == via_rest and via_rest["total"] == 13
