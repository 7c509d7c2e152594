"""The `twlookup` command: serve, migrate, seed, and the parser of every subcommand (the feed,
ledger and review commands are in cli_feeds, cli_ledger and cli_review)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from twlookup.bundled import data_dir
from twlookup.cli_feeds import add_feed_commands
from twlookup.cli_feeds import declared_feeds as _feeds  # the tests replace it here
from twlookup.cli_ledger import add_ledger_commands
from twlookup.cli_review import add_review_commands

if TYPE_CHECKING:
    from twlookup.settings import ReadSettings, Settings

DEFAULT_DATA = data_dir()


def _settings() -> Settings:  # imported lazily so that --help is instant; the tests replace it here
    from twlookup.settings import get_settings

    return get_settings()


def cmd_serve(args: argparse.Namespace, read_settings: ReadSettings) -> int:
    from twlookup.startup import pause_gc, resume_gc

    pause_gc()  # until create_app has built the app (see twlookup/startup.py)
    from twlookup.platform.store.engine import StoreTimeouts
    from twlookup.platform.store.ready import StoreUnreachable, wait_for_store

    _serve_on(args.host, args.port)
    settings = read_settings()
    try:
        wait_for_store(settings.database_url, settings.startup_wait_seconds, StoreTimeouts.from_settings(settings))
    except StoreUnreachable as exc:
        print(f"twlookup: {exc}", file=sys.stderr)
        return 1
    workers = args.workers or settings.workers
    # a seed's memory goes back when it is done: with several workers this process only
    # supervises, and a seed runs in a child interpreter of its own; with one, it runs in a forked
    # copy of this process made after the services' tables and data modules are imported
    built: list[Any] = []  # the app, when it was built while a copy of this process seeded the store
    ensure_ready(
        settings.database_url,
        args.data,
        seed_in_child=workers > 1,
        seed_in_copy=workers == 1,
        meanwhile=lambda: built.append(_build_app()),
    )
    import uvicorn  # (after the seed's fork: the copy does not need it; `_build_app` imported it meanwhile)

    from twlookup.platform.server_protocol import PROTOCOL

    if workers > 1:  # the app is built in each worker process, not in this one
        resume_gc()
    refresh, why = refresh_choice(args.refresh, settings.refresh, workers)
    print(f"twlookup: {why}", file=sys.stderr)
    if refresh:  # the schedule runs in this process beside the server (one per store)
        start_refresh(settings, wait_for_app=workers == 1)
    uvicorn.run(
        built[0] if built else "twlookup.app:serving_app",
        factory=not built,
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


def _build_app() -> Any:
    import uvicorn  # noqa: F401  (the server too, while a copy of this process seeds the store)

    import twlookup.platform.server_protocol  # noqa: F401
    from twlookup.app import serving_app

    return serving_app()


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


def ensure_ready(
    url: str,
    data: Path,
    seed_in_child: bool = False,
    seed_in_copy: bool = False,
    meanwhile: Callable[[], object] | None = None,
) -> None:
    """Migrate, and seed when the store is empty or older than data/ and the service list,
    so that a new user, or one who pulled new data or a new service, needs nothing else.
    `seed_in_child`: the seed runs in a short-lived process of its own (under this one's lock).
    `seed_in_copy`: it runs in a forked copy of this process (`_migrate_and_seed_in_copy`), for a
    process about to serve with no other thread yet, which runs `meanwhile` while the copy works
    (building the app reads nothing of the store); a store only this process can see (in-memory
    SQLite) is seeded here, and `meanwhile` is not run."""
    from twlookup.platform.store import engine
    from twlookup.platform.store.lock import maintenance_lock
    from twlookup.platform.store.migrate import is_current
    from twlookup.platform.store.seed import fingerprint, seeded_fingerprint
    from twlookup.services import IMPLEMENTED

    with maintenance_lock(url):  # processes started together take turns; the later ones find it done
        engine.configure(url)
        # the service names, not the services: a store that is ready costs no service import here
        if is_current() and seeded_fingerprint() == fingerprint(IMPLEMENTED, data):
            return
        if seed_in_child:
            counts = _migrate_and_seed_in_child(url, data)
        elif seed_in_copy and _shared(url):
            counts = _migrate_and_seed_in_copy(url, data, meanwhile)
        else:
            counts = _migrate_and_seed(url, data)
        if counts:
            print(f"twlookup: seeded the store from {data}: {counts}", file=sys.stderr)


def _migrate_and_seed(url: str, data: Path) -> dict[str, int]:
    """Migrate, and seed unless the store holds this data already (the seed's counts, else {}).
    The data files are parsed on the other core while the services are imported."""
    from twlookup.platform.data_prefetch import prefetched

    with prefetched(data):
        return _upgrade_and_seed(url, data)


def _upgrade_and_seed(url: str, data: Path) -> dict[str, int]:
    """Migrate, and seed unless the store holds this data already; a new SQLite store is seeded by
    two processes (platform/store/seed_shared.py)."""
    from twlookup.platform.store.seed import fingerprint, seeded_fingerprint
    from twlookup.services import IMPLEMENTED, upgrade_store

    new = upgrade_store(url)
    if not new and seeded_fingerprint() == fingerprint(IMPLEMENTED, data):  # (a store made just now holds none)
        return {}
    return _seed(data, url if new else None)


def _shared(url: str) -> bool:
    """Whether another process sees the same store (not an in-memory SQLite database)."""
    from twlookup.platform.store.engine import sqlite_file

    return not url.startswith("sqlite") or sqlite_file(url) is not None


def _migrate_and_seed_in_copy(url: str, data: Path, meanwhile: Callable[[], object] | None = None) -> dict[str, int]:
    """`_migrate_and_seed` in a forked copy of this process, made once what the seed needs (the
    services' tables and data modules) is imported: the copy imports nothing again, what the seed
    reads and builds (some 20 MB) goes when it exits, and meanwhile this process imports the app
    and runs `meanwhile` (the services load after the start: twlookup/service_slots.py). The data files are parsed by
    the prefetch child (started before the imports) and read by the copy."""
    import contextlib
    import json
    import os
    import traceback

    from twlookup.platform.data_prefetch import prefetched
    from twlookup.platform.store import engine
    from twlookup.services import load_seeders, load_tables

    with prefetched(data):
        load_tables()
        load_seeders()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the copy: whatever happens, it ends here and never returns into the caller
            status = 1
            try:
                os.close(read)
                try:
                    engine.get_engine().dispose(close=False)  # the pooled connections stay the parent's
                    out = json.dumps(_upgrade_and_seed(url, data)).encode()
                    status = 0
                except BaseException:
                    out = traceback.format_exc().encode()
                with contextlib.suppress(BaseException), os.fdopen(write, "wb") as fh:
                    fh.write(out)  # a parent that is gone cannot be told
            finally:
                os._exit(status)
        os.close(write)
        try:
            import twlookup.app  # noqa: F401  (the services are loaded after the start: twlookup/service_slots.py)

            if meanwhile is not None:
                meanwhile()
        finally:
            with os.fdopen(read, "rb") as fh:
                out = fh.read()
            _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"the store could not be migrated and seeded:\n{out.decode(errors='replace')[-4000:]}")
    return dict(json.loads(out))


def _migrate_and_seed_in_child(url: str, data: Path) -> dict[str, int]:
    """`_migrate_and_seed` in a child interpreter (the caller holds the maintenance lock): the
    migrations and the seed import every service, which a supervisor does not need."""
    import json
    import subprocess

    code = (  # (the collector off for the whole short-lived child: twlookup/startup.py)
        "import gc; gc.disable(); import json, sys; from pathlib import Path; from twlookup.cli import _migrate_and_seed;"
        " print(json.dumps(_migrate_and_seed(sys.argv[1], Path(sys.argv[2]))))"
    )
    done = subprocess.run([sys.executable, "-c", code, url, str(data)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the store could not be migrated and seeded:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _seed(data: Path, new_store: str | None = None) -> dict[str, int]:
    """Seed the configured store; `new_store`: its URL, when its tables were created just now (a
    new SQLite store is then seeded by two processes: platform/store/seed_shared.py)."""
    from twlookup.platform.store.seed import seed
    from twlookup.platform.store.seed_shared import seed_shared
    from twlookup.services import SEED_HELPER, load_seeders

    if new_store is not None:
        return seed_shared(load_seeders(), data, new_store, SEED_HELPER)
    return seed(load_seeders(), data)


def cmd_db_upgrade(_args: argparse.Namespace, read_settings: ReadSettings) -> int:
    from twlookup.services import upgrade_store

    upgrade_store(read_settings().database_url)
    print("twlookup: store migrated to the latest schema")
    return 0


def cmd_seed(args: argparse.Namespace, read_settings: ReadSettings) -> int:
    from twlookup.platform.data_prefetch import prefetched
    from twlookup.platform.records import DataFileError
    from twlookup.platform.store.lock import maintenance_lock
    from twlookup.services import upgrade_store

    url = read_settings().database_url
    with maintenance_lock(url), prefetched(args.data):  # the files parsed while the services are imported
        upgrade_store(url)
        try:
            counts = _seed(args.data)
        except DataFileError as exc:  # names the file, the record and the field; nothing was written
            print(f"twlookup: seed failed: {exc}", file=sys.stderr)
            return 1
    for name, count in counts.items():
        print(f"{name}: {count} records")
    return 0


def _group(sub: Any, name: str, help: str, description: str) -> Any:
    """A command word whose subcommands do the work (`db upgrade`, `ledger fund`): its subparsers."""
    group = sub.add_parser(name, help=help, description=description)
    return group.add_subparsers(dest=f"{name}_command", required=True, metavar="SUBCOMMAND")


def build_parser() -> argparse.ArgumentParser:
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

    db_sub = _group(sub, "db", "database schema commands", "Database schema commands.")
    up = db_sub.add_parser(
        "upgrade",
        help="bring the store (TWLOOKUP_DATABASE_URL or DATABASE_URL) to the latest schema: Alembic's"
        " migrations, or every table at once in an empty store",
    )
    up.set_defaults(func=cmd_db_upgrade)

    seed = sub.add_parser(
        "seed",
        help="load reference data from data/ into the store (idempotent; running processes see it within seconds)",
        description="Upsert every service's reference data from the data folder; rows no longer in the files are removed.",
    )
    seed.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"data folder (default {DEFAULT_DATA})")
    seed.set_defaults(func=cmd_seed)

    add_feed_commands(sub)
    add_ledger_commands(
        _group(
            sub,
            "ledger",
            "the local USDC ledger of the local facilitator (moves no real money)",
            "Balances of the in-process test ledger that local-mode x402 payments settle on.",
        )
    )
    add_review_commands(
        _group(
            sub,
            "review",
            "operators: review public submissions (contributions, shares, comments, votes)",
            "Public submissions are public only once approved. Decisions are recorded with the operator and time.",
        )
    )
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
    return int(args.func(args, _settings))  # each command reads the settings through it, if it needs them
