"""Store table of the health service: one row per reference document in data/health/."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, String
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class DocumentRow(Provenance, Base):
    """One YAML document (counseling, glp1, cancer_diet, screening, monitoring) as loaded, with the
    provenance of its `records.Document`. A stored document, written out: its records (bands,
    targets, rules) are validated from `body` by `logic.rules.build` when seeding and reading, so no
    record's field is a column here."""

    __tablename__ = "health_document"

    topic: Mapped[str] = mapped_column(String(40), primary_key=True)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
