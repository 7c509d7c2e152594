"""No model's note may contradict its status or dates: the rules of `logic.note_conflicts` on hand-made
records (both sides of each), on the records the review found wrong (as they were), on every shipped
record, and through the answers (`/api/model`, `/api/upcoming`) on a pinned day."""

from datetime import date
from pathlib import Path

import pytest
import yaml

from twlookup.cli import DEFAULT_DATA
from twlookup.domain.model_lifecycle import Model, status
from twlookup.platform.records import DataFileError, load_records
from twlookup.services.models.data import seed_models
from twlookup.services.models.logic import note_conflicts

CHECKED = date(2026, 11, 23)
SHIPPED = load_records(DEFAULT_DATA / "models" / "models.yaml", Model, "models")


def model(note: str | None, *, deprecated=None, retire=None) -> Model:
    return Model(
        id="m-1",
        provider="google",
        name="M 1",
        kind="chat",
        deprecated_on=deprecated,
        retirement_date=retire,
        note=note,
        source="https://example.org/notice",
        checked=CHECKED,
    )


# Four records exactly as data/models/models.yaml had them when the review found them wrong.
OLD_RECORDS = [
    {
        "id": "gemini-1.5-pro-002",
        "note": "Already shut down, but no official shutdown date was found in this research.",
        "deprecated_on": None,
        "retirement_date": None,
    },
    {
        "id": "embedding-001",
        "note": "Reportedly switched off in late October 2025; the date was not confirmed on an official page here.",
        "deprecated_on": None,
        "retirement_date": None,
    },
    {
        "id": "gemini-2.5-pro",
        "note": "Deprecated; Google's table gave only an earliest-possible shutdown, and the final date was not "
        "confirmed from an official page here.",
        "deprecated_on": None,
        "retirement_date": None,
    },
    {
        "id": "gemini-1.0-pro-001",
        "note": "Google pushed the end date back from 2025-02-15.",
        "deprecated_on": None,
        "retirement_date": date(2025, 4, 9),
    },
]


def old_record(values: dict) -> Model:
    return Model(
        provider="google",
        name=values["id"],
        kind="chat",
        source="https://ai.google.dev/gemini-api/docs/deprecations",
        checked=date(2026, 11, 22),
        **values,
    )


def test_every_shipped_note_agrees_with_its_record():
    problems = {m.id: note_conflicts(m) for m in SHIPPED}
    assert {k: v for k, v in problems.items() if v} == {}


@pytest.mark.parametrize("values", OLD_RECORDS, ids=lambda v: v["id"])
def test_the_records_the_review_found_are_reported(values):
    assert note_conflicts(old_record(values))


def test_seeding_refuses_a_file_with_a_contradicting_note(tmp_path: Path):
    records = [{**v, "provider": "google", "name": v["id"], "kind": "chat"} for v in OLD_RECORDS[:1]]
    doc = {"checked": "2026-11-22", "source": "https://ai.google.dev/gemini-api/docs/deprecations", "models": records}
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "models.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"gemini-1\.5-pro-002: note says it is shut down"):
        seed_models(None, tmp_path)  # refused before the store is touched


@pytest.mark.parametrize(
    ("note", "deprecated", "retire", "conflict"),
    [
        # a shutdown stated as done needs a shutdown date on or before the checked day
        ("Already shut down.", None, None, "shut down"),
        ("Already shut down.", None, date(2026, 12, 1), "shut down"),
        ("Already shut down.", None, date(2026, 11, 23), None),
        ("Switched off by Google.", None, date(2025, 10, 30), None),
        # a shutdown still to come, or denied, is no claim that it is gone
        ("It will be shut down soon.", date(2026, 6, 1), date(2026, 12, 1), None),
        ("The page promises it will not be retired before 2026-11-24.", None, None, None),
        # deprecated needs a deprecation or a shutdown date
        ("Deprecated by Google.", None, None, "deprecated"),
        ("Deprecated by Google.", None, date(2026, 12, 1), None),
        ("Deprecated by Google; no shutdown date was given.", date(2026, 10, 8), None, None),
        ("Not deprecated.", None, None, None),
        # "no shutdown date announced" needs the date empty
        ("No shutdown date announced.", None, date(2027, 1, 6), "no shutdown date"),
        ("No retirement announced as of this research.", None, None, None),
        # a deprecated record without a date says the date is unknown
        ("Routed to a newer model.", date(2026, 10, 8), None, "does not say the date is unknown"),
        # dates in the note are the record's own, unless marked as another kind of date
        ("Requests fail from 2026-12-01.", None, date(2026, 12, 1), None),
        ("Requests fail from December 1, 2026.", None, date(2026, 12, 1), None),
        ("Requests fail from 1 December 2026.", None, date(2026, 12, 2), "neither its shutdown"),
        ("Requests fail from 2026-12-02.", None, date(2026, 12, 1), "neither its shutdown"),
        ("Announced on 2026-06-11.", date(2026, 6, 11), date(2026, 12, 11), None),
        ("An earlier copy gave 2026-01-16.", None, date(2026, 2, 12), None),
        ("Listed with 2027-05-07 as the earliest possible shutdown.", None, None, None),
    ],
)
def test_note_rules(note, deprecated, retire, conflict):
    problems = note_conflicts(model(note, deprecated=deprecated, retire=retire))
    if conflict is None:
        assert problems == []
    else:
        assert len(problems) == 1 and conflict in problems[0]


def test_every_deprecated_record_has_a_date_or_says_it_is_unknown():
    for m in SHIPPED:
        if status(m, CHECKED) == "deprecated":
            assert "no shutdown date" in (m.note or "").lower(), m.id


def test_review_findings_answer_as_their_notes_say():
    by_id = {m.id: m for m in SHIPPED}
    for ident in ("gemini-1.5-pro-002", "gemini-1.5-flash-002", "embedding-001"):
        assert status(by_id[ident], CHECKED) == "retired", ident
    assert by_id["gemini-1.5-pro-002"].retirement_date == date(2025, 9, 24)
    assert by_id["embedding-001"].retirement_date == date(2025, 10, 30)
    assert by_id["gemini-2.5-pro"].retirement_date == by_id["gemini-2.5-flash"].retirement_date == date(2026, 12, 1)
    assert (by_id["gemini-2.5-pro"].replacement, by_id["gemini-2.5-flash"].replacement) == (
        "gemini-3.8-flash",
        "gemini-3.5-flash-lite",
    )
    assert by_id["whisper-1"].retirement_date == date(2027, 2, 26)
    assert by_id["tts-1"].retirement_date == by_id["tts-1-hd"].retirement_date == date(2027, 1, 6)
    for ident in ("gpt-5-nano-2025-08-07", "gpt-5-pro-2025-10-06", "o3-2025-04-16", "o3-pro-2025-06-10"):
        assert by_id[ident].retirement_date == date(2026, 12, 11)
        assert by_id[ident].replacement.startswith("gpt-5.6-"), ident
    for m in SHIPPED:  # every record changed in this fix says when it was checked
        if m.id in ("gemini-2.5-pro", "whisper-1", "tts-1", "o3-2025-04-16", "embedding-001"):
            assert m.checked >= CHECKED  # whisper-1 was checked again on 2026-11-26


@pytest.mark.asyncio
async def test_upcoming_lists_every_model_with_a_future_shutdown(client, pin_today):
    today = pin_today(CHECKED)
    r = await client.get("/models/api/upcoming", params={"days": 3650})
    assert r.status_code == 200
    listed = [m["id"] for m in r.json()["models"]]
    expected = {m.id for m in SHIPPED if m.retirement_date and today < m.retirement_date <= date(2036, 11, 20)}
    assert set(listed) == expected and len(listed) == len(expected)
    r = await client.get("/models/api/upcoming", params={"days": 8})  # up to 2026-12-01
    soon = {m["id"]: m for m in r.json()["models"]}
    assert {"gemini-2.5-pro", "gemini-2.5-flash"} <= set(soon)
    assert soon["gemini-2.5-pro"]["status"] == "scheduled"
    assert soon["gemini-2.5-pro"]["days_until_retirement"] == 8


@pytest.mark.asyncio
async def test_shut_down_models_answer_retired(client, pin_today):
    pin_today(CHECKED)
    for ident, day in (
        ("gemini-1.5-pro", "2025-09-24"),
        ("gemini-1.5-flash", "2025-09-24"),
        ("embedding-001", "2025-10-30"),
    ):
        r = await client.get("/models/api/model", params={"id": ident})
        m = r.json()["model"]
        assert (m["status"], m["retirement_date"]) == ("retired", day), ident
        assert "no retirement" not in r.json()["action"]
