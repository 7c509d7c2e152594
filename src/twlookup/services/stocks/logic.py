"""Domain rules of the stocks service: daily change, theme statistics, the 2027 payout estimate,
the income plan and the deductions on dividend income.

Pure functions over the records (records.py) and plain dataclasses; nothing here reads a clock or a database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Generic, TypeVar

from pydantic import Field

from twlookup.platform.records import Record
from twlookup.platform.schemas import Source
from twlookup.services.stocks.records import CENT, Close, Etf, Import, Payout, Security, Theme

PER_YEAR = {"quarterly": 4, "monthly": 12}
ESTIMATE_YEAR = 2027
PERIOD = re.compile(r"^(\d{4})(?:Q([1-4])|-(0[1-9]|1[0-2]))$")


@dataclass(frozen=True)
class Deductions:
    nhi_rate: Decimal
    nhi_threshold: Decimal
    nhi_cap: Decimal
    nhi_proposed_yearly_cap: Decimal  # cap of the proposed per-year rule (not in force)
    credit_rate: Decimal
    credit_cap: Decimal
    separate_rate: Decimal
    nhi_note: str
    tax_note: str
    nhi_sources: tuple[Source, ...]  # the pages each deduction rests on, cited from its record
    tax_sources: tuple[Source, ...]


@dataclass
class Market:
    securities: dict[str, Security]
    themes: dict[str, Theme]  # in display order
    etfs: dict[str, Etf]
    closes: dict[str, list[Close]]  # per code, oldest first
    deductions: Deductions
    imports: list[Import] = field(default_factory=list)  # newest first

    def latest(self, code: str) -> Close | None:
        series = self.closes.get(code)
        return series[-1] if series else None

    def history(self, code: str, days: int) -> list[Close]:
        return self.closes.get(code, [])[-days:]

    def themes_of(self, code: str) -> list[Theme]:
        return [t for t in self.themes.values() if any(m.code == code for m in t.members)]

    @property
    def latest_trading_date(self) -> date | None:
        dates = [series[-1].date for series in self.closes.values() if series]
        return max(dates) if dates else None


Mean = TypeVar("Mean", Decimal, float)


class ThemeCounts(Record, Generic[Mean]):
    """A theme's counts on its latest date; the mean change is exact (Decimal) in the logic and a
    JSON number (float) in the answer."""

    count: int = Field(description="Member stocks")
    advancing: int = Field(description="Members that closed above the previous close on latest_date")
    declining: int = Field(description="Members that closed below the previous close on latest_date")
    unchanged: int = Field(description="Members that closed at the previous close on latest_date")
    without_close: int = Field(description="Members with no close in the store")
    not_compared: int = Field(
        description="Members left out of the counts and the average: no trade on latest_date (their latest close is older) "
        "or no comparable change reported (ex-dividend / ex-rights day)"
    )
    average_change_pct: Mean | None = Field(
        description="Mean of the counted members' percentage changes on latest_date"
    )
    latest_date: date | None = Field(
        description="The trading day the counts and the average are for: the most recent among the members' closes"
    )


class ThemeStats(ThemeCounts[Decimal]):
    sample: bool


def theme_stats(theme: Theme, market: Market) -> ThemeStats:
    """Advancing, declining and unchanged members and their average change, all on one trading day:
    the theme's latest date. A member whose latest close is older (it did not trade that day) or
    whose change the exchange did not report (ex-dividend marker) is counted as not compared."""
    closes = [market.latest(m.code) for m in theme.members]
    known = [c for c in closes if c is not None]
    latest_date = max((c.date for c in known), default=None)
    compared = [c for c in known if c.date == latest_date and c.change is not None and c.change_pct is not None]
    pcts = [c.change_pct for c in compared if c.change_pct is not None]
    changes = [c.change for c in compared if c.change is not None]
    average = (sum(pcts, Decimal(0)) / len(pcts)).quantize(CENT, ROUND_HALF_UP) if pcts else None
    return ThemeStats(
        count=len(theme.members),
        advancing=sum(1 for ch in changes if ch > 0),
        declining=sum(1 for ch in changes if ch < 0),
        unchanged=sum(1 for ch in changes if ch == 0),
        without_close=len(closes) - len(known),
        not_compared=len(known) - len(compared),
        average_change_pct=average,
        latest_date=latest_date,
        sample=any(c.sample for c in known),
    )


def period_index(period: str, frequency: str) -> int:
    """A running number of the period, so that consecutive periods differ by one."""
    match = PERIOD.match(period)
    if not match:
        raise ValueError(f"period {period!r} is neither YYYYQn nor YYYY-MM")
    year, quarter, month = int(match[1]), match[2], match[3]
    if frequency == "quarterly":
        if quarter is None:
            raise ValueError(f"period {period!r} of a quarterly ETF must be YYYYQn")
        return year * 4 + int(quarter) - 1
    if frequency == "monthly":
        if month is None:
            raise ValueError(f"period {period!r} of a monthly ETF must be YYYY-MM")
        return year * 12 + int(month) - 1
    raise ValueError(f"unknown frequency {frequency!r}")


@dataclass(frozen=True)
class Estimate:
    per_unit: Decimal  # estimated 2027 cash payout per unit (NT$)
    per_payout: tuple[Decimal, ...]  # the payouts assumed for 2027, one per period
    basis: tuple[Payout, ...]  # the recorded payouts the estimate is built from
    complete: bool  # True when every period of the window has a recorded payout
    window: tuple[str, str]  # first and last period of the trailing window
    method: str


def estimate(etf: Etf) -> Estimate | None:
    """The 2027 estimate: the payouts of the trailing year repeated.

    The window is the last recorded period and the periods before it, one year long (4 quarters or
    12 months). When every period of the window has a recorded payout, 2027 is assumed to repeat
    them: the estimate is their sum. When some are missing from the record, each 2027 payout is
    assumed to be the average of those recorded in the window, times the payouts per year.
    """
    if not etf.payouts:
        return None
    n = PER_YEAR[etf.frequency]
    ordered = sorted(etf.payouts, key=lambda p: period_index(p.period, etf.frequency))
    last = period_index(ordered[-1].period, etf.frequency)
    basis = tuple(p for p in ordered if period_index(p.period, etf.frequency) > last - n)
    first_period = _period_name(last - n + 1, etf.frequency)
    window = (first_period, ordered[-1].period)
    per_year = "four quarterly" if n == 4 else "twelve monthly"
    if len(basis) == n:
        per_payout = tuple(p.amount for p in basis)
        method = (
            f"Sum of the last {per_year} payouts ({window[0]} to {window[1]}): {ESTIMATE_YEAR} is assumed "
            "to repeat them unchanged. A mechanical extrapolation of history, not a forecast."
        )
        complete = True
    else:
        average = sum((p.amount for p in basis), Decimal(0)) / len(basis)
        per_payout = tuple([average] * n)
        method = (
            f"Only {len(basis)} of the {per_year} payouts from {window[0]} to {window[1]} are recorded: "
            f"{ESTIMATE_YEAR} is assumed to bring {n} payouts each equal to their average. A mechanical "
            "extrapolation of history, not a forecast."
        )
        complete = False
    total = sum(per_payout, Decimal(0)).quantize(Decimal("0.0001"), ROUND_HALF_UP)
    return Estimate(total, per_payout, basis, complete, window, method)


def period_of(day: date, frequency: str) -> int:
    """The running number of the period `day` falls in."""
    return day.year * 4 + (day.month - 1) // 3 if frequency == "quarterly" else day.year * 12 + day.month - 1


def periods_missing(etf: Etf, today: date) -> list[str]:
    """Periods that have ended since the last recorded payout, as of `today`, with no payout recorded:
    the record is that far behind (the period in progress is not counted)."""
    if not etf.payouts:
        return []
    last = max(period_index(p.period, etf.frequency) for p in etf.payouts)
    return [_period_name(i, etf.frequency) for i in range(last + 1, period_of(today, etf.frequency))]


def _period_name(index: int, frequency: str) -> str:
    if frequency == "quarterly":
        return f"{index // 4}Q{index % 4 + 1}"
    return f"{index // 12}-{index % 12 + 1:02d}"


@dataclass(frozen=True)
class PlanLine:
    code: str
    allocation: Decimal  # budget share (NT$)
    price: Decimal  # latest close used as the purchase price
    price_date: date
    units: int  # whole units bought
    cost: Decimal
    leftover: Decimal
    per_unit_2027: Decimal
    payouts_2027: tuple[Decimal, ...]  # cash per payout for these units, NT$ to the cent
    income_2027: Decimal
    nhi_premium: Decimal  # upper bound: the whole payout treated as dividend income


@dataclass(frozen=True)
class Plan:
    budget: Decimal
    lines: tuple[PlanLine, ...]
    invested: Decimal
    leftover: Decimal
    income_2027: Decimal
    nhi_premium: Decimal
    nhi_premium_if_yearly: Decimal  # under the proposed per-year rule, should it apply to 2027
    income_after_nhi: Decimal
    tax_credit_option: Decimal  # 8.5% credit (capped) if dividends join consolidated income
    separate_tax_option: Decimal  # 28% tax if dividends are taxed separately
    yield_on_cost_pct: Decimal | None


def nhi_premium(payout: Decimal, d: Deductions) -> Decimal:
    """Supplementary premium on one payment: 2.11% of it (base capped) when it reaches the threshold."""
    if payout < d.nhi_threshold:
        return Decimal(0)
    return (min(payout, d.nhi_cap) * d.nhi_rate).quantize(Decimal(1), ROUND_HALF_UP)


def nhi_premium_if_yearly(income: Decimal, d: Deductions) -> Decimal:
    """The proposed (not in force) per-year rule: 2.11% of the year's total when it reaches the threshold."""
    if income < d.nhi_threshold:
        return Decimal(0)
    return (min(income, d.nhi_proposed_yearly_cap) * d.nhi_rate).quantize(Decimal(1), ROUND_HALF_UP)


def income_plan(budget: Decimal, picks: list[tuple[Etf, Close, Estimate]], d: Deductions) -> Plan:
    """Split `budget` equally over the ETFs, buy whole units at each latest close, estimate 2027 cash."""
    share = (budget / len(picks)).quantize(CENT, ROUND_DOWN)
    lines = []
    for etf, close, est in picks:
        units = int(share // close.close)
        cost = close.close * units
        payouts = tuple((a * units).quantize(CENT, ROUND_HALF_UP) for a in est.per_payout)
        lines.append(
            PlanLine(
                code=etf.code,
                allocation=share,
                price=close.close,
                price_date=close.date,
                units=units,
                cost=cost,
                leftover=share - cost,
                per_unit_2027=est.per_unit,
                payouts_2027=payouts,
                income_2027=sum(payouts, Decimal(0)),
                nhi_premium=sum((nhi_premium(p, d) for p in payouts), Decimal(0)),
            )
        )
    invested = sum((line.cost for line in lines), Decimal(0))
    income = sum((line.income_2027 for line in lines), Decimal(0))
    premium = sum((line.nhi_premium for line in lines), Decimal(0))
    return Plan(
        budget=budget,
        lines=tuple(lines),
        invested=invested,
        leftover=budget - invested,
        income_2027=income,
        nhi_premium=premium,
        nhi_premium_if_yearly=nhi_premium_if_yearly(income, d),
        income_after_nhi=income - premium,
        tax_credit_option=min(income * d.credit_rate, d.credit_cap).quantize(Decimal(1), ROUND_HALF_UP),
        separate_tax_option=(income * d.separate_rate).quantize(Decimal(1), ROUND_HALF_UP),
        yield_on_cost_pct=(income / invested * 100).quantize(CENT, ROUND_HALF_UP) if invested else None,
    )
