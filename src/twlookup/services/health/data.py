"""Seeding the health documents from data/health/*.yaml, and the cached, parsed reference data."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.records import DataFileError
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.health.logic.rules import HealthData, build
from twlookup.services.health.records import TOPICS
from twlookup.services.health.tables import DocumentRow


def read_documents(folder: Path) -> dict[str, dict[str, Any]]:
    return {topic: load_yaml(folder / f"{topic}.yaml") for topic in TOPICS}


def seed_health(session: Session, data_dir: Path) -> int:
    folder = data_dir / "health"
    docs = read_documents(folder)
    documents = check(docs, folder).documents
    rows = [DocumentRow(body=_jsonable(docs[topic]), **documents[topic].model_dump()) for topic in TOPICS]
    return replace_rows(session, DocumentRow, rows)


def _jsonable(value: Any) -> Any:
    """YAML dates become ISO strings so the document fits a JSON column on every database."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, date):
        return value.isoformat()
    return value


def _load(session: Session) -> HealthData:
    docs = {row.topic: row.body for row in session.scalars(select(DocumentRow))}
    missing = [t for t in TOPICS if t not in docs]
    if missing:
        raise RuntimeError(f"health documents {missing} are not seeded; run `twlookup seed`")
    return build(docs)


def check(docs: dict[str, dict[str, Any]], folder: Path) -> HealthData:
    """The documents parsed as the service will read them: a bad record fails here, when seeding."""
    paths = {t: folder / f"{t}.yaml" for t in TOPICS}
    try:
        return build({t: _jsonable(d) for t, d in docs.items()}, paths)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, DataFileError):
            raise
        raise DataFileError(f"{folder}: a health document lacks or misstates {exc}") from None


def from_directory(folder: Path) -> HealthData:
    """The same parsed data straight from the YAML files (tests, and a check of the files)."""
    return check(read_documents(folder), folder)


HEALTH: Reference[HealthData] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_health,)
