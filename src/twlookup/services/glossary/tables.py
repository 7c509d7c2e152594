"""Store tables of the glossary service, derived from the records in records.py."""

from __future__ import annotations

from datetime import date

from sqlalchemy import JSON, Date, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base
from twlookup.platform.store.record_tables import record_table
from twlookup.services.glossary.records import Comparison, HowTo, Term

# category keeps the longer column it was created with, so that a new category needs no migration;
# taiwan_usage likewise (String(30), "unverified" until a source shows the name)
TermRow = record_table(
    Term,
    "glossary_term",
    override={
        "category": mapped_column(String(40), nullable=False, index=True),
        "taiwan_usage": mapped_column(String(30), nullable=False, server_default="unverified"),
    },
)
ComparisonRow = record_table(Comparison, "glossary_comparison")
HowToRow = record_table(HowTo, "glossary_howto")


class SourceRow(Base):
    """The glossary's source registry: cited sources with the check of each citation (`kind`
    citation, a `CitedSource`), and Taiwan documents showing the Chinese names used (`kind` usage,
    a `UsageSource`). Written out: one table holds two records (a derived table mirrors one)."""

    __tablename__ = "glossary_source"

    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    url: Mapped[str] = mapped_column(String(500), primary_key=True)
    title: Mapped[str] = mapped_column(String(300))
    verified: Mapped[date | None] = mapped_column(Date, default=None)
    checked: Mapped[date | None] = mapped_column(Date, default=None)
    evidence: Mapped[str | None] = mapped_column(Text, default=None)
    names: Mapped[list[str]] = mapped_column(JSON, default=list)
    usage_kind: Mapped[str | None] = mapped_column(String(30), default=None)
