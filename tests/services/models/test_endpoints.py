"""The models service through HTTP: every endpoint, the limits and every error path."""

from datetime import date, timedelta

import pytest

from twlookup.platform.schemas import today_taipei

pytestmark = pytest.mark.asyncio


async def test_list_filters_and_counts(client):
    r = await client.get("/models/api/models")
    assert r.status_code == 200
    body = r.json()
    assert body["count"] == len(body["models"]) >= 60
    assert sum(body["counts_by_status"].values()) == body["count"]
    r = await client.get("/models/api/models", params={"provider": "anthropic", "status": "retired", "kind": "chat"})
    models = r.json()["models"]
    assert models and all(
        m["provider"] == "anthropic" and m["status"] == "retired" and m["kind"] == "chat" for m in models
    )
    assert all(date.fromisoformat(m["retirement_date"]) <= today_taipei() for m in models)


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"status": "dead"}, "status"),
        ({"kind": "robot"}, "kind"),
        ({"provider": "nobody"}, "provider"),
        ({"colour": "red"}, "colour"),
    ],
)
async def test_list_rejects_bad_filters(client, params, parameter):
    r = await client.get("/models/api/models", params=params)
    assert r.status_code == 422
    assert r.headers["content-type"] == "application/problem+json"
    problem = r.json()
    assert problem["errors"][0]["parameter"] == parameter
    if parameter == "status":
        assert problem["errors"][0]["allowed"] == ["scheduled", "active", "retired", "deprecated"]
    if parameter == "provider":
        assert "openai" in problem["errors"][0]["allowed"]


async def test_model_by_id_alias_and_snapshot(client):
    r = await client.get("/models/api/model", params={"id": "claude-3-opus-20240229"})
    assert r.status_code == 200
    m = r.json()["model"]
    assert m["provider"] == "anthropic" and m["source"]["url"].startswith("https://")
    r = await client.get("/models/api/model", params={"id": "us.anthropic.claude-3-opus-20240229-v1:0"})
    assert r.json()["model"]["id"] == "claude-3-opus-20240229"
    assert r.json()["matched_as"] == "snapshot"


async def test_model_unknown_and_missing(client):
    r = await client.get("/models/api/model", params={"id": "gpt-4-turbo-previeww"})
    assert r.status_code == 404
    assert r.json()["id"] == "gpt-4-turbo-previeww"
    assert "gpt-4-turbo-preview" in r.json()["detail"]  # a suggestion
    r = await client.get("/models/api/model")
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "id"


async def test_upcoming_window(client):
    r = await client.get("/models/api/upcoming", params={"days": 3650})
    body = r.json()
    today = today_taipei()
    dates = [date.fromisoformat(m["retirement_date"]) for m in body["models"]]
    assert dates == sorted(dates)
    assert all(today < d <= today + timedelta(days=3650) for d in dates)
    assert all(m["status"] == "scheduled" for m in body["models"])
    for bad in ("0", "3651", "ten"):
        r = await client.get("/models/api/upcoming", params={"days": bad})
        assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "days"


async def test_calendar_month(client):
    r = await client.get("/models/api/calendar", params={"month": "2026-10"})
    body = r.json()
    assert body["count"] >= 1
    assert all(d["date"].startswith("2026-10") for d in body["days"])
    assert any(m["id"] == "gpt-4-0613" for d in body["days"] for m in d["models"])
    for bad in ("2026-13", "2026-1", "october"):
        r = await client.get("/models/api/calendar", params={"month": bad})
        assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "month"


async def test_replacement_chain(client):
    r = await client.get("/models/api/replacement", params={"q": "claude-3-opus-20240229"})
    body = r.json()
    assert r.status_code == 200
    assert body["model"]["status"] == "retired"
    assert body["replacement"]["id"] == body["model"]["replacement"] == "claude-opus-4-5-20251101"
    assert body["recommended"]["id"] == body["chain"][-1]["id"]
    r = await client.get("/models/api/replacement", params={"q": "no-such-model-1"})
    assert r.status_code == 404


async def test_check_finds_models_in_code(client):
    code = 'openai.chat.completions.create(model="gpt-4-0613")\nclaude = "claude-2.1"\n'
    r = await client.post("/models/api/check", json={"text": code})
    assert r.status_code == 200
    body = r.json()
    assert [f["model"]["id"] for f in body["findings"]] == ["gpt-4-0613", "claude-2.1"]
    assert all(f["model"]["status"] == "retired" for f in body["findings"])
    assert body["truncated"] is False


async def test_check_reports_at_most_ten(client):
    models = (await client.get("/models/api/models")).json()["models"][:14]
    text = "\n".join(f'm = "{m["id"]}"' for m in models)
    body = (await client.post("/models/api/check", json={"text": text})).json()
    assert body["found"] == 14 and body["reported"] == 10 and body["truncated"] is True
    assert "/api/pro/audit" in body["hint"]


@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        ({"content": b"{not json", "headers": {"content-type": "application/json"}}, 400),
        ({"json": {}}, 422),
        ({"json": {"text": ""}}, 422),
        ({"json": {"text": "x", "extra": 1}}, 422),
        ({"json": ["gpt-4"]}, 422),
        ({"content": b"text=gpt-4", "headers": {"content-type": "application/x-www-form-urlencoded"}}, 415),
        ({"json": {"text": "x" * 1_100_000}}, 413),
    ],
)
async def test_check_rejects_bad_bodies(client, kwargs, status):
    r = await client.post("/models/api/check", **kwargs)
    assert r.status_code == status
    assert r.headers["content-type"] == "application/problem+json"


async def test_pro_routes_ask_for_payment_after_validating(client):
    r = await client.get("/models/api/pro/export")
    assert r.status_code == 402 and "payment-required" in r.headers
    r = await client.post("/models/api/pro/audit", json={"ids": ["gpt-4"]})
    assert r.status_code == 402
    r = await client.post("/models/api/pro/audit", json={})
    assert r.status_code == 422  # bad input is told before any payment is asked for
    r = await client.post("/models/api/pro/audit", json={"ids": ["gpt-4"] * 201})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "ids"


async def test_unknown_route_and_wrong_method(client):
    r = await client.get("/models/api/nothing")
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
    r = await client.post("/models/api/models")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    r = await client.get("/models/api/check")
    assert r.status_code == 405 and r.headers["allow"] == "POST"


async def test_a_retired_model_counts_days_since_not_a_negative_countdown(client):
    # gpt-4-0613's shutdown (2026-10-23) is behind the shipped store's day: issue 21, no negative countdown
    body = (await client.get("/models/api/model", params={"id": "gpt-4-0613"})).json()["model"]
    assert body["status"] == "retired" and body["retirement_date"] < today_taipei().isoformat()
    assert body["days_until_retirement"] is None
    assert body["days_since_retirement"] == (today_taipei() - date.fromisoformat(body["retirement_date"])).days > 0
