"""Store pieces the release trackers share: a JSON column for nested records (delays, important
dates, broadcasts) that stores dates as ISO text, and the provenance-carrying item columns."""

from __future__ import annotations

from typing import Any

from pydantic_core import to_jsonable_python
from sqlalchemy import JSON, String, Text
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from twlookup.domain.knowledge_base import KnowledgeCache  # noqa: F401  (the lookup cache table)
from twlookup.platform.store.base import Provenance


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
