"""The bikes service's tables, each derived from its record in records.py (`record_table`): models,
maintenance, parts, sale reports, and reviewed contributions. Some columns are stored wider than
their record's values (`override`); rows of a data file keep its order (`position`, or an `id`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Integer, String
from sqlalchemy.orm import mapped_column

from twlookup.platform.store.record_tables import record_table
from twlookup.services.bikes.records import BikeModel, Contribution, Maintenance, Part, Sale


def _rows_per_model(autoincrement: bool = False) -> dict[str, Any]:
    """The layout of a table holding several rows per model: rows numbered by an `id` (in the data file's order,
    or by the store where `autoincrement`), found by the model's slug."""
    return {
        "key": (),
        "index": ("slug",),
        "extra": {"id": mapped_column(Integer, primary_key=True, autoincrement=autoincrement)},
    }


ModelRow = record_table(
    BikeModel,
    "bikes_model",
    key="slug",
    extra={"position": mapped_column(Integer, nullable=False)},
    override={"source_kind": mapped_column(String(20), nullable=True)},
)
MaintenanceRow = record_table(
    Maintenance,
    "bikes_maintenance",
    **_rows_per_model(),
    override={"item": mapped_column(String(30), nullable=False)},
)
PartRow = record_table(Part, "bikes_part", key="number")
SaleRow = record_table(
    Sale,
    "bikes_sale",
    **_rows_per_model(),
    override={"kind": mapped_column(String(10), nullable=False)},
)
ContributionRow = record_table(
    Contribution,
    "bikes_contribution",
    **_rows_per_model(autoincrement=True),
    override={
        "submission_id": mapped_column(Integer, unique=True, nullable=False),
        "kind": mapped_column(String(10), nullable=False),
    },
)
