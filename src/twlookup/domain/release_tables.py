"""Store pieces the release trackers share: a JSON column for nested records (delays, important
dates, broadcasts) that stores dates as ISO text, the provenance-carrying item columns, and the
table of items imported from Wikidata (domain.release_import)."""

from __future__ import annotations

from datetime import date
from typing import Any

from pydantic_core import to_jsonable_python
from sqlalchemy import JSON, Date, String, Text
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from twlookup.domain.knowledge_base import KnowledgeCache  # noqa: F401  (the lookup cache table)
from twlookup.platform.store.base import Base, Provenance


class RecordJSON(TypeDecorator[Any]):
    """JSON holding nested records: dates and models are stored as their JSON form; records are
    rebuilt from it by the record model (`Model.model_validate(row)`)."""

    impl = JSON
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Any) -> Any:
        return to_jsonable_python(value)


class TrackedItemColumns(Provenance):
    """Columns of `release_tracker.TrackedItem`: id, names, aliases, note, provenance."""

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    name: Mapped[str] = mapped_column(String(300))
    name_zh: Mapped[str | None] = mapped_column(String(300), default=None)
    aliases: Mapped[list[str]] = mapped_column(RecordJSON, default=list)
    note: Mapped[str | None] = mapped_column(Text, default=None)


class ImportedRelease(Base):
    """One item a release tracker imported from Wikidata: its record as the service's model holds it."""

    __tablename__ = "release_import"

    service: Mapped[str] = mapped_column(String(20), primary_key=True)
    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    qid: Mapped[str] = mapped_column(String(20), index=True)
    imported: Mapped[date] = mapped_column(Date)
    record: Mapped[dict[str, Any]] = mapped_column(RecordJSON)
