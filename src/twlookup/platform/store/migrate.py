"""Alembic, driven from code so that `twlookup db upgrade` and `serve` need no alembic.ini.

A store that an upgrade left at the head of these migrations records so (`schema_fingerprint` in
store_meta: a digest of the migration files and the revisions the store is at); a later start
that finds the same record skips Alembic altogether, which saves loading it on every start.
Any change to the migrations, or a store moved to another revision by hand, runs Alembic again.

A store with no tables at all is not taken through every migration when the caller says how to
declare every table (`declare_tables`, which is `twlookup.services.load_tables`; the platform
knows no service): the tables the code declares are created at once and the store is stamped at
the migrations' head (Alembic's recipe for building an up-to-date database from scratch). On an
empty store the migrations' data steps have nothing to move, and a test checks that both ways give
the same schema. The head is read from the migration files' `revision` and `down_revision` lines,
so a new store needs no Alembic at all.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import inspect, select, text
from sqlalchemy.exc import SQLAlchemyError

from twlookup.bundled import migrations_dir
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.meta import StoreMeta

if TYPE_CHECKING:
    from alembic.config import Config

SCHEMA_KEY = "schema_fingerprint"


def alembic_config(url: str) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    cfg.set_main_option("sqlalchemy.url", store_engine.normalize_url(url).replace("%", "%%"))
    return cfg


def migrations_digest() -> str:
    """A digest of every migration file (name and bytes)."""
    digest = hashlib.sha256()
    for path in sorted((migrations_dir() / "versions").glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _record(revisions: list[str]) -> str:
    return hashlib.sha256(f"{migrations_digest()}:{','.join(sorted(revisions))}".encode()).hexdigest()


def is_current() -> bool:
    """Whether the configured store was upgraded with exactly these migrations and is still at
    the revisions it was left at (False when it has no schema yet)."""
    try:
        with store_engine.get_engine().connect() as conn:
            revisions: list[str] = list(conn.execute(text("select version_num from alembic_version")).scalars())
            recorded = conn.execute(select(StoreMeta.value).where(StoreMeta.key == SCHEMA_KEY)).scalar()
    except SQLAlchemyError:  # no schema yet (or not ours): Alembic decides
        return False
    return bool(revisions) and recorded == _record(revisions)


# the table as Alembic creates it
ALEMBIC_VERSION = (
    "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL,"
    " CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))"
)
_REVISION = re.compile(r"^(down_revision|revision)\s*(?::[^=]*)?=\s*(.*)$", re.MULTILINE)


def migration_heads() -> list[str]:
    """The revisions no migration builds on (what `alembic heads` prints), read from the files."""
    revisions: set[str] = set()
    below: set[str] = set()
    for path in (migrations_dir() / "versions").glob("*.py"):
        for name, value in _REVISION.findall(path.read_text(encoding="utf-8")):
            named = set(re.findall(r"[\"']([0-9A-Za-z_]+)[\"']", value))
            (revisions if name == "revision" else below).update(named)
    return sorted(revisions - below)


def upgrade(url: str, declare_tables: Callable[[], object] | None = None) -> bool:
    """Bring the store to the head; True when it was empty and got every table at once (a new store)."""
    store_engine.configure(url)
    if is_current():
        return False
    if declare_tables is not None and not inspect(store_engine.get_engine()).get_table_names():
        declare_tables()
        create_at_head()
        return True
    from alembic import command

    command.upgrade(alembic_config(url), "heads")
    with store_engine.session() as session, session.begin():
        revisions: list[str] = list(session.execute(text("select version_num from alembic_version")).scalars())
        session.merge(StoreMeta(key=SCHEMA_KEY, value=_record(revisions)))
    return False


def create_at_head() -> None:
    """Create every declared table in an empty store and stamp it at the migrations' head, in one
    transaction."""
    from twlookup.platform.store.base import Base

    heads = migration_heads()
    with store_engine.get_engine().begin() as conn:
        if conn.dialect.name == "sqlite":
            # Python's sqlite3 opens a transaction before data changes only: without this, each
            # CREATE would be committed (and synced) on its own, and a creation stopped half-way
            # would leave a half-made schema that no later start finishes
            conn.exec_driver_sql("BEGIN")
        Base.metadata.create_all(conn, checkfirst=False)
        conn.execute(text(ALEMBIC_VERSION))
        for head in heads:
            conn.execute(text("insert into alembic_version (version_num) values (:v)"), {"v": head})
        conn.execute(StoreMeta.__table__.insert().values(key=SCHEMA_KEY, value=_record(heads)))
