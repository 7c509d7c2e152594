"""Store tables of the trip service."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class FxRateRecord(Provenance, Base):
    """One currency of Bank of Taiwan's posted board (seeded snapshot or `twlookup ingest trip.fx`).

    Rates are TWD per one unit of the currency; None where the bank posts no rate of that kind.
    `posted_at` is the bank's posting time, Taiwan local time (stored without an offset)."""

    __tablename__ = "trip_fx_rate"

    currency: Mapped[str] = mapped_column(String(3), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    name_zh: Mapped[str | None] = mapped_column(String(50), default=None)
    cash_buy: Mapped[float | None] = mapped_column(Float, default=None)
    cash_sell: Mapped[float | None] = mapped_column(Float, default=None)
    spot_buy: Mapped[float | None] = mapped_column(Float, default=None)
    spot_sell: Mapped[float | None] = mapped_column(Float, default=None)
    posted_at: Mapped[datetime] = mapped_column(DateTime)


class GuideRecord(Provenance, Base):
    """One sourced record of the travel guides (entry items, tax-free rules, theme parks, places,
    domestic travel, booking, eSIM profiles), kept as its YAML body; `kind` says which."""

    __tablename__ = "trip_guide_record"

    kind: Mapped[str] = mapped_column(String(30), primary_key=True)
    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
