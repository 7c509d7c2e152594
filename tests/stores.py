"""The test stores: one seeded template per test process (tests and modules get copies), and,
under pytest-xdist, each worker's own PostgreSQL and Redis test databases.

A helper module rather than conftest.py, so that a test module importing it at import time (the
schemathesis tests build their app then) shares the one template with the fixtures."""

from __future__ import annotations

import atexit
import os
import shutil
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from sqlalchemy import inspect, text

from twlookup.cli import DEFAULT_DATA, ensure_ready
from twlookup.platform.store import engine as store_engine

_template: Path | None = None


def seeded_template() -> Path:
    """The process's template store, migrated and seeded on first use; removed when it exits."""
    global _template
    if _template is None:
        folder = Path(tempfile.mkdtemp(prefix="twlookup-template-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        ensure_ready(f"sqlite:///{folder / 'twlookup.db'}", DEFAULT_DATA)
        _template = folder / "twlookup.db"
    return _template


def copy_store(template: Path, folder: Path) -> str:
    """A private copy of the seeded template store in `folder`, as a database URL."""
    target = folder / "twlookup.db"
    with closing(sqlite3.connect(template)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)  # the template is in WAL mode: a plain file copy could miss its last writes
    return f"sqlite:///{target}"


def empty_store(url: str) -> str:
    """Drop every table of the database at `url` (PostgreSQL: with what depends on it); `url` back."""
    engine = store_engine.make_engine(url)
    with engine.begin() as conn:
        for table in reversed(inspect(conn).get_table_names()):
            conn.execute(text(f'drop table if exists "{table}" cascade'))
    engine.dispose()
    return url


def worker_services(n: int) -> None:
    """Point TWLOOKUP_TEST_DATABASE_URL and TWLOOKUP_TEST_REDIS_URL at pytest-xdist worker n's own
    databases: the PostgreSQL database's name + `_gw<n>` (created when missing) and the Redis
    database's number + n."""
    pg = os.environ.get("TWLOOKUP_TEST_DATABASE_URL")
    if pg:
        from sqlalchemy import create_engine, make_url, text

        url = make_url(store_engine.normalize_url(pg))
        name = f"{url.database}_gw{n}"
        admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                if not conn.scalar(text("select 1 from pg_database where datname = :n"), {"n": name}):
                    conn.execute(text(f'create database "{name}"'))
        finally:
            admin.dispose()
        os.environ["TWLOOKUP_TEST_DATABASE_URL"] = url.set(database=name).render_as_string(hide_password=False)
    redis = os.environ.get("TWLOOKUP_TEST_REDIS_URL")
    if redis:
        parts = urlsplit(redis)
        db = int(parts.path.strip("/") or 0) + n
        if db > 15:
            raise pytest.UsageError(f"TWLOOKUP_TEST_REDIS_URL: worker {n} would need Redis database {db} (0-15)")
        os.environ["TWLOOKUP_TEST_REDIS_URL"] = parts._replace(path=f"/{db}").geturl()
