"""The store's table of model lifecycle records (`model_lifecycle.Model`), and the catalogue read
from it. The models service seeds and imports it; the models service and the glossary each keep
their own cached catalogue of it (`read_catalog` as the loader of a `Reference` of their own)."""

from __future__ import annotations

from sqlalchemy import String, select
from sqlalchemy.orm import Session, mapped_column

from twlookup.domain.model_lifecycle import Catalog, Model
from twlookup.platform.store.record_tables import record_table

# provider and kind keep the longer columns they were created with (the Literal's longest value is
# shorter), so a new provider or kind needs no migration
ModelRow = record_table(
    Model,
    "models_model",
    override={
        "provider": mapped_column(String(40), nullable=False, index=True),
        "kind": mapped_column(String(30), nullable=False),
    },
)


def read_catalog(session: Session) -> Catalog:
    return Catalog({r.id: Model.model_validate(r) for r in session.scalars(select(ModelRow))})
