"""CPC's posted fuel prices: the products, and the weekly change."""

from __future__ import annotations

from decimal import Decimal

from twlookup.services.life.records import FuelPrice

FUEL_PRODUCTS = {
    "92": ("92無鉛汽油", "92 unleaded gasoline"),
    "95": ("95無鉛汽油", "95 unleaded gasoline"),
    "98": ("98無鉛汽油", "98 unleaded gasoline"),
    "diesel": ("超級柴油", "premium diesel"),
}
FREE_FUEL_WEEKS = 12
MAX_WEEK_GAP = 7  # CPC posts a price every Monday: a larger gap means weeks are missing from the store


def price_change(history: list[FuelPrice], index: int = 0) -> Decimal | None:
    """The price of history[index] minus the week before it (newest-first history); None when the
    week before is not in the store (a gap over 7 days would otherwise pass a months-long change off
    as this week's)."""
    if index + 1 >= len(history):
        return None
    now, before = history[index], history[index + 1]
    if (now.effective - before.effective).days > MAX_WEEK_GAP:
        return None
    return now.price - before.price
