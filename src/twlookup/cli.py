"""The `twlookup` command: serve, migrate, seed, and the parser of every subcommand (the feed,
ledger and review commands are in cli_feeds, cli_ledger and cli_review)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from twlookup.bundled import data_dir

DEFAULT_DATA = data_dir()


def _settings():  # imported lazily so that --help is instant
    from twlookup.settings import get_settings

    return get_settings()


def cmd_serve(args: argparse.Namespace) -> int:
    from twlookup.startup import pause_gc, resume_gc

    pause_gc()  # until create_app has built the app (see twlookup/startup.py)
    import uvicorn

    from twlookup.platform.server_protocol import PROTOCOL
    from twlookup.platform.store.engine import StoreTimeouts
    from twlookup.platform.store.ready import StoreUnreachable, wait_for_store

    _serve_on(args.host, args.port)
    settings = _settings()
    try:
        wait_for_store(settings.database_url, settings.startup_wait_seconds, StoreTimeouts.from_settings(settings))
    except StoreUnreachable as exc:
        print(f"twlookup: {exc}", file=sys.stderr)
        return 1
    workers = args.workers or settings.workers
    # with several workers this process only supervises: a seed runs in a child process of its
    # own, whose memory goes back when it exits (one worker builds the app here and needs the
    # service modules the seed imports anyway)
    ensure_ready(settings.database_url, args.data, seed_in_child=workers > 1)
    if workers > 1:  # the app is built in each worker process, not in this one
        resume_gc()
    refresh, why = refresh_choice(args.refresh, settings.refresh, workers)
    print(f"twlookup: {why}", file=sys.stderr)
    if refresh:  # the schedule runs in this process beside the server (one per store)
        start_refresh(settings, wait_for_app=workers == 1)
    uvicorn.run(
        "twlookup.app:serving_app",
        factory=True,
        host=args.host or settings.host,
        port=args.port or settings.port,
        workers=workers,
        log_level=args.log_level,
        access_log=not args.no_access_log,
        proxy_headers=False,
        timeout_keep_alive=int(settings.keep_alive_seconds),
        # httptools with the bounds uvicorn lacks (head size and time, body time, connections), each
        # refusal a problem; no websockets (the app has none)
        http=PROTOCOL,
        ws="none",
    )
    return 0


def refresh_choice(flag: bool | None, setting: bool | None, workers: int) -> tuple[bool, str]:
    """Whether `serve` refreshes the feeds in the background, and the log line that says so:
    --refresh/--no-refresh, else TWLOOKUP_REFRESH, else on with one worker and off with more."""
    if flag is not None or setting is not None:
        on = flag if flag is not None else setting
        source = (
            ("--refresh" if on else "--no-refresh") if flag is not None else f"TWLOOKUP_REFRESH={'on' if on else 'off'}"
        )
    elif workers > 1:
        return False, (
            f"{workers} workers: the live feeds are not refreshed by this server (one scheduler per store); run "
            "`twlookup scheduler` beside it, or pass --refresh to run the schedule in this process"
        )
    else:
        on, source = True, "the default with one worker; --no-refresh or TWLOOKUP_REFRESH=off turns it off"
    if on:
        return True, f"refreshing the live feeds in the background at their cadences ({source})"
    return False, f"the live feeds are not refreshed by this server ({source}); `twlookup scheduler` refreshes them"


def start_refresh(settings: Any, delay: float = 2.0, wait_for_app: bool = True) -> Any:
    """The feed schedule in a daemon thread of this process. Nothing here waits on the network: the
    feeds are loaded and the first pass starts in the thread, `delay` seconds after this process has
    built the app (`wait_for_app`; a multi-worker parent builds none); each pass that could not reach
    some feed ends with one warning line naming them."""
    import logging

    from twlookup.platform.feeds.run import Refresher
    from twlookup.platform.feeds.schedule import Scheduler, start_thread
    from twlookup.startup import app_built

    feeds_log = logging.getLogger("twlookup.feeds")
    if not feeds_log.handlers:  # uvicorn configures only its own loggers: say the warnings ourselves
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        feeds_log.addHandler(handler)
        feeds_log.setLevel(logging.WARNING)

    def scheduler() -> Scheduler:
        return Scheduler.from_settings(settings, _feeds().values(), Refresher.from_settings(settings))

    return start_thread(scheduler, delay=delay, after=app_built if wait_for_app else None)


def _serve_on(host: str | None, port: int | None) -> None:
    """`--host`/`--port` become the settings TWLOOKUP_HOST/TWLOOKUP_PORT of this process and of
    its workers (which build the app from the environment), so what the app says of its own
    address (the MCP origins it allows by default) is where it listens."""
    import os

    from twlookup.settings import get_settings

    if host:
        os.environ["TWLOOKUP_HOST"] = host
    if port:
        os.environ["TWLOOKUP_PORT"] = str(port)
    get_settings.cache_clear()


def ensure_ready(url: str, data: Path, seed_in_child: bool = False) -> None:
    """Migrate, and seed when the store is empty or older than data/ and the service list,
    so that a new user, or one who pulled new data or a new service, needs nothing else.
    `seed_in_child`: the seed runs in a short-lived process of its own (under this one's lock)."""
    from twlookup.platform.store.lock import maintenance_lock
    from twlookup.platform.store.migrate import upgrade
    from twlookup.platform.store.seed import fingerprint, seeded_fingerprint
    from twlookup.services import IMPLEMENTED

    with maintenance_lock(url):  # processes started together take turns; the later ones find it done
        if seed_in_child:
            from twlookup.platform.store import engine
            from twlookup.platform.store.migrate import is_current

            engine.configure(url)
            # the service names, not the services: a store that is ready costs no service import here
            if is_current() and seeded_fingerprint() == fingerprint(IMPLEMENTED, data):
                return
            counts = _migrate_and_seed_in_child(url, data)
        else:
            upgrade(url)
            if seeded_fingerprint() == fingerprint(IMPLEMENTED, data):
                return
            counts = _seed(data)
        if counts:
            print(f"twlookup: seeded the store from {data}: {counts}", file=sys.stderr)


def _migrate_and_seed_in_child(url: str, data: Path) -> dict[str, int]:
    """Migrate, and seed if needed, in a child interpreter (the caller holds the maintenance
    lock): the migrations and the seed import every service, which a supervisor does not need.
    The seed's counts, or {} when the store was seeded already."""
    import json
    import subprocess

    code = (
        "import json, sys; from pathlib import Path; from twlookup.services import IMPLEMENTED;"
        " from twlookup.platform.store.migrate import upgrade;"
        " from twlookup.platform.store.seed import fingerprint, seeded_fingerprint;"
        " from twlookup.cli import _seed; data = Path(sys.argv[2]); upgrade(sys.argv[1]);"
        " done = seeded_fingerprint() == fingerprint(IMPLEMENTED, data);"
        " print(json.dumps({} if done else _seed(data)))"
    )
    done = subprocess.run([sys.executable, "-c", code, url, str(data)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the store could not be migrated and seeded:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _seed(data: Path) -> dict[str, int]:
    from twlookup.platform.store.seed import seed
    from twlookup.services import load_services

    return seed(load_services(), data)


def cmd_db_upgrade(_args: argparse.Namespace) -> int:
    from twlookup.platform.store.migrate import upgrade

    upgrade(_settings().database_url)
    print("twlookup: store migrated to the latest schema")
    return 0


def cmd_seed(args: argparse.Namespace) -> int:
    from twlookup.platform.records import DataFileError
    from twlookup.platform.store.lock import maintenance_lock
    from twlookup.platform.store.migrate import upgrade

    url = _settings().database_url
    with maintenance_lock(url):
        upgrade(url)
        try:
            counts = _seed(args.data)
        except DataFileError as exc:  # names the file, the record and the field; nothing was written
            print(f"twlookup: seed failed: {exc}", file=sys.stderr)
            return 1
    for name, count in counts.items():
        print(f"{name}: {count} records")
    return 0


def _feeds() -> dict[str, Any]:
    """Every declared feed by its full name (SERVICE.FEED)."""
    from twlookup.services import load_services

    return {f.full_name: f for s in load_services() for f in s.feeds.values()}


def build_parser() -> argparse.ArgumentParser:
    from twlookup.cli_feeds import cmd_ingest, cmd_refresh, cmd_scheduler
    from twlookup.cli_ledger import cmd_ledger_fund, cmd_ledger_show
    from twlookup.cli_review import cmd_review_decide, cmd_review_list, cmd_review_token

    parser = argparse.ArgumentParser(
        prog="twlookup",
        description=(
            "Twenty Taiwan-oriented lookup services in one ASGI process: free JSON endpoints, "
            "MCP for AI agents and x402-paid /api/pro routes. Configuration comes from TWLOOKUP_* "
            "environment variables or a .env file (see .env.example); the store and Redis also from "
            "DATABASE_URL and REDIS_URL (the TWLOOKUP_ names win). An unknown TWLOOKUP_* name is reported."
        ),
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser(
        "serve",
        help="serve every service over HTTP (migrates and seeds an empty store first)",
        description="Serve all implemented services: /<name>/api/..., /<name>/mcp, /<name>/docs, / and /healthz.",
    )
    serve.add_argument("--host", help="interface to bind (default TWLOOKUP_HOST or 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default TWLOOKUP_PORT or 8000)")
    serve.add_argument("--workers", type=int, help="worker processes (default TWLOOKUP_WORKERS or 1)")
    serve.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    serve.add_argument("--no-access-log", action="store_true", help="do not log each request")
    serve.add_argument(
        "--data", type=Path, default=DEFAULT_DATA, help="reference data folder used to seed an empty store"
    )
    serve.add_argument(
        "--refresh",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="refresh the live feeds at their cadences in the background of this process (default: on with one "
        "worker, off with more; TWLOOKUP_REFRESH=on/off). Run one scheduler per store: with several replicas "
        "or workers, --no-refresh on each and one `twlookup scheduler`",
    )
    serve.set_defaults(func=cmd_serve)

    db = sub.add_parser("db", help="database schema commands", description="Database schema commands.")
    db_sub = db.add_subparsers(dest="db_command", required=True, metavar="SUBCOMMAND")
    up = db_sub.add_parser(
        "upgrade", help="apply all Alembic migrations to the store (TWLOOKUP_DATABASE_URL or DATABASE_URL)"
    )
    up.set_defaults(func=cmd_db_upgrade)

    seed = sub.add_parser(
        "seed",
        help="load reference data from data/ into the store (idempotent; running processes see it within seconds)",
        description="Upsert every service's reference data from the data folder; rows no longer in the files are removed.",
    )
    seed.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"data folder (default {DEFAULT_DATA})")
    seed.set_defaults(func=cmd_seed)

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

    ledger = sub.add_parser(
        "ledger",
        help="the local USDC ledger of the local facilitator (moves no real money)",
        description="Balances of the in-process test ledger that local-mode x402 payments settle on.",
    )
    ledger_sub = ledger.add_subparsers(dest="ledger_command", required=True, metavar="SUBCOMMAND")
    fund = ledger_sub.add_parser("fund", help="credit ADDRESS with AMOUNT USDC on the local ledger")
    fund.add_argument("address", metavar="ADDRESS", help="0x-prefixed EVM address")
    fund.add_argument("amount", metavar="AMOUNT", help="USDC, e.g. 10 or 0.25")
    show = ledger_sub.add_parser("show", help="balance and recent transfers of ADDRESS")
    show.add_argument("address", metavar="ADDRESS")
    show.add_argument("--limit", type=int, default=20, help="transfers to list (default 20)")
    for p in (fund, show):
        p.add_argument("--network", help="CAIP-2 network (default TWLOOKUP_EVM_MAINNET, eip155:8453)")
    fund.set_defaults(func=cmd_ledger_fund)
    show.set_defaults(func=cmd_ledger_show)

    review = sub.add_parser(
        "review",
        help="operators: review public submissions (contributions, shares, comments, votes)",
        description="Public submissions are public only once approved. Decisions are recorded with the operator and time.",
    )
    review_sub = review.add_subparsers(dest="review_command", required=True, metavar="SUBCOMMAND")
    token = review_sub.add_parser("token", help="make an operator token for SERVICE and print its settings entry")
    token.add_argument("service", metavar="SERVICE")
    token.add_argument("name", metavar="NAME", help="the operator's name, recorded with each decision")
    token.set_defaults(func=cmd_review_token)
    listing = review_sub.add_parser("list", help="submissions of SERVICE (default: waiting for review)")
    listing.add_argument("service", metavar="SERVICE")
    listing.add_argument("--status", default="submitted", choices=["submitted", "approved", "rejected", "all"])
    listing.add_argument("--kind", help="only this kind")
    listing.add_argument("--limit", type=int, default=50)
    listing.set_defaults(func=cmd_review_list)
    for verb in ("approve", "reject"):
        p = review_sub.add_parser(verb, help=f"{verb} submissions of SERVICE by id")
        p.add_argument("service", metavar="SERVICE")
        p.add_argument("ids", metavar="ID", type=int, nargs="+")
        p.add_argument("--operator", required=True, help="who decides (recorded as cli:NAME)")
        p.add_argument("--reason", required=verb == "reject", help="why (required to reject; kept and shown)")
        p.set_defaults(func=cmd_review_decide)
    return parser


def warn_unknown_settings() -> None:
    """A TWLOOKUP_* variable no setting reads is named at start (with the one it probably meant),
    so that a typo does not silently leave a default in place."""
    from twlookup.services import CATALOG
    from twlookup.settings import unknown_variable_warnings

    for line in unknown_variable_warnings(entry.name for entry in CATALOG):
        print(f"twlookup: {line}", file=sys.stderr)


def _fix_clock() -> None:
    """TWLOOKUP_TODAY (setting `today`) fixes the clock for whatever the command computes."""
    from pydantic import ValidationError

    from twlookup.platform import clock

    try:
        today = _settings().today
    except ValidationError:  # a bad setting is reported by the command that reads the settings
        return
    clock.set_today(today)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    warn_unknown_settings()
    _fix_clock()
    return int(args.func(args))
