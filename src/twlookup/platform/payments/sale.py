"""Whether a paid route is for sale now: nothing sample, empty or stale is sold.

A paid operation declares what its answer rests on (`Service.operation(rests_on=...)`): feeds of
its service (by name, e.g. "fuel") and store tables (ORM classes). It is not for sale while

- a table it rests on holds no rows, or holds sample rows (shipped illustrations, which real
  imports replace), or
- a refreshable feed it rests on has never brought data, or its data is older than twice its
  cadence: the feed's `stale_after` (the publisher's cadence with its usual gaps, the age past
  which the free routes say `stale`), measured as `/api/status` measures it (`data_age_days`;
  for feeds whose files carry no date, the time since the last good check).

Such a route answers a 503 problem (`not-for-sale`) with Retry-After, naming each feed and its
age (or the table), before any 402 challenge, so no client pays; an MCP tool call gets the same
problem as an error result. Free routes answer as before, with their `sample`/`stale` flags.
The index, `/api/pro`, the service page and OpenAPI say which paid routes are for sale now.

Cheap: the facts (row and sample counts, feed state rows, the newest data held) are read in one
worker-thread visit to the store when the data version changes (a seed or an import), and at
least every `MAX_AGE_SECONDS` (a feed check or an approved submission does not change the version);
between reads a request costs no store query. Ages are worked out from the facts at each request
with today's date (`platform.clock`), never stored.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from twlookup.platform.errors import Problem
from twlookup.platform.feeds.declare import Feed
from twlookup.platform.feeds.run import Store, states, utcnow
from twlookup.platform.feeds.status import feed_status
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.errors import is_store_error
from twlookup.platform.store.meta import read_version

if TYPE_CHECKING:
    from twlookup.platform.operations import Operation
    from twlookup.platform.service import Service
    from twlookup.platform.store.feed_tables import FeedStateRow

log = logging.getLogger("twlookup.payments")
MAX_AGE_SECONDS = 60.0  # facts are read again at least this often, even when the data version stays
TABLE_RETRY_SECONDS = 3600  # a table waits for an import or a review, not for a schedule
SALE_FACTOR = 2  # a feed is sold while its data is at most twice its cadence old


@dataclass(frozen=True)
class TableFacts:
    rows: int
    sample_rows: int | None  # None: the table has no sample flag


@dataclass(frozen=True)
class FeedFacts:
    rows: list[FeedStateRow]
    held: date | None


@dataclass(frozen=True)
class Facts:
    version: int
    tables: dict[str, TableFacts]
    feeds: dict[str, FeedFacts]


def sale_limit(feed: Feed) -> timedelta:
    """The age past which a feed's data is not sold: twice its cadence (`stale_after`)."""
    return feed.stale_after * SALE_FACTOR


def resolve_basis(service: Service, op: Operation) -> tuple[list[Feed], list[Any]]:
    """The feeds and tables `op.rests_on` names; an unknown feed name is a ValueError (at start)."""
    feeds: list[Feed] = []
    tables: list[Any] = []
    for item in op.rests_on:
        if isinstance(item, Feed):
            feeds.append(item)
        elif isinstance(item, str):
            name = item.removeprefix(f"{service.name}.")
            if name not in service.feeds:
                known = ", ".join(sorted(service.feeds)) or "none"
                raise ValueError(f"{service.name} {op.path}: rests on unknown feed {item!r}; its feeds: {known}")
            feeds.append(service.feeds[name])
        elif hasattr(item, "__table__"):
            tables.append(item)
        else:
            raise ValueError(f"{service.name} {op.path}: rests_on takes feed names and store tables, not {item!r}")
    return feeds, tables


class SaleCheck:
    """The sale state of one service's paid routes (one per service router)."""

    def __init__(self, service: Service, settings: Any, store: Store | None = None) -> None:
        self.service = service
        self.every = {name: timedelta(seconds=s) for name, s in (getattr(settings, "feeds_every", {}) or {}).items()}
        self.check_seconds = float(getattr(settings, "data_check_seconds", 2.0))
        self.store = store or Store()
        self.bases: dict[tuple[str, str], tuple[list[Feed], list[Any]]] = {}
        for op in service.operations:
            if op.rests_on:
                self.bases[(op.method, op.path)] = resolve_basis(service, op)
        self.tables = {t.__tablename__: t for _feeds, tables in self.bases.values() for t in tables}
        self.feeds = {f.full_name: f for feeds, _tables in self.bases.values() for f in feeds}
        self._facts: Facts | None = None
        self._read_at = -1e9  # when the facts were read (monotonic)
        self._version_at = -1e9  # when the data version was last looked at
        self._lock = threading.Lock()

    # ---------------------------------------------------------------- reading the facts

    def due(self) -> bool:
        """True when the next verdict could read the store (call `load` off the event loop then)."""
        if not self.bases:
            return False
        now = time.monotonic()
        return (
            self._facts is None
            or now - self._read_at >= MAX_AGE_SECONDS
            or now - self._version_at >= self.check_seconds
        )

    def load(self) -> Facts:
        """The facts, read from the store if they may have changed (blocking: a worker thread)."""
        with self._lock:
            if not self.due() and self._facts is not None:
                return self._facts
            with store_engine.get_engine().connect() as conn:
                version = read_version(conn)
            now = time.monotonic()
            self._version_at = now
            if self._facts is None or self._facts.version != version or now - self._read_at >= MAX_AGE_SECONDS:
                self._facts = self._read(version)
                self._read_at = now
            return self._facts

    def _read(self, version: int) -> Facts:
        tables: dict[str, TableFacts] = {}
        feeds: dict[str, FeedFacts] = {}
        with self.store.session() as session:
            for name, table in self.tables.items():
                rows = session.scalar(select(func.count()).select_from(table)) or 0
                sample = None
                if hasattr(table, "sample"):
                    sample = session.scalar(select(func.count()).select_from(table).where(table.sample.is_(True))) or 0
                tables[name] = TableFacts(rows, sample)
            held = {name: feed.held(session) if feed.held else None for name, feed in self.feeds.items()}
        by_feed: dict[str, list[FeedStateRow]] = {name: [] for name in self.feeds}
        if self.feeds:
            for row in states(self.store):
                if row.feed in by_feed:
                    by_feed[row.feed].append(row)
        for name in self.feeds:
            feeds[name] = FeedFacts(by_feed[name], held[name])
        return Facts(version, tables, feeds)

    # ---------------------------------------------------------------- the verdict

    def reasons(self, op: Operation, facts: Facts, now: datetime | None = None) -> list[dict[str, Any]]:
        """Why `op` is not for sale now (empty: it is), from the facts and today's date."""
        basis = self.bases.get((op.method, op.path))
        if basis is None:
            return []
        feeds, tables = basis
        out: list[dict[str, Any]] = []
        now = now or utcnow()
        for feed in feeds:
            found = self._feed_reason(feed, facts.feeds[feed.full_name], now)
            if found:
                out.append(found)
        for table in tables:
            t = facts.tables[table.__tablename__]
            if t.rows == 0:
                out.append({"table": table.__tablename__, "rows": 0, "reason": f"{table.__tablename__} holds no rows"})
            elif t.sample_rows:
                out.append(
                    {
                        "table": table.__tablename__,
                        "rows": t.rows,
                        "sample_rows": t.sample_rows,
                        "reason": f"{table.__tablename__} holds {t.sample_rows} sample rows of {t.rows} "
                        "(shipped illustrations, not data)",
                    }
                )
        return out

    def _feed_reason(self, feed: Feed, facts: FeedFacts, now: datetime) -> dict[str, Any] | None:
        if not feed.refreshable:  # a file feed: the operator's last file; its tables say if it is empty
            return None
        status = feed_status(feed, facts.rows, every=self.every.get(feed.full_name), held=facts.held, now=now)
        limit = sale_limit(feed)
        entry: dict[str, Any] = {
            "feed": feed.full_name,
            "data_date": status.data_date.isoformat() if status.data_date else None,
            "age_days": status.data_age_days,
            "limit_days": limit.days,
            "retry_after": self.retry_after(feed),
        }
        if feed.stale_by == "check":
            if status.last_success is None:
                return {**entry, "reason": f"{feed.full_name} has never been checked at its publisher"}
            age = now - status.last_success
            if age <= limit:
                return None
            days = age.days
            return {
                **entry,
                "age_days": days,
                "reason": f"{feed.full_name} was last checked good {days} days ago; "
                f"it is sold only within {limit.days} days (twice its {feed.stale_after.days}-day cadence)",
            }
        if status.data_age_days is None:
            return {**entry, "reason": f"{feed.full_name} has no data imported from its publisher yet"}
        if status.data_age_days <= limit.days:
            return None
        return {
            **entry,
            "reason": f"{feed.full_name} data is of {status.data_date}, {status.data_age_days} days old; "
            f"it is sold only while at most {limit.days} days old (twice its {feed.stale_after.days}-day cadence)",
        }

    def retry_after(self, feed: Feed) -> int:
        """When to ask again: the feed's refresh cadence (the next scheduled refresh), within 1 min to 1 day."""
        every = self.every.get(feed.full_name) or feed.every or timedelta(hours=1)
        return int(min(max(every.total_seconds(), 60), 86400))

    def problem(self, op: Operation, reasons: list[dict[str, Any]]) -> Problem:
        retry = min((r["retry_after"] for r in reasons if "retry_after" in r), default=TABLE_RETRY_SECONDS)
        detail = (
            f"/{self.service.name}{op.path} is not for sale now: "
            + "; ".join(r["reason"] for r in reasons)
            + ". Nothing was charged and no payment is asked for; the free routes answer with sample/stale flags."
        )
        hint = [f"`twlookup refresh {r['feed']}`" for r in reasons if "feed" in r]
        if hint:
            detail += f" It is sold again once {', '.join(hint)} (or the scheduler) brings fresh data."
        listed = [{k: v for k, v in r.items() if k != "retry_after"} for r in reasons]
        return Problem(
            503, detail, kind="not-for-sale", headers={"Retry-After": str(retry)}, extra={"not_for_sale": listed}
        )

    # ---------------------------------------------------------------- the callers

    async def check(self, op: Operation) -> None:
        """Raise the 503 problem when `op` is not for sale; reads the store (bounded, off the loop) only when due."""
        if (op.method, op.path) not in self.bases:
            return
        from twlookup.platform.operations import read_store

        facts = self._facts
        if facts is None or self.due():
            facts = await read_store(self.load)
        reasons = self.reasons(op, facts)
        if reasons:
            raise self.problem(op, reasons)

    def state(self, op: Operation) -> dict[str, Any]:
        """For the listings (blocking; called from sync routes): {"for_sale": bool, "not_for_sale": [...]}.
        When the store cannot be read, the last facts known are used (or none: `for_sale` is null)."""
        if (op.method, op.path) not in self.bases:
            return {"for_sale": True}
        try:
            facts = self.load()
        except Exception as exc:
            if not is_store_error(exc):
                raise
            if self._facts is None:
                return {"for_sale": None}
            facts = self._facts
        reasons = self.reasons(op, facts)
        out: dict[str, Any] = {"for_sale": not reasons}
        if reasons:
            out["not_for_sale"] = [r["reason"] for r in reasons]
        return out
