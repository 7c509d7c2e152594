"""Domain rules of the price service: the daily price of a product, the 90-day summary, price
drops and search. Pure functions over the records and plain dataclasses; `as_of` is always passed in.

Definitions (also stated in the responses):
- A product's price on a trading day is the lowest average price (平均價, NT$/kg) among the
  markets that traded it that day; a tie goes to the lower market code.
- `as_of` is the latest trading day in the store. The summary covers the 90 calendar days
  ending on `as_of` (as_of - 89 days to as_of, both included), over the days the product traded.
- min, max: lowest and highest daily price in that window; mean: arithmetic mean of the daily
  prices; low date: the most recent day whose price equals the min; current: the price on the
  product's latest trading day in the window; distance from the low: current - min in NT$, and
  as a percentage of the min.
- A drop: the product traded on `as_of` at a price below its previous trading day's price within
  the window; amount = previous - current, percent = amount / previous * 100.
Money and percentages are rounded to 2 decimals, halves up.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from twlookup.services.price.records import Category, Observation, Product, SummaryFigures

WINDOW_DAYS = 90
SEARCH_LIMIT = 50
CENT = Decimal("0.01")


@dataclass(frozen=True)
class DailyPrice:
    day: date
    price: float
    market_code: str
    market_name: str
    markets: int  # how many markets traded the product that day
    sample: bool


class Summary(SummaryFigures):
    sample: bool


@dataclass(frozen=True)
class Drop:
    product_id: str
    day: date
    price: float
    market_code: str
    market_name: str
    previous_day: date
    previous_price: float
    amount: float
    percent: float
    sample: bool


def dec(x: float) -> Decimal:
    """A feed price as the decimal it was written as (20.4, not its binary neighbour)."""
    return Decimal(repr(x))


def money(x: float | Decimal) -> float:
    """Round to 2 decimals, halves up as by hand (0.125 -> 0.13, 2.675 -> 2.68). The arithmetic before it
    is done in decimals, so 16.00 - 15.98 is 0.02 exactly, not 0.0199999..."""
    value = x if isinstance(x, Decimal) else dec(x)
    return float(value.quantize(CENT, ROUND_HALF_UP)) + 0.0  # + 0.0 turns -0.0 into 0.0


def daily_prices(observations: Iterable[Observation]) -> list[DailyPrice]:
    """One price per trading day: the lowest average price among the markets that day."""
    by_day: dict[date, list[Observation]] = {}
    for o in observations:
        by_day.setdefault(o.day, []).append(o)
    out = []
    for day in sorted(by_day):
        rows = by_day[day]
        best = min(rows, key=lambda o: (o.average, o.market_code))
        out.append(
            DailyPrice(day, best.average, best.market_code, best.market_name, len(rows), any(o.sample for o in rows))
        )
    return out


def window_start(as_of: date, days: int = WINDOW_DAYS) -> date:
    return as_of - timedelta(days=days - 1)


def in_window(series: list[DailyPrice], as_of: date, days: int = WINDOW_DAYS) -> list[DailyPrice]:
    start = window_start(as_of, days)
    return [d for d in series if start <= d.day <= as_of]


def summarize(series: list[DailyPrice], as_of: date, days: int = WINDOW_DAYS) -> Summary | None:
    """The 90-day summary of a product's daily prices; None when it did not trade in the window."""
    rows = in_window(series, as_of, days)
    if not rows:
        return None
    prices = [dec(d.price) for d in rows]
    low = min(prices)
    current = rows[-1]
    above = dec(current.price) - low
    return Summary(
        start=window_start(as_of, days),
        end=as_of,
        days_observed=len(rows),
        min=money(low),
        max=money(max(prices)),
        mean=money(sum(prices) / len(prices)),
        low_date=max(d.day for d in rows if dec(d.price) == low),
        current=money(current.price),
        current_date=current.day,
        above_low=money(above),
        above_low_percent=money(above / low * 100),
        sample=any(d.sample for d in rows),
    )


def drop(product_id: str, series: list[DailyPrice], as_of: date, days: int = WINDOW_DAYS) -> Drop | None:
    """The product's price drop on `as_of`, or None (not traded that day, no earlier day, or no drop)."""
    rows = in_window(series, as_of, days)
    if len(rows) < 2 or rows[-1].day != as_of:
        return None
    current, previous = rows[-1], rows[-2]
    if current.price >= previous.price:
        return None
    amount = dec(previous.price) - dec(current.price)
    return Drop(
        product_id=product_id,
        day=current.day,
        price=money(current.price),
        market_code=current.market_code,
        market_name=current.market_name,
        previous_day=previous.day,
        previous_price=money(previous.price),
        amount=money(amount),
        percent=money(amount / dec(previous.price) * 100),
        sample=current.sample or previous.sample,
    )


@dataclass
class Catalog:
    categories: dict[str, Category]  # by slug, in display order
    products: dict[str, Product]
    as_of: date | None  # latest trading day in the store
    observations: dict[str, list[Observation]]  # per product, those within the window
    series: dict[str, list[DailyPrice]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.series = {pid: daily_prices(rows) for pid, rows in self.observations.items()}

    def in_category(self, slug: str) -> list[Product]:
        return sorted((p for p in self.products.values() if p.category == slug), key=lambda p: p.id)

    def is_sample(self, product: Product) -> bool:
        """Whether a product's record or any of its prices in the window is sample data."""
        return product.sample or any(o.sample for o in self.observations.get(product.id, ()))

    def latest_markets(self, product_id: str) -> list[Observation]:
        """The product's observations on its latest trading day in the window, cheapest first."""
        rows = self.observations.get(product_id, [])
        if not rows:
            return []
        last = max(o.day for o in rows)
        return sorted((o for o in rows if o.day == last), key=lambda o: (o.average, o.market_code))

    def summary(self, product_id: str) -> Summary | None:
        if self.as_of is None:
            return None
        return summarize(self.series.get(product_id, []), self.as_of)

    def drops(self, category: str | None = None) -> list[Drop]:
        """Today's drops (on `as_of`), largest percentage first."""
        if self.as_of is None:
            return []
        out = []
        for product in self.products.values():
            if category is not None and product.category != category:
                continue
            hit = drop(product.id, self.series.get(product.id, []), self.as_of)
            if hit is not None:
                out.append(hit)
        return sorted(out, key=lambda d: (-d.percent, d.product_id))

    def compared_sample(self, category: str | None = None) -> bool:
        """Whether any product compared for today's drops (traded on as_of) has a sample price on
        as_of or on its previous trading day: an answer of no drops then rests on sample data."""
        for product in self.products.values():
            if category is not None and product.category != category:
                continue
            rows = in_window(self.series.get(product.id, []), self.as_of) if self.as_of else []
            if rows and rows[-1].day == self.as_of and any(d.sample for d in rows[-2:]):
                return True
        return False

    def search(self, q: str, category: str | None = None) -> list[Product]:
        """Products whose id or name contains `q` (case-insensitive): exact id first, then names
        starting with `q`, then the rest, each by id."""
        needle = q.strip().lower()
        hits = [
            p
            for p in self.products.values()
            if (category is None or p.category == category) and (needle in p.id.lower() or needle in p.name.lower())
        ]

        def rank(p: Product) -> tuple[int, str]:
            if p.id.lower() == needle:
                return 0, p.id
            return (1 if p.name.lower().startswith(needle) else 2), p.id

        return sorted(hits, key=rank)
