"""What `/<name>/api/status` and the index at `/` say about each feed: where it comes from, when it was
last tried, last checked good, last imported, its last error, and how old its data is.

A feed is `stale` when its data is older than the feed's `stale_after` (feeds whose records carry a
date: receipts, draws, prices, rates, closes), or, for feeds whose files carry no useful date
(crawler ranges, ban list, support data, register), when no check has succeeded within it. File
feeds (nothing to refresh from) are never called stale: their data is the operator's last file. A feed
is `failing` when its last attempt failed; the data it serves is then the last good import.
`/healthz` does not look at any of this: it says whether the process and its store answer.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import date, datetime, timedelta
from typing import Any

from pydantic import Field

from twlookup.platform.feeds.declare import Feed
from twlookup.platform.feeds.run import Store, states, utcnow
from twlookup.platform.records import from_attributes
from twlookup.platform.schemas import LazyModel, today_taipei
from twlookup.platform.store.errors import STORE_ERRORS
from twlookup.platform.store.feed_tables import FeedStateRow
from twlookup.platform.store.times import StoredTime

log = logging.getLogger("twlookup.feeds")


class FeedPartStatus(LazyModel):
    part: str = Field(description="The file of the feed this row is about (e.g. TWSE, lotto649, googlebot)")
    url: str | None = Field(description="Where it was last fetched from")
    last_attempt: StoredTime | None
    last_success: StoredTime | None = Field(
        description="Last time a download was good: imported, unchanged or not modified"
    )
    last_import: StoredTime | None = Field(description="Last time data was imported")
    last_outcome: str | None = Field(description="imported, unchanged, not-modified, older or failed")
    last_message: str | None
    last_error: str | None = Field(description="The most recent failure, kept after later successes")
    last_error_at: StoredTime | None
    data_label: str | None = Field(description="The newest data imported, in the publisher's terms (date or version)")
    data_date: date | None
    rows: int | None = Field(description="Rows the last import wrote")
    via: str | None = Field(description="How the last import came: refresh or ingest")


class FeedStatus(LazyModel):
    feed: str = Field(description="SERVICE.FEED, as `twlookup refresh` and `twlookup ingest` name it")
    title: str
    publisher: str
    format: str
    licence: str
    page: str
    urls: list[str] = Field(description="The official URLs the feed is refreshed from")
    changes: str = Field(description="How often the publisher changes it")
    refresh_every_seconds: int | None = Field(description="How often the scheduler refreshes it; null for file feeds")
    refresh: str | None = Field(description="The command that refreshes it now; null for file feeds")
    ingest: str = Field(description="The command that imports a downloaded file")
    manual: str | None = Field(None, description="File feeds: why there is no URL to refresh from")
    last_attempt: datetime | None
    last_success: datetime | None
    last_import: datetime | None
    last_error: str | None
    last_error_at: datetime | None
    failing: bool = Field(description="The last attempt failed; the data served is the last good import")
    data_date: date | None = Field(description="Date of the oldest part's newest data, or what the store holds")
    data_age_days: int | None = Field(
        description="Days from data_date (else from the last import) to today, Taiwan time"
    )
    stale_after_days: int
    stale: bool
    stale_reason: str | None = Field(None, description="Why the feed is stale, with the age of what is served")
    holds: str | None = Field(None, description="What the store holds for this feed (shipped or imported), in words")
    parts: list[FeedPartStatus]


class FeedsStatus(LazyModel):
    service: str
    as_of: datetime = Field(description="When this status was read (UTC)")
    stale: bool = Field(description="Some feed of the service is stale")
    failing: bool = Field(description="Some feed's last refresh failed")
    feeds: list[FeedStatus]


def _part_status(row: FeedStateRow) -> FeedPartStatus:
    return FeedPartStatus.model_validate(row, from_attributes=True)


def _latest(values: list[datetime | None]) -> datetime | None:
    present = [v for v in values if v is not None]
    return max(present) if present else None


def feed_status(
    feed: Feed,
    rows: list[FeedStateRow],
    *,
    every: timedelta | None = None,
    held: date | None = None,
    holds: str | None = None,
    now: datetime | None = None,
    today: date | None = None,
) -> FeedStatus:
    now = now or utcnow()
    today = today or today_taipei()
    parts = [_part_status(r) for r in rows]
    last_attempt = _latest([p.last_attempt for p in parts])
    last_success = _latest([p.last_success for p in parts])
    last_import = _latest([p.last_import for p in parts])
    with_error = [(p.last_error_at, p) for p in parts if p.last_error_at is not None]
    newest_error = max(with_error, key=lambda e: e[0])[1] if with_error else None
    failing = any(p.last_outcome == "failed" for p in parts)
    dated = [
        p.data_date
        for p in parts
        if p.data_date is not None and p.part != "*" and not p.part.startswith(feed.side_parts or ("\0",))
    ]
    data_date = min(dated) if dated else held
    if data_date is not None:
        age: int | None = (today - data_date).days
    elif last_import is not None:
        age = (now - last_import).days
    else:
        age = None
    limit = feed.stale_after
    if not feed.refreshable:  # a file feed: its data is as new as the operator's last file; nothing is behind
        stale = False
    elif feed.stale_by == "data":
        stale = age is None or age > limit.days
    else:
        stale = last_success is None or now - last_success > limit
    cadence = every or feed.every
    reason = _stale_reason(feed, age, data_date, last_success, now) if stale else None
    return from_attributes(  # the feed's declared words (title, publisher, licence, urls, ...) as they are
        FeedStatus,
        feed,
        feed=feed.full_name,
        refresh_every_seconds=int(cadence.total_seconds()) if feed.refreshable and cadence else None,
        refresh=f"twlookup refresh {feed.full_name}" if feed.refreshable else None,
        ingest=f"twlookup ingest {feed.full_name} {feed.ingest_hint}",
        last_attempt=last_attempt,
        last_success=last_success,
        last_import=last_import,
        last_error=newest_error.last_error if newest_error else None,
        last_error_at=newest_error.last_error_at if newest_error else None,
        failing=failing,
        data_date=data_date,
        data_age_days=age,
        stale_after_days=limit.days,
        stale=stale,
        stale_reason=reason,
        holds=holds,
        parts=parts,
    )


def _stale_reason(
    feed: Feed, age: int | None, data_date: date | None, last_success: datetime | None, now: datetime
) -> str:
    """Why a stale feed is stale, in words, with the age of the data served."""
    served = (
        f"the data served is dated {data_date.isoformat()} ({age} days old)"
        if data_date is not None and age is not None
        else "the store has no dated data for it"
    )
    if feed.stale_by == "check":
        if last_success is None:
            checked = "never checked against its source in this store"
        else:
            checked = f"last checked good {(now - last_success).days} days ago"
        return f"{checked} (allowed: {feed.stale_after.days} days); {served}"
    return f"{served}; allowed: {feed.stale_after.days} days"


def service_status(service: str, feeds: list[Feed], *, store: Store | None = None, settings: Any = None) -> FeedsStatus:
    """The status of one service's feeds, read from the store now."""
    store = store or Store()
    overrides = getattr(settings, "feeds_every", {}) or {}
    rows = {f.full_name: [] for f in feeds}  # type: dict[str, list[FeedStateRow]]
    for row in states(store):
        if row.feed in rows:
            rows[row.feed].append(row)
    out = []
    with store.session() as session:
        for feed in feeds:
            held = feed.held(session) if feed.held else None
            holds = feed.holds(session) if feed.holds else None
            every = timedelta(seconds=overrides[feed.full_name]) if feed.full_name in overrides else None
            out.append(feed_status(feed, rows[feed.full_name], every=every, held=held, holds=holds))
    return FeedsStatus(
        service=service,
        as_of=utcnow(),
        stale=any(f.stale for f in out),
        failing=any(f.failing for f in out),
        feeds=out,
    )


class StatusCache:
    """The index page's view of every feed, read from the store at most every `seconds`, so that `/`
    stays cheap; when the store cannot be read, the last view (or none) is shown."""

    def __init__(self, seconds: float = 10.0) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        self._at = 0.0
        self._value: dict[str, FeedsStatus] = {}

    def get(self, by_service: dict[str, list[Feed]], settings: Any = None) -> dict[str, FeedsStatus]:
        with self._lock:
            if time.monotonic() - self._at < self.seconds and self._value:
                return self._value
            try:
                self._value = {
                    name: service_status(name, feeds, settings=settings) for name, feeds in by_service.items() if feeds
                }
            except STORE_ERRORS as exc:  # the store is away: the index answers with what it last knew
                log.warning("feed status not read (%s); the index shows the last one read", type(exc).__name__)
            self._at = time.monotonic()
            return self._value
