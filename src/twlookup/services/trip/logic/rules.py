"""Rules of the trip service: the bank's spread, entry rules by date, tax-free refunds,
the eSIM estimate and the trip window. Pure functions over plain data; `today` is passed in."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from twlookup.platform.schemas import Source
from twlookup.services.trip.records import Direction, EsimProfile, FxRate, RateType, TaxFreeRule

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
            direction,
            kind,
            rate,
            "selling",
            "TWD",
            round_money(amount, "TWD"),
            fx.currency,
            round_money(got, fx.currency),
            round_money(at_mid, fx.currency),
            round_money(cost, "TWD"),
        )
    got = amount * rate
    at_mid = amount * mid
    return Conversion(
        direction,
        kind,
        rate,
        "buying",
        fx.currency,
        round_money(amount, fx.currency),
        "TWD",
        round_money(got, "TWD"),
        round_money(at_mid, "TWD"),
        round_money(at_mid - got, "TWD"),
    )


def spread_percent(buy: Decimal | None, sell: Decimal | None) -> Decimal | None:
    """Selling over buying rate, as a percentage of the midpoint (two decimals)."""
    if buy is None or sell is None:
        return None
    return ((sell - buy) / ((sell + buy) / 2) * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


# ---------------------------------------------------------------- entry rules


# ---------------------------------------------------------------- Japan tax-free


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
    source: Source  # the regime's page, with its record's licence and sample flag
    tax_source: Source  # the consumption-tax page


def tax_in_price(price_incl_tax: int, rate: Decimal) -> int:
    """Consumption tax contained in a tax-inclusive yen price, rounded down to the yen
    (e.g. ¥11,000 at 10% holds ¥1,000; ¥5,400 at 8% holds ¥400)."""
    return math.floor(Decimal(price_incl_tax) * rate / (1 + rate))


def price_excl_tax(price_incl_tax: int, rate: Decimal) -> int:
    return price_incl_tax - tax_in_price(price_incl_tax, rate)


# ---------------------------------------------------------------- eSIM


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
