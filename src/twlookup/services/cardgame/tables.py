"""Store tables of the cardgame guide (mirroring records.py)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import JSON, Date, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class ChapterRow(Provenance, Base):
    __tablename__ = "cardgame_chapter"

    slug: Mapped[str] = mapped_column(String(60), primary_key=True)
    order: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(200))
    summary: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)


class TermRow(Base):
    __tablename__ = "cardgame_term"

    term: Mapped[str] = mapped_column(String(80), primary_key=True)
    aliases: Mapped[list[str]] = mapped_column(JSON, default=list)
    definition: Mapped[str] = mapped_column(Text)
    chapter: Mapped[str] = mapped_column(String(60))


class FaqRow(Base):
    __tablename__ = "cardgame_faq"

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    question: Mapped[str] = mapped_column(Text)
    answer: Mapped[str] = mapped_column(Text)
    chapter: Mapped[str] = mapped_column(String(60))
    rule: Mapped[str | None] = mapped_column(Text, default=None)


class BanListRow(Provenance, Base):
    __tablename__ = "cardgame_banlist"

    effective: Mapped[date] = mapped_column(Date, primary_key=True)
    format: Mapped[str] = mapped_column(String(20), primary_key=True)
    forbidden: Mapped[list[dict]] = mapped_column(JSON)
    limited: Mapped[list[dict]] = mapped_column(JSON)
    semi_limited: Mapped[list[dict]] = mapped_column(JSON)
    released: Mapped[list[dict]] = mapped_column(JSON, default=list)
