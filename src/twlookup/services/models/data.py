"""Seeding the models table from data/models/models.yaml, and the cached catalog."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.models.logic import Catalog, Model
from twlookup.services.models.tables import ModelRecord


def seed_models(session: Session, data_dir: Path) -> int:
    doc = load_yaml(data_dir / "models" / "models.yaml")
    rows = [
        ModelRecord(
            id=item["id"],
            provider=item["provider"],
            name=item["name"],
            kind=item["kind"],
            aliases=list(item.get("aliases") or []),
            deprecated_on=item.get("deprecated_on"),
            retirement_date=item.get("retirement_date"),
            replacement=item.get("replacement"),
            note=item.get("note"),
            source=item["source"],
            source_title=item.get("source_title"),
            checked=item.get("checked", doc["checked"]),
        )
        for item in doc["models"]
    ]
    return replace_rows(session, ModelRecord, rows)


def _load(session: Session) -> Catalog:
    models = {
        r.id: Model(
            r.id, r.provider, r.name, r.kind, tuple(r.aliases or ()), r.deprecated_on, r.retirement_date,
            r.replacement, r.note, r.source, r.source_title, r.checked,
        )  # fmt: skip
        for r in session.scalars(select(ModelRecord))
    }
    return Catalog(models)


CATALOG: Reference[Catalog] = Reference(_load)
