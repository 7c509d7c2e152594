"""Every health endpoint over the app (httpx over ASGI), every error path, and MCP through the
official client."""

import pytest
from conftest import assert_problem
from mcp import Client

from twlookup.services.health.schemas import NOTICE

pytestmark = pytest.mark.asyncio

FREE = [
    ("/health/api/counseling", {}),
    ("/health/api/glp1", {}),
    ("/health/api/cancer-diet", {}),
    ("/health/api/meal-check", {"meal": "香腸"}),
    ("/health/api/screening", {}),
    ("/health/api/screening-check", {"age": 50, "sex": "female", "smoker": "never"}),
    ("/health/api/home-monitoring", {}),
    ("/health/api/bp-check", {"readings": "120/80"}),
    ("/health/api/glucose-check", {"value": 100, "when": "fasting"}),
]


@pytest.mark.parametrize(("path", "params"), FREE)
async def test_every_free_endpoint_answers_with_the_notice(client, path, params):
    r = await client.get(path, params=params)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["notice"] == NOTICE and "not a diagnosis" in body["notice"]
    assert "not stored" in body["privacy"]


async def test_counseling_guide(client):
    body = (await client.get("/health/api/counseling")).json()
    assert (body["age_min"], body["age_max"], body["free_sessions"], body["year"]) == (15, 45, 3, 2026)
    assert len(body["booking_steps_en"]) == 4
    assert body["crisis_lines"][0]["number"] == "1925"
    assert all(s["checked"] == "2026-11-22" for s in body["sources"])


async def test_glp1_lists_the_three_taiwan_approved_ingredients(client):
    body = (await client.get("/health/api/glp1")).json()
    assert {d["ingredient"] for d in body["drugs"]} == {"tirzepatide", "semaglutide", "liraglutide"}
    tirz = next(d for d in body["drugs"] if d["id"] == "tirzepatide")
    nausea = next(s for s in tirz["side_effects"] if s["effect_en"] == "Nausea")
    assert (
        nausea["percent_by_dose"] == {"5 mg": 24.6, "10 mg": 33.3, "15 mg": 31.0} and nausea["placebo_percent"] == 9.5
    )
    assert any("pancreatitis" in w["en"] for w in body["warning_signs"])


async def test_cancer_diet_and_screening_lists(client):
    diet = (await client.get("/health/api/cancer-diet")).json()
    groups = {f["id"]: f["iarc_group"] for f in diet["factors"]}
    assert groups["processed-meat"] == "1" and groups["red-meat"] == "2A" and groups["aspartame"] == "2B"
    scr = (await client.get("/health/api/screening")).json()
    assert [p["id"] for p in scr["programmes"]] == [
        "colorectal",
        "breast",
        "cervical",
        "hpv",
        "oral",
        "lung",
        "stomach",
    ]


async def test_meal_check(client):
    body = (await client.get("/health/api/meal-check", params={"meal": "bacon and 啤酒"})).json()
    assert [m["factor"]["id"] for m in body["matches"]] == ["processed-meat", "alcohol"]
    assert body["highest_group"] == "1"
    none = (await client.get("/health/api/meal-check", params={"meal": "燙青菜"})).json()
    assert none["matches"] == [] and none["highest_group"] is None and "not a clean bill" in none["summary_en"]


async def test_screening_check(client):
    body = (
        await client.get(
            "/health/api/screening-check",
            params={
                "age": 60,
                "sex": "female",
                "smoker": "former",
                "pack_years": 30,
                "quit_years": 10,
                "family_colorectal": "true",
            },
        )
    ).json()
    # the stomach-cancer H. pylori stool test (45 to 74, once in a lifetime) is funded since 2026-01-01
    assert body["eligible"] == ["colorectal", "breast", "cervical", "lung", "stomach"]
    stomach = next(r for r in body["results"] if r["programme"]["id"] == "stomach")
    assert stomach["interval_en"] == "once in a lifetime"
    cervical = next(r for r in body["results"] if r["programme"]["id"] == "cervical")
    assert cervical["interval_en"] == "once a year"
    # the rules count age by calendar year; a user must be told, or a 44-year-old turning 45 this year misses out
    assert "this year minus your year of birth" in body["how_en"]
    need = (
        await client.get("/health/api/screening-check", params={"age": 60, "sex": "male", "smoker": "current"})
    ).json()
    lung = next(r for r in need["results"] if r["programme"]["id"] == "lung")
    assert lung["status"] == "need-information" and lung["missing"] == ["pack_years"]


async def test_home_monitoring(client):
    body = (await client.get("/health/api/home-monitoring")).json()
    assert [b["id"] for b in body["bp_bands"]] == ["stage-2", "stage-1", "elevated", "normal"]
    assert body["bp_crisis_above"] == "180/120 mmHg"
    assert body["estimated_hba1c_formula"] == "HbA1c (%) = (mean glucose in mg/dL + 46.7) / 28.7"
    fasting = next(t for t in body["glucose_targets"] if t["when"] == "fasting")
    assert (fasting["low"], fasting["high"]) == (80, 130)


async def test_bp_check(client):
    body = (await client.get("/health/api/bp-check", params={"readings": "135/85,185/95,118/76"})).json()
    assert [x["band"] for x in body["readings"]] == ["stage-1", "stage-2", "normal"]
    assert body["urgent"] is True and "119" in body["what_to_do"][0]
    assert body["average"] == {
        "systolic": 146.0,
        "diastolic": 85.3,
        "band": "stage-2",
        "band_en": "Stage 2 hypertension",
        "band_zh": "第二期高血壓",
        "at_target": False,
        "crisis": False,
        "low": False,
    }


async def test_glucose_check(client):
    body = (await client.get("/health/api/glucose-check", params={"value": 53, "when": "before-meal"})).json()
    assert body["band"] == "hypoglycaemia-level-2" and body["hypoglycaemia"] == 2 and body["urgent"] is True
    body = (await client.get("/health/api/glucose-check", params={"value": 126, "when": "fasting"})).json()
    assert body["band"] == "in-target" and body["diagnostic_range"] == "diabetes-range"


INVALID = [
    ("/health/api/bp-check", {"readings": ",".join(["120/80"] * 7)}, "readings", "at most 6"),
    ("/health/api/bp-check", {"readings": "120-80"}, "readings", "not a systolic/diastolic pair"),
    ("/health/api/bp-check", {"readings": "80/120"}, "readings", "must be higher than diastolic"),
    ("/health/api/bp-check", {"readings": "400/90"}, "readings", "outside"),
    ("/health/api/bp-check", {}, "readings", "required parameter is missing"),
    ("/health/api/bp-check", {"readings": "120/80", "extra": "1"}, "extra", "unknown parameter"),
    (
        "/health/api/glucose-check",
        {"value": 100, "when": "bedtime"},
        "when",
        "'fasting', 'before-meal', 'after-meal' or 'random'",
    ),
    ("/health/api/glucose-check", {"value": 19, "when": "fasting"}, "value", "greater than or equal to 20"),
    ("/health/api/glucose-check", {"value": 601, "when": "fasting"}, "value", "less than or equal to 600"),
    ("/health/api/glucose-check", {"value": "high", "when": "fasting"}, "value", "valid number"),
    ("/health/api/screening-check", {"age": 50, "sex": "other", "smoker": "never"}, "sex", "'female' or 'male'"),
    (
        "/health/api/screening-check",
        {"age": 50, "sex": "male", "smoker": "sometimes"},
        "smoker",
        "'never', 'former' or 'current'",
    ),
    ("/health/api/screening-check", {"age": 121, "sex": "male", "smoker": "never"}, "age", "less than or equal to 120"),
    (
        "/health/api/screening-check",
        {"age": 50, "sex": "male", "smoker": "never", "pack_years": 5},
        "pack_years",
        "smoker=never",
    ),
    (
        "/health/api/screening-check",
        {"age": 50, "sex": "male", "smoker": "current", "quit_years": 2},
        "quit_years",
        "smoker=former",
    ),
    (
        "/health/api/screening-check",
        {"age": 50, "sex": "male", "smoker": "never", "betel": "yes"},
        "betel",
        "'never', 'former' or 'current'",
    ),
    ("/health/api/meal-check", {"meal": ""}, "meal", "at least 1 character"),
    ("/health/api/meal-check", {"meal": "x" * 501}, "meal", "at most 500 characters"),
    ("/health/api/pro/bp-report", {"readings": "x:120/80"}, "readings", "unknown slot letter"),
    ("/health/api/pro/bp-report", {"readings": "m:120/80," * 28 + "e:120/80"}, "readings", "at most 28"),
    ("/health/api/pro/glucose-report", {"readings": "f:700"}, "readings", "outside 20 to 600"),
    ("/health/api/pro/glucose-report", {"readings": "112"}, "readings", "no slot letter"),
]


@pytest.mark.parametrize(("path", "params", "parameter", "fragment"), INVALID)
async def test_invalid_input_gets_422_naming_the_parameter(client, path, params, parameter, fragment):
    r = await client.get(path, params=params)
    assert r.status_code == 422, r.text
    body = r.json()
    assert r.headers["content-type"] == "application/problem+json"
    assert body["errors"][0]["parameter"] == parameter
    assert fragment in body["detail"]


async def test_enum_errors_list_the_allowed_values(client):
    body = (await client.get("/health/api/glucose-check", params={"value": 100, "when": "bedtime"})).json()
    assert body["errors"][0]["allowed"] == ["fasting", "before-meal", "after-meal", "random"]


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/health/api/pro/bp-report", {"readings": "m:135/85,e:128/82"}),
        ("/health/api/pro/glucose-report", {"readings": "f:112"}),
        ("/health/api/pro/export", {}),
    ],
)
async def test_paid_routes_ask_for_payment(client, path, params):
    r = await client.get(path, params=params)
    assert r.status_code == 402 and "payment-required" in r.headers


async def test_unknown_path_is_404(client):
    body = assert_problem(await client.get("/health/api/nothing"), 404)
    assert body["type"].endswith("/not-found") and "/api/nothing" in body["detail"] and "/health/docs" in body["detail"]


async def test_mcp_tools_through_the_official_client(live_url):
    import httpx

    async with Client(f"{live_url}/health/mcp") as mcp:
        tools = {t.name for t in (await mcp.list_tools()).tools if not t.name.startswith("pro_")}
        assert tools == {
            "get_counseling_guide",
            "get_glp1_side_effects",
            "check_meal_cancer_risk",
            "check_cancer_screening_eligibility",
            "check_home_blood_pressure",
            "check_blood_glucose",
        }
        bp = await mcp.call_tool("check_home_blood_pressure", {"readings": "141/91"})
        assert not bp.is_error and bp.structured_content["average"]["band"] == "stage-2"
        glucose = await mcp.call_tool("check_blood_glucose", {"value": 180, "when": "after-meal"})
        assert glucose.structured_content["band"] == "above-target"
        screening = await mcp.call_tool(
            "check_cancer_screening_eligibility", {"age": 35, "sex": "female", "smoker": "never"}
        )
        assert screening.structured_content["eligible"] == ["cervical", "hpv"]
        meal = await mcp.call_tool("check_meal_cancer_risk", {"meal": "鹹魚"})
        assert meal.structured_content["matches"][0]["factor"]["id"] == "chinese-salted-fish"
        guide = await mcp.call_tool("get_counseling_guide", {})
        assert guide.structured_content["free_sessions"] == 3
        glp1 = await mcp.call_tool("get_glp1_side_effects", {})
        assert len(glp1.structured_content["drugs"]) == 3
        bad = await mcp.call_tool("check_home_blood_pressure", {"readings": ",".join(["120/80"] * 7)})
        assert bad.is_error
        text = bad.content[0].text
    async with httpx.AsyncClient() as http:
        problem = (
            await http.get(f"{live_url}/health/api/bp-check", params={"readings": ",".join(["120/80"] * 7)})
        ).json()
    assert text == problem["detail"]
