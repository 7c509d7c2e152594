"""Seeding the models table from data/models/models.yaml, and the cached catalog."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.records import DataFileError, load_records, to_row
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.models.logic import Catalog, note_conflicts
from twlookup.services.models.records import Model
from twlookup.services.models.tables import ModelRecord


def seed_models(session: Session, data_dir: Path) -> int:
    path = data_dir / "models" / "models.yaml"
    records = load_records(path, Model, "models")
    conflicts = [f"{r.id}: {problem}" for r in records for problem in note_conflicts(r)]
    if conflicts:  # an answer must never say "active" next to a note saying "shut down"
        raise DataFileError(f"{path}: notes contradict their records' dates: " + "; ".join(conflicts))
    rows = [to_row(r, ModelRecord) for r in records]
    # models imported from the catalogue feed (models.claude) that the file does not curate stay
    from twlookup.services.models.feeds import PAGE

    curated = {r.id for r in records}
    kept = [
        ModelRecord(**{c.key: getattr(row, c.key) for c in ModelRecord.__table__.columns})
        for row in session.scalars(select(ModelRecord).where(ModelRecord.source == PAGE))
        if row.id not in curated
    ]
    return replace_rows(session, ModelRecord, rows + kept) - len(kept)


def _load(session: Session) -> Catalog:
    return Catalog({r.id: Model.model_validate(r) for r in session.scalars(select(ModelRecord))})


CATALOG: Reference[Catalog] = Reference(_load)
