"""Store tables of the creator service: reference records by kind, and the company register extract."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import JSON, BigInteger, Date, String
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class CreatorRecord(Provenance, Base):
    """One record of data/creator/: `record_type` names its record model; `payload` its validated fields."""

    __tablename__ = "creator_record"

    record_type: Mapped[str] = mapped_column(String(20), primary_key=True)
    id: Mapped[str] = mapped_column(String(120), primary_key=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)


class Company(Provenance, Base):
    """A company of the Ministry of Economic Affairs' register (GCIS open data)."""

    __tablename__ = "creator_company"

    ban: Mapped[str] = mapped_column(String(8), primary_key=True)
    name: Mapped[str] = mapped_column(String(300), index=True)
    status: Mapped[str] = mapped_column(String(60))
    capital: Mapped[int | None] = mapped_column(BigInteger, default=None)
    paid_in_capital: Mapped[int | None] = mapped_column(BigInteger, default=None)
    representative: Mapped[str | None] = mapped_column(String(120), default=None)
    address: Mapped[str | None] = mapped_column(String(300), default=None)
    registrar: Mapped[str | None] = mapped_column(String(120), default=None)
    setup_date: Mapped[date | None] = mapped_column(Date, default=None)
    last_change: Mapped[date | None] = mapped_column(Date, default=None)
