"""Alembic, driven from code so that `twlookup db upgrade` and `serve` need no alembic.ini.

A store that an upgrade left at the head of these migrations records so (`schema_fingerprint` in
store_meta: a digest of the migration files and the revisions the store is at); a later start
that finds the same record skips Alembic altogether, which saves loading it on every start.
Any change to the migrations, or a store moved to another revision by hand, runs Alembic again.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from sqlalchemy import select, text
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


def upgrade(url: str) -> None:
    store_engine.configure(url)
    if is_current():
        return
    from alembic import command

    command.upgrade(alembic_config(url), "heads")
    with store_engine.session() as session, session.begin():
        revisions: list[str] = list(session.execute(text("select version_num from alembic_version")).scalars())
        session.merge(StoreMeta(key=SCHEMA_KEY, value=_record(revisions)))
