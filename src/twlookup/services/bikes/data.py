"""Seeding the bikes tables from data/bikes/, and the cached catalogue of models and their facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.records import DataFileError, load_records, to_row
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.bikes.records import BikeModel, Maintenance, Part, Sale
from twlookup.services.bikes.tables import MaintenanceRow, ModelRow, PartRow, SaleRow


def seed_bikes(session: Session, data_dir: Path) -> int:
    folder = data_dir / "bikes"
    models = load_records(folder / "models.yaml", BikeModel, "models", label="slug")
    slugs = {m.slug for m in models}
    maintenance = load_records(folder / "maintenance.yaml", Maintenance, "maintenance", label="slug")
    parts = load_records(folder / "parts.yaml", Part, "parts", label="number")
    sales = load_records(folder / "sales.yaml", Sale, "sales", label="slug")
    for name, items in (("maintenance", maintenance), ("sales", sales)):
        for item in items:
            if item.slug not in slugs:
                raise DataFileError(f"{folder / (name + '.yaml')}: record {item.slug!r}: field slug: no such model")
    for part in parts:
        if set(part.fits) - slugs:
            raise DataFileError(
                f"{folder / 'parts.yaml'}: record {part.number!r}: field fits: unknown {sorted(set(part.fits) - slugs)}"
            )
    rows = [to_row(m, ModelRow, position=i, spec=m.spec.model_dump(exclude_none=True)) for i, m in enumerate(models)]
    count = replace_rows(session, ModelRow, rows)
    count += replace_rows(session, MaintenanceRow, [to_row(m, MaintenanceRow, id=i) for i, m in enumerate(maintenance)])
    count += replace_rows(session, PartRow, [to_row(p, PartRow) for p in parts])
    count += replace_rows(session, SaleRow, [to_row(s, SaleRow, id=i) for i, s in enumerate(sales)])
    return count


@dataclass
class Catalogue:
    models: list[BikeModel]
    maintenance: list[Maintenance]
    parts: list[Part]
    sales: list[Sale]
    by_slug: dict[str, BikeModel] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_slug = {m.slug: m for m in self.models}


def _load(session: Session) -> Catalogue:
    return Catalogue(
        models=[BikeModel.model_validate(r) for r in session.scalars(select(ModelRow).order_by(ModelRow.position))],
        maintenance=[
            Maintenance.model_validate(r) for r in session.scalars(select(MaintenanceRow).order_by(MaintenanceRow.id))
        ],
        parts=[Part.model_validate(r) for r in session.scalars(select(PartRow).order_by(PartRow.number))],
        sales=[Sale.model_validate(r) for r in session.scalars(select(SaleRow).order_by(SaleRow.id))],
    )


CATALOGUE: Reference[Catalogue] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_bikes,)
