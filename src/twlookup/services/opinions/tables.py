"""Store tables of the opinions service (mirroring records.py)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import JSON, Boolean, Date, DateTime, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class TopicRow(Base):
    __tablename__ = "opinions_topic"

    slug: Mapped[str] = mapped_column(String(60), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    name_zh: Mapped[str] = mapped_column(String(120))
    keywords: Mapped[list[str]] = mapped_column(JSON)
    description: Mapped[str] = mapped_column(Text)


class ThreadRow(Provenance, Base):
    __tablename__ = "opinions_thread"

    id: Mapped[str] = mapped_column(String(120), primary_key=True)
    community: Mapped[str] = mapped_column(String(20))
    site: Mapped[str] = mapped_column(String(120))
    title: Mapped[str] = mapped_column(String(500))
    url: Mapped[str] = mapped_column(String(500))
    created: Mapped[datetime] = mapped_column(DateTime)
    created_note: Mapped[str | None] = mapped_column(Text, default=None)
    score: Mapped[int | None] = mapped_column(Integer, default=None)
    comments: Mapped[int | None] = mapped_column(Integer, default=None)
    summary: Mapped[str | None] = mapped_column(Text, default=None)
    stance: Mapped[str] = mapped_column(String(20))
    pros: Mapped[list[str]] = mapped_column(JSON, default=list)
    cons: Mapped[list[str]] = mapped_column(JSON, default=list)
    topics: Mapped[list[str]] = mapped_column(JSON, default=list)
    author: Mapped[str | None] = mapped_column(String(80), default=None)
    quote: Mapped[str | None] = mapped_column(Text, default=None)


class PostRow(Base):
    __tablename__ = "opinions_post"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    topic: Mapped[str] = mapped_column(String(60), index=True)
    author: Mapped[str] = mapped_column(String(80))
    title: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    products: Mapped[list[str]] = mapped_column(JSON, default=list)
    stance: Mapped[str] = mapped_column(String(20))
    human_written: Mapped[bool] = mapped_column(Boolean)
    published: Mapped[date] = mapped_column(Date)
    licence: Mapped[str] = mapped_column(String(40))
