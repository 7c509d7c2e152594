"""Domain rules of the trip service: the bank's spread, entry rules by date, tax-free refunds,
the eSIM estimate and the trip window. Pure functions over plain data; `today` is passed in."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from twlookup.domain.provenance import Provenance

Direction = Literal["buy", "sell"]
RateType = Literal["cash", "spot"]

# ISO 4217 minor units of the currencies where they are not 2 (the bank's board has these three).
ZERO_DECIMAL = {"JPY", "KRW", "VND"}

DIRECTIONS = {
    "buy": "You buy the foreign currency with TWD: the bank sells it to you at its selling rate "
    "(本行賣出). amount is the TWD you hand over.",
    "sell": "You sell foreign currency back for TWD: the bank buys it at its buying rate "
    "(本行買入). amount is the foreign currency you hand over.",
}
RATE_TYPES = {
    "cash": "Banknotes over the counter (現金匯率): the wider spread a traveller pays for cash.",
    "spot": "Account transfers between a TWD and a foreign-currency account (即期匯率): narrower spread, no banknotes.",
}


# ---------------------------------------------------------------- exchange rates


@dataclass(frozen=True)
class FxRate:
    """One currency on the bank's board, TWD per unit; None where the bank posts no such rate."""

    currency: str
    name_zh: str | None
    cash_buy: Decimal | None
    cash_sell: Decimal | None
    spot_buy: Decimal | None
    spot_sell: Decimal | None
    posted_at: datetime
    provenance: Provenance

    def rate(self, direction: Direction, kind: RateType) -> Decimal | None:
        """The rate the traveller gets: the bank sells to a buyer and buys from a seller."""
        side = "sell" if direction == "buy" else "buy"
        return getattr(self, f"{kind}_{side}")

    def posted_types(self) -> list[str]:
        return [k for k in ("cash", "spot") if getattr(self, f"{k}_buy") is not None and getattr(self, f"{k}_sell") is not None]


@dataclass(frozen=True)
class Conversion:
    direction: Direction
    kind: RateType
    rate: Decimal  # TWD per unit, the side of the spread applied
    bank_side: str  # "selling" or "buying": which of the bank's rates it is
    pay_currency: str
    pay_amount: Decimal
    get_currency: str
    get_amount: Decimal
    mid_amount: Decimal  # what the same amount would give at the midpoint of that rate type
    spread_cost_twd: Decimal  # what the spread costs the traveller, in TWD


def minor_units(currency: str) -> int:
    return 0 if currency in ZERO_DECIMAL else 2


def round_money(value: Decimal, currency: str) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-minor_units(currency)), rounding=ROUND_HALF_UP)


def convert(fx: FxRate, direction: Direction, kind: RateType, amount: Decimal) -> Conversion:
    """Apply the side of the spread the traveller actually gets.

    buy:  TWD -> foreign, foreign = TWD / bank selling rate
    sell: foreign -> TWD, TWD = foreign x bank buying rate
    Results are rounded half up to the currency's minor unit (0 for JPY, KRW, VND; 2 otherwise).
    Raises ValueError when the bank posts no `kind` rate for the currency."""
    rate = fx.rate(direction, kind)
    buy, sell = getattr(fx, f"{kind}_buy"), getattr(fx, f"{kind}_sell")
    if rate is None or buy is None or sell is None:
        raise ValueError(f"the bank posts no {kind} rate for {fx.currency}")
    mid = (buy + sell) / 2
    if direction == "buy":
        got = amount / rate
        at_mid = amount / mid
        cost = (at_mid - got) * mid
        return Conversion(
            direction, kind, rate, "selling", "TWD", round_money(amount, "TWD"), fx.currency,
            round_money(got, fx.currency), round_money(at_mid, fx.currency), round_money(cost, "TWD"),
        )  # fmt: skip
    got = amount * rate
    at_mid = amount * mid
    return Conversion(
        direction, kind, rate, "buying", fx.currency, round_money(amount, fx.currency), "TWD",
        round_money(got, "TWD"), round_money(at_mid, "TWD"), round_money(at_mid - got, "TWD"),
    )  # fmt: skip


def spread_percent(buy: Decimal | None, sell: Decimal | None) -> Decimal | None:
    """Selling over buying rate, as a percentage of the midpoint (two decimals)."""
    if buy is None or sell is None:
        return None
    return ((sell - buy) / ((sell + buy) / 2) * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


# ---------------------------------------------------------------- entry rules


@dataclass(frozen=True)
class EntryItem:
    country: str
    id: str
    title: str
    requirement: str  # required | not_required | recommended | conditional
    detail: str
    valid_from: date | None
    valid_until: date | None
    provenance: Provenance

    def in_force(self, day: date) -> bool:
        return (self.valid_from is None or self.valid_from <= day) and (self.valid_until is None or day <= self.valid_until)

    def overlaps(self, start: date, end: date) -> bool:
        return (self.valid_from is None or self.valid_from <= end) and (self.valid_until is None or start <= self.valid_until)


@dataclass(frozen=True)
class Country:
    code: str
    name_en: str
    name_zh: str
    items: tuple[EntryItem, ...]

    def in_force(self, day: date) -> list[EntryItem]:
        return [i for i in self.items if i.in_force(day)]

    def for_window(self, start: date, end: date) -> list[EntryItem]:
        """Items that apply on some day of [start, end] (both sides of a rule change show)."""
        return [i for i in self.items if i.overlaps(start, end)]

    def upcoming_changes(self, day: date) -> list[EntryItem]:
        """Items that start after `day`: rule changes already announced."""
        return [i for i in self.items if i.valid_from is not None and i.valid_from > day]


# ---------------------------------------------------------------- Japan tax-free


@dataclass(frozen=True)
class TaxFreeRule:
    id: str
    title: str
    detail: str
    provenance: Provenance


@dataclass(frozen=True)
class TaxFree:
    regime_id: str
    regime_name: str
    in_force_from: date
    replaced: str
    minimum_jpy: int
    customs_deadline_days: int
    high_value_jpy: int
    standard_rate: Decimal
    reduced_rate: Decimal
    reduced_applies_to: str
    rules: tuple[TaxFreeRule, ...]
    provenance: Provenance
    tax_provenance: Provenance


def tax_in_price(price_incl_tax: int, rate: Decimal) -> int:
    """Consumption tax contained in a tax-inclusive yen price, rounded down to the yen
    (e.g. ¥11,000 at 10% holds ¥1,000; ¥5,400 at 8% holds ¥400)."""
    return math.floor(Decimal(price_incl_tax) * rate / (1 + rate))


def price_excl_tax(price_incl_tax: int, rate: Decimal) -> int:
    return price_incl_tax - tax_in_price(price_incl_tax, rate)


# ---------------------------------------------------------------- eSIM


@dataclass(frozen=True)
class EsimProfile:
    id: str
    gb_per_day: Decimal
    covers: str


@dataclass(frozen=True)
class EsimEstimate:
    usage: str
    days: int
    gb_per_day: Decimal
    base_gb: Decimal
    margin: Decimal
    total_gb: Decimal
    plan_gb: int | None  # smallest usual plan size that holds total_gb; None above the largest


def esim_estimate(profile: EsimProfile, days: int, margin: Decimal, plan_sizes: tuple[int, ...]) -> EsimEstimate:
    """days x GB per day, plus the margin, rounded up to 0.1 GB; then the smallest plan size
    that holds it (e.g. moderate 1.5 GB x 5 days = 7.5, +10% = 8.25 -> 8.3 GB -> 10 GB plan)."""
    base = profile.gb_per_day * days
    total = (base * (1 + margin) * 10).to_integral_value(rounding="ROUND_CEILING") / 10
    plan = next((s for s in sorted(plan_sizes) if s >= total), None)
    return EsimEstimate(profile.id, days, profile.gb_per_day, base, margin, total, plan)


# ---------------------------------------------------------------- the trip window


def trip_window(today: date, days: int) -> tuple[date, date]:
    """A trip of `days` days starting today (Taiwan time)."""
    return today, today + timedelta(days=days - 1)


def as_decimal(value: Any) -> Decimal | None:
    """A stored float rate as the exact decimal it was written as (0.2046, not its binary neighbour)."""
    return None if value is None else Decimal(repr(float(value)))
