"""Store tables of the stocks service."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import JSON, Date, DateTime, Integer, Numeric, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance

PRICE = Numeric(14, 4)


class SecurityRecord(Provenance, Base):
    """A listed stock or ETF the service follows (theme members and the ETFs)."""

    __tablename__ = "stocks_security"

    code: Mapped[str] = mapped_column(String(10), primary_key=True)
    name_zh: Mapped[str] = mapped_column(String(60))
    name_en: Mapped[str] = mapped_column(String(120))
    kind: Mapped[str] = mapped_column(String(10))  # stock | etf


class ThemeRecord(Provenance, Base):
    """One theme (data/stocks/themes.yaml)."""

    __tablename__ = "stocks_theme"

    id: Mapped[str] = mapped_column(String(30), primary_key=True)
    position: Mapped[int]
    name_en: Mapped[str] = mapped_column(String(100))
    name_zh: Mapped[str] = mapped_column(String(60))
    note: Mapped[str] = mapped_column(Text)


class MemberRecord(Provenance, Base):
    """A stock's membership of a theme, with the business note written for it."""

    __tablename__ = "stocks_member"

    theme: Mapped[str] = mapped_column(String(30), primary_key=True)
    code: Mapped[str] = mapped_column(String(10), primary_key=True)
    position: Mapped[int]
    note: Mapped[str] = mapped_column(Text)


class EtfRecord(Provenance, Base):
    """A high-dividend ETF (data/stocks/etfs.yaml)."""

    __tablename__ = "stocks_etf"

    code: Mapped[str] = mapped_column(String(10), primary_key=True)
    issuer: Mapped[str] = mapped_column(String(120))
    frequency: Mapped[str] = mapped_column(String(10))  # quarterly | monthly
    note: Mapped[str] = mapped_column(Text)


class PayoutRecord(Provenance, Base):
    """One cash distribution per unit of an ETF; period is YYYYQn or YYYY-MM."""

    __tablename__ = "stocks_payout"

    code: Mapped[str] = mapped_column(String(10), primary_key=True)
    period: Mapped[str] = mapped_column(String(7), primary_key=True)
    ex_date: Mapped[date | None] = mapped_column(Date, default=None)
    pay_date: Mapped[date | None] = mapped_column(Date, default=None)
    amount: Mapped[Decimal] = mapped_column(PRICE)


class DeductionRecord(Provenance, Base):
    """A deduction Taiwan applies to dividend income: its parameters, note and sources."""

    __tablename__ = "stocks_deduction"

    key: Mapped[str] = mapped_column(String(20), primary_key=True)
    params: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    note: Mapped[str] = mapped_column(Text)
    sources: Mapped[list[dict[str, str]]] = mapped_column(JSON, default=list)


class CloseRecord(Provenance, Base):
    """One daily close: from an exchange feed (`market` TWSE or TPEx) or the sample snapshot."""

    __tablename__ = "stocks_close"

    code: Mapped[str] = mapped_column(String(10), primary_key=True)
    date: Mapped[date] = mapped_column(Date, primary_key=True)
    close: Mapped[Decimal] = mapped_column(PRICE)
    change: Mapped[Decimal | None] = mapped_column(PRICE, default=None)
    market: Mapped[str | None] = mapped_column(String(10), default=None)


class ImportRecord(Base):
    """One run of the closes importer: which feed, which trading date, when, how many rows."""

    __tablename__ = "stocks_import"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    market: Mapped[str] = mapped_column(String(10))
    trading_date: Mapped[date] = mapped_column(Date)
    imported_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    rows: Mapped[int]
    file_name: Mapped[str] = mapped_column(String(300))
    source: Mapped[str] = mapped_column(String(500))
