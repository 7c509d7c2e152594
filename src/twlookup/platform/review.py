"""Review of public submissions: nothing the public sends is public until an operator approves it.

A service registers each kind of submission it takes (`register_kind`): the pydantic model of its
payload, how to tell two submissions are the same (`key`), and what approval does (`on_approve`,
which writes the approved item into the service's own tables in the same transaction). The
service's public lists, searches, rankings and exports read only its own tables, so nothing
unreviewed can reach them.

    submitted --approve--> approved   (on_approve runs; the item becomes public)
    submitted --reject---> rejected   (the reason is kept; nothing becomes public)

Every decision is a row of `review_decision` (who, when, what, why). A decision is final: a
decided submission cannot be decided again (409).

Submissions are validated by their payload model, limited per client per service per hour
(`review_submissions_per_hour`, counted in the store so every process shares the count; the count
and the insert run under a lock on the client, so concurrent submissions in several processes
cannot both pass the last free place), and
deduplicated (the same key twice is 409 naming the first submission). The client is kept only
as a salted hash of its address.

Operators authenticate with a bearer token. Settings hold `name:service:sha256(token)` entries
(`review_operators`), never the token; a presented token is hashed and compared with each entry
in constant time. A wrong or missing token is 401; a token of another service's operator is 403.
Operators act over HTTP (`operator_routes(SERVICE)` declares GET /api/review/queue and POST
/api/review/decide) or with `twlookup review ...` on the server.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import orjson
from pydantic import BaseModel, Field
from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, UniqueConstraint, func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from twlookup.platform.errors import InvalidParameter, NotFound, Problem
from twlookup.platform.operations import Params
from twlookup.platform.records import from_attributes
from twlookup.platform.request import bearer, current
from twlookup.platform.schemas import LazyModel
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.base import Base
from twlookup.platform.store.times import StoredTime, as_utc

Status = Literal["submitted", "approved", "rejected"]
STATUSES: tuple[str, ...] = ("submitted", "approved", "rejected")
PUBLIC_NOTE = "已收到，待管理員審核通過後才會公開。 Received: public only after an operator approves it."
CLIENT_SALT = b"twlookup review client v1"
LOCK_SPACE = 0x7277_7376  # "rwsv": this module's first key among the database's advisory locks


# ---------------------------------------------------------------- tables


class Submission(Base):
    __tablename__ = "review_submission"
    __table_args__ = (
        UniqueConstraint("service", "fingerprint"),
        Index("ix_review_submission_queue", "service", "status", "id"),
        Index("ix_review_submission_client", "service", "client", "submitted_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    service: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(32))
    subject: Mapped[str | None] = mapped_column(String(200), default=None)  # what it is about (a slug, a share id)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    fingerprint: Mapped[str] = mapped_column(String(64))
    client: Mapped[str] = mapped_column(String(64))  # salted hash of the client address
    status: Mapped[Status] = mapped_column(String(16), default="submitted")
    reason: Mapped[str | None] = mapped_column(String(500), default=None)
    submitted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    decided_by: Mapped[str | None] = mapped_column(String(100), default=None)


class Decision(Base):
    __tablename__ = "review_decision"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("review_submission.id"), index=True)
    service: Mapped[str] = mapped_column(String(32))
    decision: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(String(500), default=None)
    operator: Mapped[str] = mapped_column(String(100))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# ---------------------------------------------------------------- kinds

OnApprove = Callable[[Session, "Submission", Any], None]


@dataclass(frozen=True)
class Kind:
    service: str
    name: str
    payload: type[BaseModel]
    key: Callable[[Any, str, datetime], str]  # (payload, client hash, now) -> what makes two the same
    subject: Callable[[Any], str | None]
    on_approve: OnApprove | None


KINDS: dict[tuple[str, str], Kind] = {}


def _default_key(payload: BaseModel, _client: str, _now: datetime) -> str:
    return orjson.dumps(payload.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS).decode()


def register_kind(
    service: str,
    name: str,
    payload: type[BaseModel],
    *,
    key: Callable[[Any, str, datetime], str] | None = None,
    subject: Callable[[Any], str | None] | None = None,
    on_approve: OnApprove | None = None,
) -> Kind:
    """Declare a kind of public submission of `service`. `key(payload, client, now)` says what makes
    two submissions the same (default: the whole payload); `on_approve(session, submission, payload)`
    publishes an approved one into the service's tables."""
    kind = Kind(service, name, payload, key or _default_key, subject or (lambda _p: None), on_approve)
    KINDS[(service, name)] = kind
    return kind


def kinds_of(service: str) -> list[str]:
    return sorted(name for (svc, name) in KINDS if svc == service)


# ---------------------------------------------------------------- results


class SubmissionOut(LazyModel):
    """A submission as its submitter and operators see it."""

    id: int
    service: str
    kind: str
    subject: str | None = None
    status: Status
    public: bool = Field(description="True only once an operator has approved it")
    reason: str | None = Field(None, description="Why it was rejected")
    submitted_at: StoredTime
    decided_at: StoredTime | None = None
    decided_by: str | None = None
    payload: dict[str, Any]


class Receipt(LazyModel):
    """What a submitter gets back: the submission, not yet public, and what happens next."""

    submission: SubmissionOut
    note: str = PUBLIC_NOTE


def out(row: Submission) -> SubmissionOut:
    return from_attributes(SubmissionOut, row, public=row.status == "approved")


def _now() -> datetime:
    return datetime.now(UTC)


# ---------------------------------------------------------------- submitting


def client_hash(client: str) -> str:
    return hashlib.sha256(CLIENT_SALT + client.encode()).hexdigest()[:32]


def submit(
    service: str,
    kind: str,
    payload: BaseModel,
    *,
    client: str | None = None,
    per_hour: int | None = None,
    now: datetime | None = None,
) -> Receipt:
    """Record a public submission as `submitted`. Client and limit default to the current request's.
    429 past the client's hourly limit, 409 when the same submission exists."""
    spec = KINDS.get((service, kind))
    if spec is None:
        raise ValueError(f"{service} has no submission kind {kind!r}; register_kind() it first")
    if not isinstance(payload, spec.payload):
        payload = spec.payload.model_validate(payload)
    if client is None or per_hour is None:
        info = current()
        client = info.client if client is None else client
        per_hour = info.settings.review_submissions_per_hour if per_hour is None else per_hour
    now = now or _now()
    who = client_hash(client)
    fingerprint = hashlib.sha256(f"{service}\0{kind}\0{spec.key(payload, who, now)}".encode()).hexdigest()
    with store_engine.session() as session, session.begin():
        _lock_client(session, service, who)  # held to the end of this transaction
        since = now - timedelta(hours=1)
        recent = session.scalars(
            select(Submission.submitted_at)
            .where(Submission.service == service, Submission.client == who, Submission.submitted_at > since)
            .order_by(Submission.submitted_at)
        ).all()
        if len(recent) >= per_hour:
            wait = max(1, math.ceil((as_utc(recent[0]) + timedelta(hours=1) - now).total_seconds()))
            raise Problem(
                429,
                f"At most {per_hour} submissions per client per hour to {service}; retry in {wait} s.",
                kind="too-many-submissions",
                headers={"Retry-After": str(wait)},
            )
        existing = session.scalar(
            select(Submission).where(Submission.service == service, Submission.fingerprint == fingerprint)
        )
        if existing is not None:
            raise _duplicate(existing)
        row = Submission(
            service=service,
            kind=kind,
            subject=spec.subject(payload),
            payload=payload.model_dump(mode="json"),
            fingerprint=fingerprint,
            client=who,
            status="submitted",
            submitted_at=now,
        )
        session.add(row)
        try:
            session.flush()
        except IntegrityError:  # the same submission raced in from another process
            session.rollback()
            with store_engine.session() as again:
                first = again.scalar(
                    select(Submission).where(Submission.service == service, Submission.fingerprint == fingerprint)
                )
            raise _duplicate(first) from None
        return Receipt(submission=out(row))


def _lock_client(session: Session, service: str, who: str) -> None:
    """Serialize one client's submissions to one service across processes, until the transaction
    ends. PostgreSQL: a transaction-level advisory lock on the pair. SQLite: a write that changes
    nothing takes the database's write lock first, so the count that follows is current."""
    if session.get_bind().dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(f"{service}\0{who}".encode()).digest()[:4], "big", signed=True)
        session.execute(text("select pg_advisory_xact_lock(:space, :key)"), {"space": LOCK_SPACE, "key": key})
    else:
        session.execute(text("update review_submission set id = id where 0 = 1"))


def _duplicate(existing: Submission | None) -> Problem:
    ident = existing.id if existing else "?"
    state = existing.status if existing else "submitted"
    return Problem(
        409,
        f"The same submission was already received (id {ident}, {state}); it is not recorded twice.",
        kind="duplicate-submission",
        extra={"id": ident, "submission_status": state},
    )


# ---------------------------------------------------------------- reviewing


def queue(
    service: str, status: str | None = "submitted", kind: str | None = None, limit: int = 50
) -> list[SubmissionOut]:
    with store_engine.session() as session:
        query = select(Submission).where(Submission.service == service)
        if status:
            query = query.where(Submission.status == status)
        if kind:
            query = query.where(Submission.kind == kind)
        return [out(r) for r in session.scalars(query.order_by(Submission.id).limit(limit))]


def get(service: str, ident: int) -> SubmissionOut:
    with store_engine.session() as session:
        row = session.get(Submission, ident)
        if row is None or row.service != service:
            raise NotFound("submission", str(ident))
        return out(row)


def decide(
    service: str,
    ids: list[int],
    decision: Literal["approve", "reject"],
    operator: str,
    reason: str | None = None,
    now: datetime | None = None,
) -> list[SubmissionOut]:
    """Approve or reject submitted items of `service` in one transaction (all or none). A rejection
    needs a reason. Approval runs each kind's `on_approve`. 404 for an unknown id, 409 for one
    already decided."""
    if decision == "reject" and not (reason and reason.strip()):
        raise InvalidParameter("reason", "a rejection needs a reason (it is kept and shown to the submitter)")
    now = now or _now()
    status: Status = "approved" if decision == "approve" else "rejected"
    with store_engine.session() as session, session.begin():
        rows = []
        for ident in dict.fromkeys(ids):
            row = session.get(Submission, ident, with_for_update=True)
            if row is None or row.service != service:
                raise NotFound("submission", str(ident), f"Only submissions of {service} can be decided here.")
            if row.status != "submitted":
                raise Problem(
                    409,
                    f"Submission {ident} was already {row.status} by {row.decided_by}; a decision is final.",
                    kind="already-decided",
                    extra={"id": ident, "submission_status": row.status},
                )
            rows.append(row)
        for row in rows:
            row.status, row.reason, row.decided_at, row.decided_by = status, reason, now, operator
            session.add(
                Decision(
                    submission_id=row.id, service=service, decision=status, reason=reason, operator=operator, at=now
                )
            )
            spec = KINDS.get((service, row.kind))
            if status == "approved" and spec is not None and spec.on_approve is not None:
                spec.on_approve(session, row, spec.payload.model_validate(row.payload))
        session.flush()
        return [out(r) for r in rows]


def decisions(service: str, submission_id: int | None = None) -> list[Decision]:
    with store_engine.session() as session:
        query = select(Decision).where(Decision.service == service)
        if submission_id is not None:
            query = query.where(Decision.submission_id == submission_id)
        return list(session.scalars(query.order_by(Decision.id)))


def counts(service: str) -> dict[str, int]:
    with store_engine.session() as session:
        rows = session.execute(
            select(Submission.status, func.count()).where(Submission.service == service).group_by(Submission.status)
        ).all()
    found: dict[str, int] = dict(rows)
    return {s: found.get(s, 0) for s in STATUSES}


# ---------------------------------------------------------------- operators


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def operator_entry(name: str, service: str, token: str) -> str:
    return f"{name}:{service}:{hash_token(token)}"


def authenticate(token: str | None, service: str, entries: list[str]) -> str:
    """The operator a bearer token belongs to, if it is one of `service`'s operators. Every entry is
    compared (in constant time), so timing says nothing about which entry came close."""
    unauthorised = Problem(
        401,
        "An operator token is required: Authorization: Bearer <token>.",
        kind="unauthorised",
        headers={"WWW-Authenticate": 'Bearer realm="twlookup review"'},
    )
    if not token:
        raise unauthorised
    presented = hash_token(token)
    matched: tuple[str, str] | None = None
    for entry in entries:
        name, svc, digest = entry.split(":", 2)
        if hmac.compare_digest(presented, digest) and matched is None:
            matched = (name, svc)
    if matched is None:
        unauthorised.detail = "The operator token is not valid."
        raise unauthorised
    if matched[1] != service:
        raise Problem(403, f"This operator token is for {matched[1]}, not {service}.", kind="wrong-service")
    return matched[0]


def require_operator() -> str:
    """The operator making the current request (401/403 otherwise)."""
    info = current()
    return authenticate(bearer(info), info.service, info.settings.review_operators)


# ---------------------------------------------------------------- operator routes


class QueueQuery(Params):
    status: Status | None = Field("submitted", description="Submissions in this state (default: waiting for review)")
    kind: str | None = Field(None, max_length=32, pattern=r"^[a-z_]+$", description="Only this kind of submission")
    limit: int = Field(50, ge=1, le=500, description="At most this many, oldest first")


class QueueOut(LazyModel):
    service: str
    counts: dict[str, int] = Field(description="Submissions per state")
    submissions: list[SubmissionOut]


class DecideBody(Params):
    ids: list[int] = Field(min_length=1, max_length=100, description="Submission ids (1 to 100), decided together")
    decision: Literal["approve", "reject"]
    reason: str | None = Field(None, max_length=500, description="Required for reject; kept with the submission")


class DecideOut(LazyModel):
    operator: str
    decided: list[SubmissionOut]


def operator_routes(service: Any) -> None:
    """Declare the operator API on a service: GET /api/review/queue and POST /api/review/decide,
    both needing an operator token of that service. Not MCP tools."""
    name = service.name

    def review_queue(p: QueueQuery) -> QueueOut:
        """Operators: submissions waiting for review (or in another state); needs an operator token."""
        require_operator()
        return QueueOut(service=name, counts=counts(name), submissions=queue(name, p.status, p.kind, p.limit))

    def review_decide(p: DecideBody) -> DecideOut:
        """Operators: approve or reject submissions (a rejection keeps its reason); needs an operator token."""
        operator = require_operator()
        return DecideOut(operator=operator, decided=decide(name, p.ids, p.decision, operator, p.reason))

    for fn in (review_queue, review_decide):
        vars(fn)["__twlookup_auth__"] = "operator"  # OpenAPI lists 401/403 for it
    service.operation("GET", "/api/review/queue", blocking=True)(review_queue)
    service.operation("POST", "/api/review/decide", blocking=True)(review_decide)
