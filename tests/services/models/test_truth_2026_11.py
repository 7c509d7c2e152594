"""Published cases from the review of 2026-11-25 (issue 27, models): each checked 2026-11-26 against
the provider's own page (Mistral's model cards, OpenAI's deprecations page, Anthropic's model status
table via endoflife.date), and answered from dates at request time (issue 21 item 3)."""

from datetime import date

import pytest


async def _model(client, ident):
    r = await client.get("/models/api/model", params={"id": ident})
    assert r.status_code == 200, (ident, r.text)
    return r.json()


async def test_mistral_models_answer_from_mistrals_model_cards(client, pin_today):
    pin_today(date(2026, 11, 26))
    # Mistral Large 2.1: deprecated 2026-02-27, retired 2026-05-31, replaced by Mistral Medium 3.5
    body = await _model(client, "mistral-large-2411")
    m = body["model"]
    assert (m["provider"], m["status"], m["retirement_date"], m["replacement"]) == (
        "mistral",
        "retired",
        "2026-05-31",
        "mistral-medium-3-5",
    )
    assert m["source"]["url"] == "https://docs.mistral.ai/models/model-cards/mistral-large-2-1-24-11"
    assert m["source"]["checked"] == "2026-11-26"
    # an alias: open-mistral-nemo is Mistral Nemo 12B (2407), shut down 2026-07-31
    body = await _model(client, "open-mistral-nemo")
    assert body["model"]["id"] == "open-mistral-nemo-2407" and body["model"]["status"] == "retired"
    # the current small model by its -latest alias
    body = await _model(client, "mistral-small-latest")
    assert body["model"]["id"] == "mistral-small-2603" and body["model"]["status"] == "active"
    r = await client.get("/models/api/models", params={"provider": "mistral"})
    assert r.status_code == 200 and r.json()["count"] >= 50


async def test_mistral_state_follows_the_clock(client, pin_today):
    # before its retirement date the same record is scheduled, with a countdown
    pin_today(date(2026, 7, 1))
    m = (await _model(client, "open-mistral-nemo-2407"))["model"]
    assert m["status"] == "scheduled" and m["days_until_retirement"] == 30


async def test_claude_sonnet_5_is_known_and_active_with_its_earliest_retirement(client, pin_today):
    pin_today(date(2026, 11, 26))
    body = await _model(client, "claude-sonnet-5")
    m = body["model"]
    assert m["provider"] == "anthropic" and m["status"] == "active" and m["retirement_date"] is None
    assert "not before 2027-06-30" in m["note"]


async def test_openai_shutdowns_of_january_to_april_2027(client, pin_today):
    pin_today(date(2026, 11, 26))
    ids = set()
    for month in ("2027-01", "2027-02", "2027-03", "2027-04"):
        body = (await client.get("/models/api/calendar", params={"month": month})).json()
        ids |= {m["id"] for d in body["days"] for m in d["models"] if m["provider"] == "openai"}
    # OpenAI's 2026-07-20 notice (shutdown 2027-01-20) and 2026-08-26 notice (2027-02-26)
    assert {
        "gpt-realtime",
        "gpt-realtime-mini",
        "gpt-audio",
        "gpt-audio-mini",
        "gpt-4o-mini-transcribe-2025-03-20",
        "gpt-4o-transcribe",
        "gpt-4o-mini-transcribe",
        "gpt-4o-transcribe-diarize",
        "whisper-1",
    } <= ids
    assert len(ids) >= 10
    m = (await _model(client, "gpt-realtime"))["model"]
    assert (m["retirement_date"], m["replacement"], m["status"]) == ("2027-01-20", "gpt-realtime-2.1", "scheduled")
    # a year later the same records answer retired, without a data edit
    pin_today(date(2027, 11, 26))
    assert (await _model(client, "gpt-realtime"))["model"]["status"] == "retired"


@pytest.mark.parametrize(
    ("today", "expected"),
    [(date(2026, 7, 19), "active"), (date(2026, 7, 20), "scheduled"), (date(2027, 1, 20), "retired")],
)
async def test_a_deprecation_announced_later_than_today_is_not_yet_in_force(client, pin_today, today, expected):
    # gpt-realtime's deprecation was announced 2026-07-20: on a clock before that it was active
    pin_today(today)
    assert (await _model(client, "gpt-realtime"))["model"]["status"] == expected


async def test_the_models_retired_2026_10_23_name_openais_current_replacements(client, pin_today):
    # OpenAI's 2026-04-22 notice (shutdown 2026-10-23) as its deprecations page names the substitutes
    # in the copy read on 2026-11-26 (newest entry 2026-09-11); the May copy had named GPT-5.4/5.5
    pin_today(date(2026, 11, 26))
    body = (await client.get("/models/api/calendar", params={"month": "2026-10"})).json()
    retired = {m["id"]: m for d in body["days"] if d["date"] == "2026-10-23" for m in d["models"]}
    assert len(retired) == 11
    expected = {
        "gpt-3.5-turbo-0125": "gpt-5.6-terra",
        "gpt-4-0613": "gpt-5.6-sol",
        "gpt-4.1-nano-2025-04-14": "gpt-5.6-luna",
        "o4-mini-2025-04-16": "gpt-5.6-terra",
        "o1-pro-2025-03-19": "gpt-5.6-sol",
        "gpt-image-1": "gpt-image-2.5-sunburst",
    }
    for ident, replacement in expected.items():
        assert retired[ident]["replacement"] == replacement, ident
        assert retired[ident]["status"] == "retired"
    assert all(m["replacement"].startswith(("gpt-5.6-", "gpt-image-2.5")) for m in retired.values())
