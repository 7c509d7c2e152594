"""Seeding the models table from data/models/models.yaml, importing the Claude feed into it, and
the cached catalogue."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.domain.model_lifecycle import Catalog, Model
from twlookup.domain.model_lifecycle_tables import ModelRow, read_catalog
from twlookup.platform.records import DataFileError, load_records, to_row
from twlookup.platform.schemas import today_taipei
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.models.logic import note_conflicts
from twlookup.services.models.parsers import PAGE, parse


def seed_models(session: Session, data_dir: Path) -> int:
    path = data_dir / "models" / "models.yaml"
    records = load_records(path, Model, "models")
    conflicts = [f"{r.id}: {problem}" for r in records for problem in note_conflicts(r)]
    if conflicts:  # an answer must never say "active" next to a note saying "shut down"
        raise DataFileError(f"{path}: notes contradict their records' dates: " + "; ".join(conflicts))
    rows = [to_row(r, ModelRow) for r in records]
    # models imported from the catalogue feed (models.claude) that the file does not curate stay
    curated = {r.id for r in records}
    kept = [
        to_row(Model.model_validate(row), ModelRow)
        for row in session.scalars(select(ModelRow).where(ModelRow.source == PAGE))
        if row.id not in curated
    ]
    return replace_rows(session, ModelRow, rows + kept) - len(kept)


def import_claude(session: Session, path: Path) -> int:
    """`twlookup ingest models.claude FILE`: add or update the Claude models that are not curated."""
    records = parse(path.read_bytes(), today_taipei())
    count = 0
    for record in records:
        problems = note_conflicts(record)
        if problems:
            raise ValueError(f"{record.id}: " + "; ".join(problems))
        row = session.get(ModelRow, record.id)
        if row is not None and row.source != record.source:
            continue  # a curated record (citing the provider) wins over the catalogue
        session.merge(to_row(record, ModelRow))
        count += 1
    return count


def claude_held(session: Session) -> date | None:
    return session.scalar(select(func.max(ModelRow.checked)).where(ModelRow.source == PAGE))


def claude_holds(session: Session) -> str | None:
    n = session.scalar(select(func.count()).select_from(ModelRow).where(ModelRow.source == PAGE)) or 0
    curated = (
        session.scalar(
            select(func.count()).select_from(ModelRow).where(ModelRow.provider == "anthropic", ModelRow.source != PAGE)
        )
        or 0
    )
    return f"{n} Claude models imported from endoflife.date, {curated} curated ones (which win over it)"


def _load(session: Session) -> Catalog:  # defined here, so that the reference is the models service's
    return read_catalog(session)


CATALOG: Reference[Catalog] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_models,)
