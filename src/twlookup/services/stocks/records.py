"""The stocks service's records, each declared once: the followed securities, the themes and their
members (data/stocks/themes.yaml), the high-dividend ETFs and their payouts (etfs.yaml), daily
closes (the sample snapshot, or the exchanges' feeds) and the importer's runs. The store's tables
mirror them; the logic works on them and answers are built from them."""

from __future__ import annotations

from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from pydantic import field_validator

from twlookup.platform.records import Record, SourcedRecord

Frequency = Literal["quarterly", "monthly"]
CENT = Decimal("0.01")


def change_pct(close: Decimal, change: Decimal | None) -> Decimal | None:
    """Percentage change against the previous close (close - change), to two decimals."""
    if change is None:
        return None
    previous = close - change
    if previous <= 0:
        return None
    return (change / previous * 100).quantize(CENT, ROUND_HALF_UP)


def _one_line(text: str) -> str:
    return " ".join(text.split())


class SecurityNames(Record):
    code: str
    name_zh: str
    name_en: str


class Security(SecurityNames, SourcedRecord):
    """A listed stock or ETF the service follows."""

    kind: Literal["stock", "etf"]


class Member(SourcedRecord):
    """A stock's membership of a theme, with the business note written for it."""

    code: str
    note: str


class ThemeMember(Member, SecurityNames):
    """A member as themes.yaml gives it: with the company's names (which make its Security)."""


class ThemeNames(Record):
    id: str
    name_en: str
    name_zh: str


class Theme(ThemeNames, SourcedRecord):
    note: str
    members: tuple[Member, ...] = ()

    _note = field_validator("note")(_one_line)


class Payout(SourcedRecord):
    """One cash distribution per unit of an ETF."""

    period: str  # YYYYQn (quarterly) or YYYY-MM (monthly)
    ex_date: date | None = None
    pay_date: date | None = None
    amount: Decimal  # NT$ per unit


class EtfFacts(Record):
    code: str
    issuer: str
    frequency: Frequency
    note: str


class Etf(EtfFacts, SourcedRecord):
    """A high-dividend ETF and its recorded payouts, oldest first."""

    payouts: tuple[Payout, ...] = ()


class EtfEntry(Etf, SecurityNames):
    """An ETF as etfs.yaml gives it: with its names (which make its Security)."""


class Close(SourcedRecord):
    """One daily close: from an exchange feed (`market` TWSE or TPEx) or the sample snapshot."""

    code: str
    date: date
    close: Decimal
    change: Decimal | None = None  # against the previous trading day's close, as the exchange reports it
    market: Literal["TWSE", "TPEx"] | None = None  # None for the sample snapshot

    @property
    def change_pct(self) -> Decimal | None:
        return change_pct(self.close, self.change)


class Import(Record):
    """One run of the closes importer."""

    market: Literal["TWSE", "TPEx"]
    trading_date: date
    imported_at: datetime
    rows: int
    source: str


class ThemeEntry(Theme):
    """A theme as themes.yaml gives it: members with their names."""

    members: tuple[ThemeMember, ...] = ()
