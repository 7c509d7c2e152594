"""The table of items the release trackers imported from Wikidata (domain.release_import); each
service's own table is derived from its record (`record_table`)."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import Date, String
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.domain.knowledge_base import KnowledgeCache  # noqa: F401  (the lookup cache table)
from twlookup.platform.store.base import Base
from twlookup.platform.store.record_tables import RecordJSON


class ImportedRelease(Base):
    """One item a release tracker imported from Wikidata: its record as the service's model holds it."""

    __tablename__ = "release_import"

    service: Mapped[str] = mapped_column(String(20), primary_key=True)
    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    qid: Mapped[str] = mapped_column(String(20), index=True)
    imported: Mapped[date] = mapped_column(Date)
    record: Mapped[dict[str, Any]] = mapped_column(RecordJSON)
