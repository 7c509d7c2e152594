"""Idempotent upsert of every service's reference data from data/, then one version bump."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import insert, inspect
from sqlalchemy.orm import Session

from twlookup.platform.records import read_data_file
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.derived_rows import refresh_derived
from twlookup.platform.store.meta import StoreMeta, bump_version
from twlookup.startup import collector_paused

# how the search reads text (domain/search_text.py and its tables): the indexed forms are built by
# them (the files are read, not imported)
SEARCH_FORMS = tuple(Path(__file__).parents[2] / "domain" / f for f in ("search_text.py", "script_tables.py"))

# a service's seeder: upserts its reference data from the data folder; returns records written
Seeder = Callable[[Session, Path], int]


def load_yaml(path: Path) -> Any:
    return read_data_file(path)


def replace_rows(session: Session, model: type[Any], rows: Iterable[Any]) -> int:
    """Upsert by primary key and delete rows the data no longer has: the table becomes the file."""
    key_cols = [c.key for c in inspect(model).primary_key]
    wanted = {}
    for row in rows:
        wanted[tuple(getattr(row, k) for k in key_cols)] = row
    present = set()
    if not _is_empty(session, model):  # a new store's tables are: nothing to load or compare
        for existing in session.query(model).all():
            key = tuple(getattr(existing, k) for k in key_cols)
            if key in wanted:
                present.add(key)
            else:
                session.delete(existing)
        session.flush()
    new: list[dict[str, Any]] = []
    for key, row in wanted.items():
        if key in present:
            session.merge(row)  # updates the loaded row in place
        else:  # known to be new: inserted many at a time, without the unit of work's per-row cost
            new.append({k: v for k, v in vars(row).items() if not k.startswith("_sa_")})
    session.flush()
    if new:  # rows of tables that reference this one may follow in the same transaction
        session.execute(insert(model), new)
    return len(wanted)


def _is_empty(session: Session, model: type[Any]) -> bool:
    """Whether the table holds no row (in this transaction), asked without building an ORM query."""
    session.flush()
    conn = session.connection()
    table = conn.dialect.identifier_preparer.format_table(model.__table__)
    return conn.exec_driver_sql(f"SELECT 1 FROM {table} LIMIT 1").first() is None


def fingerprint(names: Iterable[str], data_dir: Path) -> str:
    """What a seed is made of: the services' names, every data file's bytes, and how the search
    reads text (a change there re-indexes the search collections)."""
    digest = hashlib.sha256()
    for path in SEARCH_FORMS:
        digest.update(path.read_bytes())
    for name in sorted(names):
        digest.update(name.encode() + b"\0")
    for path in sorted(data_dir.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(data_dir)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def seeded_fingerprint() -> str | None:
    with store_engine.session() as session:
        row = session.get(StoreMeta, "seed_fingerprint")
        return row.value if row else None


def seed(seeders: Mapping[str, Sequence[Seeder]], data_dir: Path) -> dict[str, int]:
    """Run every service's seeders (by service name: twlookup.services.load_seeders) in one
    transaction; returns records written per service."""
    with collector_paused(), store_engine.session() as session, session.begin():
        counts = run_seeders(session, seeders, data_dir)
        finish_seed(session, seeders, data_dir)
    from twlookup.platform.store.reference import Reference

    Reference.reset_all()
    return counts


def run_seeders(session: Session, seeders: Mapping[str, Sequence[Seeder]], data_dir: Path) -> dict[str, int]:
    """The seeders of these services, then the searchable forms of what they wrote."""
    counts: dict[str, int] = {}
    done: set[Seeder] = set()  # shared domain data (the Taiwan calendar) is seeded once
    for name, own in seeders.items():
        total = 0
        for seeder in own:
            if seeder not in done:
                total += seeder(session, data_dir)
                done.add(seeder)
        counts[name] = total
    refresh_derived(session, list(seeders))  # the searchable forms of what changed
    return counts


def finish_seed(session: Session, seeders: Mapping[str, Sequence[Seeder]], data_dir: Path) -> None:
    bump_version(session)
    session.merge(StoreMeta(key="seed_fingerprint", value=fingerprint(seeders, data_dir)))
    _forget_downloads(session)


def _forget_downloads(session: Session) -> None:
    """A seed may put shipped rows back over imported ones: the feeds forget the file they last
    imported (hash and validators), so the next refresh downloads and imports it again. The
    stamps stay, so an older file is still refused."""
    from sqlalchemy import update

    from twlookup.platform.store.feed_tables import FeedStateRow

    session.execute(update(FeedStateRow).values(sha256=None, etag=None, last_modified=None))


def ingest(importer: Callable[[Session, Path], int], path: Path) -> int:
    """Run one feed importer in a transaction and bump the data version so every process reloads."""
    from twlookup.platform.store.reference import group_of

    with store_engine.session() as session, session.begin():
        rows = importer(session, path)
        refresh_derived(session, [group_of(importer.__module__) or ""])
        bump_version(session)
    from twlookup.platform.store.reference import Reference

    Reference.reset_all()
    return rows
