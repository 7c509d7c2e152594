"""`twlookup ingest`, `twlookup refresh` and `twlookup scheduler`: the live feeds from the command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def _settings() -> Any:
    from twlookup import cli  # read through the command module at each call: tests replace it there

    return cli._settings()


def _feeds() -> dict[str, Any]:
    from twlookup import cli

    return cli._feeds()


def cmd_ingest(args: argparse.Namespace) -> int:
    from datetime import timedelta

    from twlookup.platform.feeds.run import Busy, OlderFile, Store, feed_lock, import_file
    from twlookup.platform.store.migrate import upgrade

    feeds = _feeds()
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
    settings = _settings()
    upgrade(settings.database_url)
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
    feeds = _feeds()
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
    for feed in _feeds().values():
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


def cmd_refresh(args: argparse.Namespace) -> int:
    from twlookup.platform.feeds.run import Refresher
    from twlookup.platform.store.migrate import upgrade

    if args.list:
        print(_feed_table())
        return 0
    feeds = _pick_feeds(args.feeds)
    settings = _settings()
    upgrade(settings.database_url)
    outcomes = Refresher.from_settings(settings).refresh_many(feeds, force=args.force)
    for outcome in outcomes:
        print(outcome.line(), file=sys.stderr if outcome.failed else sys.stdout)
    return 1 if any(o.failed for o in outcomes) else 0


def cmd_scheduler(args: argparse.Namespace) -> int:
    import logging
    import signal
    import threading

    from twlookup.platform.feeds.run import Refresher
    from twlookup.platform.feeds.schedule import Scheduler
    from twlookup.platform.store.migrate import upgrade

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = _settings()
    upgrade(settings.database_url)
    scheduler = Scheduler.from_settings(settings, _feeds().values(), Refresher.from_settings(settings))
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
