"""The refresh schedule: each feed is refreshed at its cadence, counted from its last attempt as the
store records it (so that several schedulers sharing a store, or a restart, do not refresh early),
and sooner after a failure (`TWLOOKUP_FEEDS_RETRY_FAILED_SECONDS`).

Run exactly one scheduler per store (`twlookup scheduler`, or `twlookup serve`, which runs it in
the background by default with one worker): a second one is harmless, since the feed lock in the
store lets one process refresh a feed at a time, but it only adds requests to the publishers.
Each pass that could not refresh some feed ends with one warning naming them all. The clock and the wait are
injectable, so the schedule is tested with a fake clock and no sleeping.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from twlookup.platform.feeds.declare import Feed
from twlookup.platform.feeds.run import Outcome, Refresher, as_utc, states, utcnow

log = logging.getLogger("twlookup.feeds")


@dataclass
class Scheduler:
    feeds: list[Feed]
    refresher: Refresher
    every: dict[str, timedelta] = field(default_factory=dict)  # overrides of the declared cadences
    retry_failed: timedelta = timedelta(minutes=15)
    poll: float = 60.0
    clock: Callable[[], datetime] = utcnow

    @classmethod
    def from_settings(cls, settings: Any, feeds: Iterable[Feed], refresher: Refresher, **kwargs: Any) -> Scheduler:
        disabled = set(settings.feeds_disabled)
        chosen = [f for f in feeds if f.refreshable and f.full_name not in disabled and f.service not in disabled]
        return cls(
            feeds=chosen,
            refresher=refresher,
            every={name: timedelta(seconds=s) for name, s in settings.feeds_every.items()},
            retry_failed=timedelta(seconds=settings.feeds_retry_failed_seconds),
            poll=settings.feeds_poll_seconds,
            **kwargs,
        )

    def cadence(self, feed: Feed) -> timedelta:
        return self.every.get(feed.full_name) or feed.every or timedelta(days=1)

    def next_due(self, feed: Feed, now: datetime | None = None) -> datetime:
        """When the feed is next due: its last attempt plus its cadence (or the retry delay, if
        sooner, when a part failed on its last attempt); never tried: now."""
        rows = states(self.refresher.store, feed.full_name)
        attempts = [as_utc(r.last_attempt) for r in rows if r.last_attempt is not None]
        if not attempts:
            return now or self.clock()
        last = max(a for a in attempts if a is not None)
        wait = self.cadence(feed)
        if any(r.last_outcome == "failed" for r in rows):
            wait = min(wait, self.retry_failed)
        return last + wait

    def due(self) -> list[Feed]:
        now = self.clock()
        return [f for f in self.feeds if self.next_due(f, now) <= now]

    def run_pending(self) -> list[Outcome]:
        """Refresh every feed that is due now; an error in one feed does not stop the others."""
        outcomes: list[Outcome] = []
        for feed in self.due():
            try:
                found = self.refresher.refresh(feed)
            except Exception as exc:  # the store went away mid-refresh: say so and go on
                log.exception("refresh of %s failed", feed.full_name)
                found = [Outcome(feed.full_name, "*", "failed", f"{type(exc).__name__}: {exc}")]
            for outcome in found:
                log.info("%s", outcome.line())
            outcomes.extend(found)
        failed = unreachable(outcomes)
        if failed:
            log.warning(
                "scheduler: %d of %d feeds due could not be refreshed (the data served stays the last good import; "
                "they are tried again in %s): %s",
                len(failed),
                len({o.feed for o in outcomes}),
                _short(self.retry_failed),
                "; ".join(f"{name} ({why})" for name, why in failed.items()),
            )
        return outcomes

    def seconds_to_next(self) -> float:
        """How long to wait before looking again: until the next feed is due, at most `poll`."""
        if not self.feeds:
            return self.poll
        now = self.clock()
        try:
            soonest = min(self.next_due(f, now) for f in self.feeds)
        except Exception:  # the store is away: look again after the poll interval
            return self.poll
        return max(1.0, min(self.poll, (soonest - now).total_seconds()))

    def run(self, wait: Callable[[float], bool]) -> None:
        """Refresh what is due, wait, again; `wait(seconds)` returns True when it is time to stop."""
        log.info("scheduler: %d feeds: %s", len(self.feeds), ", ".join(f.full_name for f in self.feeds))
        while True:
            try:
                self.run_pending()
            except Exception:  # the store is away: try again after the wait
                log.exception("scheduler: could not read the feed state")
            if wait(self.seconds_to_next()):
                return


def unreachable(outcomes: list[Outcome]) -> dict[str, str]:
    """The feeds that failed in `outcomes`, each with its first failure, shortened."""
    out: dict[str, str] = {}
    for o in outcomes:
        if o.failed and o.feed not in out:
            out[o.feed] = (o.message.splitlines() or [""])[0][:120]
    return out


def _short(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds < 120:
        return f"{seconds} s"
    return f"{seconds // 60} min" if seconds < 7200 else f"{seconds // 3600} h"


def start_thread(
    scheduler: Scheduler | Callable[[], Scheduler],
    delay: float = 0.0,
    after: threading.Event | None = None,
    after_at_most: float = 300.0,
) -> tuple[threading.Thread, threading.Event]:
    """Run the scheduler in a daemon thread (`twlookup serve`); set the event to stop it. Given a
    factory, the scheduler is built in the thread (the services' feeds are imported there, not on the
    caller's way to serving). The first pass waits for `after` (the app built; at most `after_at_most`
    seconds) and then `delay` seconds, so a start is not slowed by it."""
    stop = threading.Event()

    def run() -> None:
        if after is not None:
            waited = 0.0
            while not after.wait(1.0) and waited < after_at_most:
                if stop.is_set():
                    return
                waited += 1.0
        if delay and stop.wait(delay):
            return
        try:
            chosen = scheduler if isinstance(scheduler, Scheduler) else scheduler()
        except Exception:
            log.exception("scheduler: could not start; the feeds are not refreshed by this process")
            return
        chosen.run(stop.wait)

    thread = threading.Thread(target=run, name="twlookup-scheduler", daemon=True)
    thread.start()
    return thread, stop
