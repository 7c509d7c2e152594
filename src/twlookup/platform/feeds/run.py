"""Importing a feed's file and refreshing a feed from its publisher, under the rules every feed keeps:

- a file is imported in one transaction with its feed state, or not at all: a download that fails,
  a truncated body, or a file the importer finds invalid leaves the store's data as it was (the
  failure is recorded in the feed state, in a transaction of its own);
- an older file never replaces a newer import: each part of a feed remembers the stamp (date or
  version) of the last file imported, and a file with an older stamp is not imported (`ingest`
  refuses it; a feed whose records carry their own dates may add older history with
  `ingest --allow-older`);
- one process refreshes a feed at a time: a lease in the store (`feed_lock`) is taken before the
  download and given back after; a process that finds it taken skips the feed;
- a file identical to the last one imported (same SHA-256) is not imported again, and a part whose
  publisher answers 304 Not Modified is recorded as checked.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import socket
import tempfile
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from sqlalchemy import CursorResult, Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from twlookup.platform.feeds.declare import Feed, Fetched, Part, PartsContext, Stamp
from twlookup.platform.feeds.download import Bounds, DownloadError, Fetcher
from twlookup.platform.schemas import today_taipei
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.derived_rows import refresh_derived
from twlookup.platform.store.feed_tables import FeedLockRow, FeedStateRow
from twlookup.platform.store.meta import bump_version
from twlookup.platform.store.times import as_utc as as_utc  # re-exported: the feed modules read it from here

log = logging.getLogger("twlookup.feeds")
OWNER = f"{socket.gethostname()[:60]}:{os.getpid()}"


class OlderFile(ValueError):
    """The file's data is older than what the store already imported for that part."""


class Busy(RuntimeError):
    """Another process holds the feed's refresh lock."""


def utcnow() -> datetime:
    return datetime.now(UTC)


def _key_json(key: tuple[Any, ...] | None) -> str | None:
    return None if key is None else json.dumps(list(key), default=str)


def _key_tuple(text: str | None) -> tuple[Any, ...] | None:
    return None if text is None else tuple(json.loads(text))


@dataclass
class Outcome:
    feed: str
    part: str
    outcome: str  # imported, unchanged, not-modified, older, failed, busy
    message: str
    rows: int | None = None

    @property
    def failed(self) -> bool:
        return self.outcome == "failed"

    def line(self) -> str:
        return f"{self.feed} [{self.part}]: {self.outcome}: {self.message}"


@dataclass
class Store:
    """Where feed work happens: the process-wide store unless a test gives its own engine."""

    engine: Engine | None = None
    _sessions: sessionmaker[Session] | None = field(default=None, init=False)

    def session(self) -> Session:
        if self.engine is None:
            return store_engine.session()
        if self._sessions is None:
            self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        return self._sessions()


# ---------------------------------------------------------------- the lock


def acquire(store: Store, feed: str, lease: timedelta, owner: str) -> bool:
    """Take the feed's lease if nobody holds it (or the holder's lease ran out)."""
    now = utcnow()
    try:
        with store.session() as session, session.begin():
            session.execute(insert(FeedLockRow).values(feed=feed, owner=owner, expires_at=now + lease))
        return True
    except IntegrityError:
        pass  # a row exists: take it over only if its lease ran out
    with store.session() as session, session.begin():
        taken = session.execute(
            update(FeedLockRow)
            .where(FeedLockRow.feed == feed, FeedLockRow.expires_at < now)
            .values(owner=owner, expires_at=now + lease)
        )
        return cast("CursorResult[Any]", taken).rowcount == 1  # an UPDATE's result is a CursorResult


def release(store: Store, feed: str, owner: str) -> None:
    with store.session() as session, session.begin():
        session.execute(delete(FeedLockRow).where(FeedLockRow.feed == feed, FeedLockRow.owner == owner))


def holder(store: Store, feed: str) -> str | None:
    with store.session() as session:
        row = session.get(FeedLockRow, feed)
        if row is None or as_utc(row.expires_at) < utcnow():
            return None
        return row.owner


@contextmanager
def feed_lock(store: Store, feed: str, lease: timedelta, owner: str | None = None) -> Iterator[str]:
    """Hold the feed's lease for the block; Busy when another process holds it."""
    me = owner or f"{OWNER}:{uuid.uuid4().hex[:8]}"
    if not acquire(store, feed, lease, me):
        raise Busy(f"{feed} is being refreshed by {holder(store, feed) or 'another process'}")
    try:
        yield me
    finally:
        release(store, feed, me)


# ---------------------------------------------------------------- state


def _state(session: Session, feed: str, part: str) -> FeedStateRow:
    row = session.get(FeedStateRow, (feed, part))
    if row is None:
        row = FeedStateRow(feed=feed, part=part)
        session.add(row)
    return row


def record(
    store: Store,
    feed: str,
    part: str,
    *,
    outcome: str,
    message: str,
    url: str | None = None,
    success: bool,
    etag: str | None = None,
    last_modified: str | None = None,
    when: datetime | None = None,
) -> None:
    """A refresh attempt that imported nothing: checked (success) or failed (the error is kept)."""
    now = when or utcnow()
    with store.session() as session, session.begin():
        row = _state(session, feed, part)
        row.last_attempt = now
        row.last_outcome = outcome
        row.last_message = message[:2000]
        if url:
            row.url = url[:500]
        if success:
            row.last_success = now
            if etag or last_modified:
                row.etag, row.last_modified = (etag or None), (last_modified or None)
        else:
            row.last_error = message[:2000]
            row.last_error_at = now


def states(store: Store, feed: str | None = None) -> list[FeedStateRow]:
    with store.session() as session:
        query = select(FeedStateRow).order_by(FeedStateRow.feed, FeedStateRow.part)
        if feed is not None:
            query = query.where(FeedStateRow.feed == feed)
        return list(session.scalars(query))


# ---------------------------------------------------------------- import


def import_file(
    feed: Feed,
    path: Path,
    *,
    store: Store | None = None,
    part: str | None = None,
    via: str = "ingest",
    allow_older: bool = False,
    fetched: Fetched | None = None,
    when: datetime | None = None,
) -> Outcome:
    """Import one file of `feed` through its importer, in one transaction with its feed state.

    Raises OlderFile for a file older than the part's last import (unless `allow_older`, for
    feeds whose records carry their own dates), ValueError for a file the importer refuses; the
    store is then unchanged. `part`, when given (a refresh), must be the part the file is."""
    store = store or Store()
    now = when or utcnow()
    stamp = Stamp(part or feed.default_part)
    if feed.stamp is not None:
        with contextlib.suppress(ValueError):  # not the publisher's format: the importer says precisely why
            stamp = feed.stamp(path.read_bytes(), path.name)
    if part is not None and stamp.part != part:
        raise ValueError(f"the file is {feed.full_name} part {stamp.part!r}, not the {part!r} file that was asked for")
    digest = _sha256(path)
    with store.session() as session, session.begin():
        row = session.get(FeedStateRow, (feed.full_name, stamp.part), with_for_update=True)
        if row is None:
            row = FeedStateRow(feed=feed.full_name, part=stamp.part)
            session.add(row)
        stored = _key_tuple(row.data_key)
        older = stamp.key is not None and stored is not None and _older(stamp.key, stored)
        if older and not (allow_older and feed.history):
            raise OlderFile(
                f"{feed.full_name} [{stamp.part}]: this file's data ({stamp.label or stamp.key}) is older than "
                f"the store's last import ({row.data_label or stored}); not imported"
            )
        if via == "refresh" and row.sha256 == digest and row.last_import is not None:
            _checked(row, now, "unchanged", "the same file as the last import; nothing to do", fetched)
            return Outcome(feed.full_name, stamp.part, "unchanged", "the same file as the last import")
        rows = feed.importer(session, path)
        refresh_derived(session, [feed.service])  # the imported rows become searchable with them
        if (stamp.key is not None and not older) or (stamp.key is None and stored is None):
            row.data_key = _key_json(stamp.key)
            row.data_label = stamp.label
            row.data_date = stamp.data_date
        row.rows = rows
        row.sha256 = digest
        row.via = via
        row.last_import = now
        message = f"{rows} rows imported" + (f" ({stamp.label})" if stamp.label else "")
        _checked(row, now, "imported", message, fetched)
        bump_version(session)
    from twlookup.platform.store.reference import Reference

    Reference.reset_all()
    return Outcome(feed.full_name, stamp.part, "imported", message, rows)


def import_bytes(feed: Feed, raw: bytes, filename: str, **kwargs: Any) -> Outcome:
    """import_file for bytes in memory (a download): written to a temporary file under `filename`,
    since importers read a path and some read the publisher's file name."""
    with tempfile.TemporaryDirectory(prefix="twlookup-feed-") as folder:
        path = Path(folder) / filename
        path.write_bytes(raw)
        return import_file(feed, path, **kwargs)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _older(key: tuple[Any, ...], stored: tuple[Any, ...]) -> bool:
    try:
        return list(key) < list(stored)
    except TypeError:  # keys of different shapes (a format change): compare as text
        return [str(k) for k in key] < [str(k) for k in stored]


def _checked(row: FeedStateRow, now: datetime, outcome: str, message: str, fetched: Fetched | None) -> None:
    row.last_attempt = now
    row.last_success = now
    row.last_outcome = outcome
    row.last_message = message[:2000]
    if fetched is not None:
        if fetched.url:
            row.url = fetched.url[:500]
        row.etag = fetched.etag
        row.last_modified = fetched.last_modified


# ---------------------------------------------------------------- refresh


@dataclass
class Refresher:
    """Refreshes feeds from their publishers: lock, download, validate and import, record."""

    bounds: Bounds
    lease: timedelta
    store: Store = field(default_factory=Store)
    sleep: Callable[[float], None] | None = None
    clock: Callable[[], datetime] = utcnow
    today: Callable[[], Any] | None = None  # Taiwan's today (for feeds whose files are by day or month)

    @classmethod
    def from_settings(cls, settings: Any, **kwargs: Any) -> Refresher:
        return cls(
            bounds=Bounds.from_settings(settings), lease=timedelta(seconds=settings.feeds_lock_seconds), **kwargs
        )

    def parts(self, feed: Feed) -> list[Part]:
        assert feed.parts is not None
        with self.store.session() as session:
            today = self.today() if self.today is not None else today_taipei()
            return feed.parts(PartsContext(today=today, session=session))

    def refresh(self, feed: Feed, *, force: bool = False) -> list[Outcome]:
        """Every part of one feed; a feed another process is refreshing is skipped (outcome busy)."""
        if not feed.refreshable:
            raise ValueError(f"{feed.full_name} has no official URL to refresh from: {feed.manual}")
        try:
            with feed_lock(self.store, feed.full_name, self.lease):
                return self._refresh_locked(feed, force)
        except Busy as exc:
            return [Outcome(feed.full_name, "*", "busy", str(exc))]
        except Exception as exc:  # the store could not be reached for the lock: nothing was fetched
            log.exception("refresh of %s could not start", feed.full_name)
            return [Outcome(feed.full_name, "*", "failed", f"the store did not answer: {type(exc).__name__}: {exc}")]

    def _refresh_locked(self, feed: Feed, force: bool) -> list[Outcome]:
        try:
            parts = self.parts(feed)
        except Exception as exc:  # the store could not be read: nothing was fetched
            message = f"could not list the files to fetch: {type(exc).__name__}: {exc}"
            record(self.store, feed.full_name, "*", outcome="failed", message=message, success=False, when=self.clock())
            return [Outcome(feed.full_name, "*", "failed", message)]
        if any(r.part == "*" and r.last_outcome == "failed" for r in states(self.store, feed.full_name)):
            record(
                self.store,
                feed.full_name,
                "*",
                outcome="listed",
                message="the files to fetch were listed",
                success=True,
            )
        outcomes = []
        kwargs: dict[str, Any] = {"max_bytes": feed.max_bytes}
        if self.sleep is not None:
            kwargs["sleep"] = self.sleep
        with Fetcher(self.bounds, **kwargs) as fetcher:
            for part in parts:
                outcomes.append(self._part(feed, part, fetcher, force))
        return outcomes

    def _part(self, feed: Feed, part: Part, fetcher: Fetcher, force: bool) -> Outcome:
        name = feed.full_name
        now = self.clock()
        try:
            if part.fetch is not None:
                fetched: Fetched | None = part.fetch(fetcher, part)
            else:
                etag = last_modified = None
                if not force:
                    with self.store.session() as session:
                        row = session.get(FeedStateRow, (name, part.key))
                        if row is not None and row.last_import is not None:
                            etag, last_modified = row.etag, row.last_modified
                fetched = fetcher.fetch_one(part.url, part.filename, etag, last_modified, part.publisher_name)
        except DownloadError as exc:
            return self._failed(name, part, str(exc), now)
        except ValueError as exc:  # a composite part found an answer not in the publisher's format
            return self._failed(name, part, f"not in the publisher's format: {exc}", now)
        if fetched is None:
            record(
                self.store,
                name,
                part.key,
                outcome="not-modified",
                message="the publisher answered 304 Not Modified",
                url=part.url,
                success=True,
                when=now,
            )
            return Outcome(name, part.key, "not-modified", "the publisher answered 304 Not Modified")
        try:
            return import_bytes(
                feed,
                fetched.body,
                fetched.filename,
                store=self.store,
                part=part.key,
                via="refresh",
                fetched=fetched,
                when=now,
            )
        except OlderFile as exc:
            record(
                self.store,
                name,
                part.key,
                outcome="older",
                message=str(exc),
                url=fetched.url or part.url,
                success=True,
                when=now,
            )
            return Outcome(name, part.key, "older", str(exc))
        except ValueError as exc:
            return self._failed(name, part, f"the file was not imported: {exc}", now)
        except Exception as exc:  # a store error mid-import: rolled back, recorded, the next feed goes on
            log.exception("refresh of %s [%s] failed", name, part.key)
            return self._failed(name, part, f"{type(exc).__name__}: {exc}", now)

    def _failed(self, name: str, part: Part, message: str, now: datetime) -> Outcome:
        # info: the outcome says it (`refresh` prints it; the scheduler ends each pass with one warning)
        log.info("refresh of %s [%s] failed: %s", name, part.key, message)
        try:
            record(self.store, name, part.key, outcome="failed", message=message, url=part.url, success=False, when=now)
        except Exception:  # the store itself is away: the outcome still says what happened
            log.exception("could not record the failure of %s", name)
        return Outcome(name, part.key, "failed", message)

    def refresh_many(self, feeds: Iterable[Feed], *, force: bool = False) -> list[Outcome]:
        out: list[Outcome] = []
        for feed in feeds:
            out.extend(self.refresh(feed, force=force))
        return out
