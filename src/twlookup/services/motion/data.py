"""Seeding the motion store from data/motion/ and the cached catalogue built from it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from twlookup.platform.records import Record, load_records, to_row
from twlookup.platform.schemas import today_taipei
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.motion.parsers import parse_npm_latest, read_web_features
from twlookup.services.motion.records import A11yRecord, EasingRecord, LibraryRecord, SupportRecord
from twlookup.services.motion.tables import A11yRow, EasingRow, LibraryRow, SupportRow

if TYPE_CHECKING:
    from twlookup.platform.store.record_tables import DerivedRow

R = TypeVar("R", bound=Record)

FILES: dict[type[Record], tuple[str, str]] = {  # the data file of each kind, and the key of its list
    EasingRecord: ("easings.yaml", "easings"),
    SupportRecord: ("support.yaml", "features"),
    LibraryRecord: ("libraries.yaml", "libraries"),
    A11yRecord: ("a11y.yaml", "items"),
}
TABLES: dict[type[Record], type[DerivedRow]] = {
    EasingRecord: EasingRow,
    SupportRecord: SupportRow,
    LibraryRecord: LibraryRow,
    A11yRecord: A11yRow,
}


def seed_motion(session: Session, data_dir: Path) -> int:
    count = 0
    for model, (name, key) in FILES.items():
        table = TABLES[model]
        records = load_records(data_dir / "motion" / name, model, key)
        count += replace_rows(session, table, (to_row(r, table) for r in records))
    return count


def import_support(session: Session, path: Path) -> int:
    """`twlookup ingest motion.support data.json`: replace the support rows from web-features."""
    return _replace(session, SupportRow, read_web_features(path, today_taipei()))


def import_libraries(session: Session, path: Path) -> int:
    """`twlookup ingest motion.libraries FILE`: library rows from a JSON list of npm registry
    documents (`npm view --json NAME` or registry.npmjs.org/NAME/latest); notes are kept by name."""
    try:
        docs = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    old = {row.name: LibraryRecord.model_validate(row) for row in session.scalars(select(LibraryRow))}
    records = parse_npm_latest(docs, today_taipei(), {name: lib.note for name, lib in old.items()})
    # the registry's version document has no tarball size or publish time: a version already held keeps them
    records = [
        r.model_copy(update={"tarball_bytes": old[r.name].tarball_bytes, "released": old[r.name].released})
        if r.name in old and old[r.name].version == r.version
        else r
        for r in records
    ]
    kept = [lib for name, lib in old.items() if name not in {r.name for r in records}]
    return _replace(session, LibraryRow, records + kept)


def _replace(session: Session, table: Any, records: Sequence[Record]) -> int:
    session.execute(delete(table))
    session.flush()
    session.add_all(to_row(r, table) for r in records)
    return len(records)


@dataclass(frozen=True)
class Catalogue:
    easings: dict[str, EasingRecord]
    support: list[SupportRecord]
    libraries: list[LibraryRecord]
    a11y: list[A11yRecord]


def _load(session: Session) -> Catalogue:
    def records(model: type[R]) -> list[R]:
        table = TABLES[model]
        return [model.model_validate(row) for row in session.scalars(select(table).order_by(table.id))]

    easings = {e.id: e for e in records(EasingRecord)}
    return Catalogue(easings, records(SupportRecord), records(LibraryRecord), records(A11yRecord))


CATALOGUE: Reference[Catalogue] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_motion,)
