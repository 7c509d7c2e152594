"""The bikes service's tables: models, maintenance, parts, sale reports, and reviewed contributions."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Date, DateTime, Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class ModelRow(Provenance, Base):
    __tablename__ = "bikes_model"

    slug: Mapped[str] = mapped_column(String(60), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(120))
    maker: Mapped[str] = mapped_column(String(60))
    years: Mapped[str] = mapped_column(String(20))
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)
    source_kind: Mapped[str | None] = mapped_column(String(20), default=None)
    note: Mapped[str | None] = mapped_column(Text, default=None)


class MaintenanceRow(Provenance, Base):
    __tablename__ = "bikes_maintenance"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    slug: Mapped[str] = mapped_column(String(60), index=True)
    item: Mapped[str] = mapped_column(String(30))
    value: Mapped[str] = mapped_column(Text)


class PartRow(Provenance, Base):
    __tablename__ = "bikes_part"

    number: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    fits: Mapped[list[str]] = mapped_column(JSON)


class SaleRow(Provenance, Base):
    __tablename__ = "bikes_sale"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    slug: Mapped[str] = mapped_column(String(60), index=True)
    market: Mapped[str] = mapped_column(String(60))
    currency: Mapped[str] = mapped_column(String(3))
    low: Mapped[float] = mapped_column(Float)
    high: Mapped[float] = mapped_column(Float)
    kind: Mapped[str] = mapped_column(String(10))
    date: Mapped[date] = mapped_column(Date)
    note: Mapped[str | None] = mapped_column(Text, default=None)


class ContributionRow(Base):
    """A contribution an operator approved (platform/review.py): public from then on."""

    __tablename__ = "bikes_contribution"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    submission_id: Mapped[int] = mapped_column(Integer, unique=True)
    slug: Mapped[str] = mapped_column(String(60), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    item: Mapped[str] = mapped_column(String(80))
    value: Mapped[str] = mapped_column(String(200))
    note: Mapped[str | None] = mapped_column(Text, default=None)
    source: Mapped[str] = mapped_column(String(500))
    approved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
