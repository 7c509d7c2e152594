"""Store tables of the glossary service (mirroring records.py)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import JSON, Date, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class TermRow(Provenance, Base):
    __tablename__ = "glossary_term"

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    name_zh: Mapped[str] = mapped_column(String(120))
    name_en: Mapped[str] = mapped_column(String(200))
    aliases: Mapped[list[str]] = mapped_column(JSON, default=list)
    mainland: Mapped[list[str]] = mapped_column(JSON, default=list)
    abbreviations: Mapped[list[str]] = mapped_column(JSON, default=list)
    misspellings: Mapped[list[str]] = mapped_column(JSON, default=list)
    category: Mapped[str] = mapped_column(String(40), index=True)
    definition: Mapped[str] = mapped_column(Text)
    related: Mapped[list[str]] = mapped_column(JSON, default=list)
    taiwan_usage: Mapped[str] = mapped_column(String(30), default="unverified")


class ComparisonRow(Provenance, Base):
    __tablename__ = "glossary_comparison"

    id: Mapped[str] = mapped_column(String(120), primary_key=True)
    a: Mapped[str] = mapped_column(String(80))
    b: Mapped[str] = mapped_column(String(80))
    title: Mapped[str] = mapped_column(String(200))
    summary: Mapped[str] = mapped_column(Text)
    differences: Mapped[list[dict]] = mapped_column(JSON)
    choose_a: Mapped[str] = mapped_column(Text)
    choose_b: Mapped[str] = mapped_column(Text)


class HowToRow(Provenance, Base):
    __tablename__ = "glossary_howto"

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    summary: Mapped[str] = mapped_column(Text)
    terms: Mapped[list[str]] = mapped_column(JSON, default=list)
    steps: Mapped[list[str]] = mapped_column(JSON)
    code: Mapped[list[dict]] = mapped_column(JSON)


class SourceRow(Base):
    """The glossary's source registry: cited sources with the check of each citation (`kind`
    citation), and Taiwan documents showing the Chinese names used (`kind` usage)."""

    __tablename__ = "glossary_source"

    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    url: Mapped[str] = mapped_column(String(500), primary_key=True)
    title: Mapped[str] = mapped_column(String(300))
    verified: Mapped[date | None] = mapped_column(Date, default=None)
    checked: Mapped[date | None] = mapped_column(Date, default=None)
    evidence: Mapped[str | None] = mapped_column(Text, default=None)
    names: Mapped[list[str]] = mapped_column(JSON, default=list)
    usage_kind: Mapped[str | None] = mapped_column(String(30), default=None)
