"""Store tables of the life service (the Taiwan calendar itself lives in twlookup.domain)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import JSON, Date, Integer, Numeric, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class InvoicePeriodRecord(Provenance, Base):
    """Winning numbers of one two-month receipt-lottery period (data/life/invoice.yaml, feed life.invoice)."""

    __tablename__ = "life_invoice_period"

    period: Mapped[str] = mapped_column(String(9), primary_key=True)  # NNN-MM-MM, ROC year
    special: Mapped[str] = mapped_column(String(8))
    grand: Mapped[str] = mapped_column(String(8))
    first: Mapped[list[str]] = mapped_column(JSON, default=list)
    additional_sixth: Mapped[list[str]] = mapped_column(JSON, default=list)
    reported_by: Mapped[str | None] = mapped_column(String(500), default=None)


class LotteryDrawRecord(Provenance, Base):
    """One draw of lotto649, superlotto638 or daily539 (data/life/lottery.yaml, feed life.lottery)."""

    __tablename__ = "life_lottery_draw"

    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    period: Mapped[str] = mapped_column(String(12), primary_key=True)
    draw_date: Mapped[date] = mapped_column(Date, index=True)
    numbers: Mapped[list[int]] = mapped_column(JSON, default=list)
    second: Mapped[int | None] = mapped_column(Integer, default=None)
    reported_by: Mapped[str | None] = mapped_column(String(500), default=None)


class FuelPriceRecord(Provenance, Base):
    """CPC's posted retail price of one product from one effective date (data/life/fuel.yaml, feed life.fuel)."""

    __tablename__ = "life_fuel_price"

    product: Mapped[str] = mapped_column(String(10), primary_key=True)
    effective: Mapped[date] = mapped_column(Date, primary_key=True)
    price: Mapped[Decimal] = mapped_column(Numeric(8, 2))
    note: Mapped[str | None] = mapped_column(Text, default=None)
    reported_by: Mapped[str | None] = mapped_column(String(500), default=None)
