"""`twlookup ingest`, `twlookup refresh` and `twlookup scheduler`: the live feeds from the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from twlookup.platform.feeds.declare import Feed
    from twlookup.settings import ReadSettings


def declared_feeds() -> dict[str, Feed]:
    """Every declared feed by its full name (SERVICE.FEED)."""
    from twlookup.services import load_services

    return {f.full_name: f for s in load_services() for f in s.feeds.values()}


def add_feed_commands(sub: Any) -> None:
    """`ingest`, `refresh` and `scheduler` on the command's subparsers."""
    ingest = sub.add_parser(
        "ingest",
        help="import one file of a live feed (e.g. life.invoice) in the official publisher's format",
        description="Parse a file published by the feed's official source into the store. Feeds are named SERVICE.FEED.",
    )
    ingest.add_argument(
        "feed", metavar="FEED", help="feed name, e.g. life.invoice; an unknown name lists the known ones"
    )
    ingest.add_argument("file", metavar="FILE", type=Path, help="the downloaded file")
    ingest.add_argument(
        "--allow-older",
        action="store_true",
        help="import a file older than the feed's last import, as history (only for feeds whose records carry "
        "their own dates; newer records are kept)",
    )
    ingest.set_defaults(func=cmd_ingest)

    refresh = sub.add_parser(
        "refresh",
        help="download live feeds from their official publishers and import them (all, or the FEEDs named)",
        description=(
            "Download each feed from its publisher's official URL (conditional requests, a timeout, retries "
            "with back-off, a size cap: TWLOOKUP_FEEDS_*) and import it through the same importer as `ingest`, "
            "in one transaction: a failed or partial download, or an invalid file, leaves the store's data as it "
            "was, and a file older than the last import is not imported. One process refreshes a feed at a "
            "time (a lock in the store). Exit status 1 when a feed failed."
        ),
    )
    refresh.add_argument(
        "feeds", metavar="FEED", nargs="*", help="SERVICE.FEED (e.g. life.invoice) or SERVICE (all its feeds)"
    )
    refresh.add_argument("--force", action="store_true", help="download in full, without the stored ETag/Last-Modified")
    refresh.add_argument("--list", action="store_true", help="list the feeds, their URLs, cadences and licences")
    refresh.set_defaults(func=cmd_refresh)

    scheduler = sub.add_parser(
        "scheduler",
        help="refresh every live feed at its cadence, forever (run exactly one per store)",
        description=(
            "Refresh each feed when it is due: its cadence after its last attempt as the store records it, "
            "sooner after a failure (TWLOOKUP_FEEDS_RETRY_FAILED_SECONDS). Run one scheduler per store, e.g. "
            "one `scheduler` service in a compose file, not one per web replica; a second one is harmless "
            "(the store's lock lets one process refresh a feed at a time) but only adds requests."
        ),
    )
    scheduler.add_argument("--once", action="store_true", help="refresh what is due now and exit")
    scheduler.set_defaults(func=cmd_scheduler)


def cmd_ingest(args: argparse.Namespace, read_settings: ReadSettings) -> int:
    from datetime import timedelta

    from twlookup.platform.feeds.run import Busy, OlderFile, Store, feed_lock, import_file
    from twlookup.services import upgrade_store

    feeds = declared_feeds()
    if args.feed not in feeds:
        known = ", ".join(sorted(feeds)) or "none yet"
        print(f"twlookup: unknown feed {args.feed!r}; known feeds: {known}", file=sys.stderr)
        return 2
    if not args.file.is_file():
        print(f"twlookup: no such file: {args.file}", file=sys.stderr)
        return 2
    feed = feeds[args.feed]
    if args.allow_older and not feed.history:
        print(
            f"twlookup: --allow-older is for feeds whose records carry their own dates; {args.feed} is replaced "
            "by each file, so an older file would bring back older data",
            file=sys.stderr,
        )
        return 2
    settings = read_settings()
    upgrade_store(settings.database_url)
    store = Store()
    try:
        with feed_lock(store, feed.full_name, timedelta(seconds=settings.feeds_lock_seconds)):
            outcome = import_file(feed, args.file, store=store, allow_older=args.allow_older)
    except Busy as exc:
        print(f"twlookup: {exc}; try again when it is done", file=sys.stderr)
        return 1
    except OlderFile as exc:
        print(f"twlookup: {exc}", file=sys.stderr)
        if feed.history:
            print("twlookup: to add it as history anyway, run again with --allow-older", file=sys.stderr)
        return 1
    except ValueError as exc:  # importers raise ValueError naming what is wrong with the file
        print(f"twlookup: {args.file} is not a valid {args.feed} file: {exc}", file=sys.stderr)
        return 1
    print(f"{args.feed}: {outcome.rows} rows imported from {args.file}; running processes see them within seconds")
    return 0


def _pick_feeds(names: list[str]) -> list[Any]:
    """FEED arguments: SERVICE.FEED, or SERVICE for all its feeds; none: every refreshable feed."""
    feeds = declared_feeds()
    if not names:
        return [f for f in feeds.values() if f.refreshable]
    chosen: list[Any] = []
    for name in names:
        matched = [feeds[name]] if name in feeds else [f for f in feeds.values() if f.service == name]
        if not matched:
            known = ", ".join(sorted(f for f, feed in feeds.items() if feed.refreshable))
            raise SystemExit(f"twlookup: unknown feed {name!r}; feeds with an official URL: {known}")
        for feed in matched:
            if not feed.refreshable:
                if name == feed.full_name:
                    raise SystemExit(
                        f"twlookup: {name} has no official URL to refresh from ({feed.manual}); "
                        f"import a file with `twlookup ingest {name} {feed.ingest_hint}`"
                    )
                continue
            if feed not in chosen:
                chosen.append(feed)
    return chosen


def _feed_table() -> str:
    lines = []
    for feed in declared_feeds().values():
        every = f"every {_duration(feed.every)}" if feed.refreshable and feed.every else "file feed (ingest only)"
        lines.append(f"{feed.full_name}: {feed.title}")
        lines.append(f"    {every}; publisher changes it: {feed.changes}")
        for url in feed.urls or ((feed.manual or ""),):
            lines.append(f"    {url}")
        lines.append(f"    licence: {feed.licence}")
    return "\n".join(lines)


def _duration(delta: Any) -> str:
    seconds = int(delta.total_seconds())
    if seconds % 86400 == 0:
        return f"{seconds // 86400} d"
    if seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    return f"{seconds // 60} min"


def cmd_refresh(args: argparse.Namespace, read_settings: ReadSettings) -> int:
    from twlookup.platform.feeds.run import Refresher
    from twlookup.services import upgrade_store

    if args.list:
        print(_feed_table())
        return 0
    feeds = _pick_feeds(args.feeds)
    settings = read_settings()
    upgrade_store(settings.database_url)
    outcomes = Refresher.from_settings(settings).refresh_many(feeds, force=args.force)
    for outcome in outcomes:
        print(outcome.line(), file=sys.stderr if outcome.failed else sys.stdout)
    return 1 if any(o.failed for o in outcomes) else 0


def cmd_scheduler(args: argparse.Namespace, read_settings: ReadSettings) -> int:
    import logging
    import signal
    import threading

    from twlookup.platform.feeds.run import Refresher
    from twlookup.platform.feeds.schedule import Scheduler
    from twlookup.services import upgrade_store

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = read_settings()
    upgrade_store(settings.database_url)
    scheduler = Scheduler.from_settings(settings, declared_feeds().values(), Refresher.from_settings(settings))
    if args.once:
        outcomes = scheduler.run_pending()
        for outcome in outcomes:
            print(outcome.line(), file=sys.stderr if outcome.failed else sys.stdout)
        if not outcomes:
            print("twlookup: no feed is due")
        return 1 if any(o.failed for o in outcomes) else 0
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    scheduler.run(stop.wait)
    return 0
