"""The review workflow on a small service of its own: submit, approve and reject over HTTP and the
CLI; nothing unreviewed is public; tokens hashed, compared per service; limits and duplicates."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from pydantic import BaseModel, Field

from twlookup import cli
from twlookup.app import create_app
from twlookup.platform import review
from twlookup.platform.operations import Params
from twlookup.platform.service import Service
from twlookup.settings import Settings

PUBLIC: dict[str, list[str]] = {"demo": []}  # what the demo service shows the public


class NoteIn(Params):
    text: str = Field(min_length=3, max_length=40)


class NoteList(BaseModel):
    notes: list[str]


def _publish(_session, _row, payload: NoteIn) -> None:
    PUBLIC["demo"].append(payload.text)


review.register_kind("demo", "note", NoteIn, on_approve=_publish)
review.register_kind("demo2", "note", NoteIn)

DEMO = Service(name="demo", title="demo", description="review demo")
OTHER = Service(name="demo2", title="demo2", description="second demo")


@DEMO.operation("POST", "/api/note")
def add_note(p: NoteIn) -> review.Receipt:
    """Submit a note."""
    return review.submit("demo", "note", p)


@DEMO.operation("GET", "/api/notes", varies=True)  # PUBLIC is state outside the reference data
def notes() -> NoteList:
    """Public notes."""
    return NoteList(notes=PUBLIC["demo"])


review.operator_routes(DEMO)
review.operator_routes(OTHER)

ALICE = "alice-token-" + "x" * 20
BOB = "bob-token-" + "y" * 20


@pytest.fixture
async def demo(db_url):
    settings = Settings(
        database_url=db_url,
        rate_limit_default="100000/minute",
        review_operators=[review.operator_entry("alice", "demo", ALICE), review.operator_entry("bob", "demo2", BOB)],
        review_submissions_per_hour=5,
        _env_file=None,
    )
    app = create_app(settings, services=[DEMO, OTHER])
    PUBLIC["demo"].clear()
    with review.store_engine.session() as s, s.begin():  # each test starts with no demo submissions
        s.query(review.Decision).filter(review.Decision.service.in_(["demo", "demo2"])).delete()
        s.query(review.Submission).filter(review.Submission.service.in_(["demo", "demo2"])).delete()
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app, client=("203.0.113.7", 1234)), base_url="http://t"
    ) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_submit_approve_reject_over_http(demo):
    r = await demo.post("/demo/api/note", json={"text": "first note"})
    assert r.status_code == 200
    first = r.json()["submission"]
    assert first["status"] == "submitted" and first["public"] is False and "審核" in r.json()["note"]
    second = (await demo.post("/demo/api/note", json={"text": "second note"})).json()["submission"]
    assert (await demo.get("/demo/api/notes")).json()["notes"] == []  # nothing unreviewed is public

    queue = (await demo.get("/demo/api/review/queue", headers=auth(ALICE))).json()
    assert [s["id"] for s in queue["submissions"]] == [first["id"], second["id"]]
    assert queue["counts"] == {"submitted": 2, "approved": 0, "rejected": 0}

    r = await demo.post(
        "/demo/api/review/decide", json={"ids": [first["id"]], "decision": "approve"}, headers=auth(ALICE)
    )
    assert r.status_code == 200
    decided = r.json()["decided"][0]
    assert (decided["status"], decided["public"], decided["decided_by"], r.json()["operator"]) == (
        "approved",
        True,
        "alice",
        "alice",
    )
    assert (await demo.get("/demo/api/notes")).json()["notes"] == ["first note"]

    r = await demo.post(
        "/demo/api/review/decide", json={"ids": [second["id"]], "decision": "reject"}, headers=auth(ALICE)
    )
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "reason"
    r = await demo.post(
        "/demo/api/review/decide",
        json={"ids": [second["id"]], "decision": "reject", "reason": "off topic"},
        headers=auth(ALICE),
    )
    assert r.json()["decided"][0]["reason"] == "off topic"
    assert (await demo.get("/demo/api/notes")).json()["notes"] == ["first note"]
    rejected = (await demo.get("/demo/api/review/queue?status=rejected", headers=auth(ALICE))).json()["submissions"]
    assert [(s["id"], s["reason"]) for s in rejected] == [(second["id"], "off topic")]

    # a decision is final, and every decision is recorded with who and when
    r = await demo.post(
        "/demo/api/review/decide", json={"ids": [first["id"]], "decision": "reject", "reason": "x"}, headers=auth(ALICE)
    )
    assert r.status_code == 409 and "already approved" in r.json()["detail"]
    # the problem's own status stays the HTTP status; the submission's state has its own member
    assert r.json()["status"] == 409 and r.json()["submission_status"] == "approved"
    log = review.decisions("demo")
    assert [(d.submission_id, d.decision, d.operator, d.reason) for d in log] == [
        (first["id"], "approved", "alice", None),
        (second["id"], "rejected", "alice", "off topic"),
    ]
    assert all(d.at is not None for d in log)
    r = await demo.post("/demo/api/review/decide", json={"ids": [999999], "decision": "approve"}, headers=auth(ALICE))
    assert r.status_code == 404 and "999999" in r.json()["detail"]


async def test_tokens_wrong_missing_and_other_service(demo):
    r = await demo.get("/demo/api/review/queue")
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")
    assert (await demo.get("/demo/api/review/queue", headers=auth("nope"))).status_code == 401
    assert (await demo.get("/demo/api/review/queue", headers={"Authorization": ALICE})).status_code == 401  # no scheme
    r = await demo.get("/demo/api/review/queue", headers=auth(BOB))
    assert r.status_code == 403 and "demo2" in r.json()["detail"]
    r = await demo.post("/demo2/api/review/decide", json={"ids": [1], "decision": "approve"}, headers=auth(ALICE))
    assert r.status_code == 403
    assert (await demo.get("/demo2/api/review/queue", headers=auth(BOB))).status_code == 200


def test_settings_hold_only_hashes_and_refuse_bad_entries():
    entry = review.operator_entry("alice", "demo", ALICE)
    assert ALICE not in entry and entry.endswith(review.hash_token(ALICE))
    with pytest.raises(ValueError, match="review_operators"):
        Settings(review_operators=["alice:demo:" + ALICE], _env_file=None)
    assert review.authenticate(ALICE, "demo", [entry]) == "alice"


async def test_validation_duplicates_and_rate_limit(demo):
    r = await demo.post("/demo/api/note", json={"text": "x"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "text"
    r = await demo.post("/demo/api/note", json={"text": "same", "extra": 1})
    assert r.status_code == 422
    first = (await demo.post("/demo/api/note", json={"text": "same"})).json()["submission"]
    r = await demo.post("/demo/api/note", json={"text": "same"})
    assert r.status_code == 409 and r.json()["id"] == first["id"]
    assert r.json()["status"] == 409 and r.json()["submission_status"] == "submitted"
    for i in range(3):
        assert (await demo.post("/demo/api/note", json={"text": f"note {i}"})).status_code == 200
    r = await demo.post("/demo/api/note", json={"text": "one too many"})  # 4 accepted + 1 duplicate refused ... 5th
    assert r.status_code == 200
    r = await demo.post("/demo/api/note", json={"text": "over the limit"})
    assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 3600
    assert "5 submissions per client per hour" in r.json()["detail"]


def test_rate_limit_window_and_client_hash(db_url):
    with review.store_engine.session() as s, s.begin():
        s.query(review.Decision).filter(review.Decision.service == "demo").delete()
        s.query(review.Submission).filter(review.Submission.service == "demo").delete()
    t0 = datetime(2026, 11, 23, 1, 0, tzinfo=UTC)
    for i in range(2):
        review.submit(
            "demo", "note", NoteIn(text=f"win{i}"), client="198.51.100.1", per_hour=2, now=t0 + timedelta(minutes=i)
        )
    with pytest.raises(review.Problem) as exc:
        review.submit(
            "demo", "note", NoteIn(text="win2"), client="198.51.100.1", per_hour=2, now=t0 + timedelta(minutes=30)
        )
    assert exc.value.status == 429 and exc.value.headers["Retry-After"] == str(30 * 60)
    # another client is not held back; the first one is free again an hour after its first submission
    review.submit(
        "demo", "note", NoteIn(text="win3"), client="198.51.100.2", per_hour=2, now=t0 + timedelta(minutes=30)
    )
    review.submit(
        "demo", "note", NoteIn(text="win4"), client="198.51.100.1", per_hour=2, now=t0 + timedelta(minutes=61)
    )
    rows = review.queue("demo")
    assert all("198.51.100" not in r.model_dump_json() for r in rows)


def test_cli_lists_approves_rejects_and_makes_tokens(db_url, monkeypatch, capsys):
    monkeypatch.setattr(cli, "_settings", lambda: Settings(database_url=db_url, _env_file=None))
    with review.store_engine.session() as s, s.begin():
        s.query(review.Decision).filter(review.Decision.service == "demo").delete()
        s.query(review.Submission).filter(review.Submission.service == "demo").delete()
    PUBLIC["demo"].clear()
    a = review.submit("demo", "note", NoteIn(text="cli one"), client="192.0.2.1", per_hour=9).submission
    b = review.submit("demo", "note", NoteIn(text="cli two"), client="192.0.2.1", per_hour=9).submission
    assert cli.main(["review", "list", "demo"]) == 0
    assert f"#{a.id} note submitted" in capsys.readouterr().out
    assert cli.main(["review", "approve", "demo", str(a.id), "--operator", "carol"]) == 0
    assert "approved by cli:carol" in capsys.readouterr().out
    assert PUBLIC["demo"] == ["cli one"]
    assert cli.main(["review", "reject", "demo", str(b.id), "--operator", "carol", "--reason", "spam"]) == 0
    assert cli.main(["review", "approve", "demo", str(b.id), "--operator", "carol"]) == 1  # final
    assert "already rejected" in capsys.readouterr().err
    assert PUBLIC["demo"] == ["cli one"]
    assert cli.main(["review", "list", "demo", "--status", "rejected"]) == 0
    assert "(spam)" in capsys.readouterr().out
    assert cli.main(["review", "token", "demo", "dave"]) == 0
    lines = capsys.readouterr().out.splitlines()
    token, entry = lines[0].rsplit(" ", 1)[1], lines[-1]
    assert review.authenticate(token, "demo", [entry]) == "dave" and token not in entry
    with pytest.raises(SystemExit):
        cli.main(["review", "reject", "demo", "1", "--operator", "carol"])  # a rejection needs --reason


def test_openapi_marks_operator_routes(demo):
    from twlookup.platform.openapi import build_openapi

    doc = build_openapi(DEMO, "/")
    decide = doc["paths"]["/api/review/decide"]["post"]
    assert {"401", "403"} <= set(decide["responses"]) and decide["security"] == [{"operatorToken": []}]
    assert "security" not in doc["paths"]["/api/notes"]["get"]
