"""CPC's posted fuel prices: this week's, and the history of a product."""

from __future__ import annotations

from twlookup.domain.provenance import distinct_sources
from twlookup.platform.errors import Problem
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import today_taipei
from twlookup.services.life.data import LIFE_DATA
from twlookup.services.life.logic import fuel as fuel_rules
from twlookup.services.life.operations.service import SERVICE
from twlookup.services.life.records import FuelPrice
from twlookup.services.life.schemas import (
    FuelHistory,
    FuelNow,
    FuelPrices,
    FuelQuery,
    FuelWeekOut,
)


def _fuel(product: str) -> list[FuelPrice]:
    history = LIFE_DATA.get().fuel.get(product) or []
    if not history:
        raise Problem(503, f"No {product} fuel prices are in the store; run `twlookup ingest life.fuel FILE`.")
    return history


@SERVICE.operation("GET", "/api/fuel", tool="get_fuel_prices")
def fuel() -> FuelPrices:
    """CPC's posted retail prices this week (92, 95, 98 unleaded and premium diesel) and the change from last week."""
    today = today_taipei()
    products, current = [], []
    for key, (zh, en) in fuel_rules.FUEL_PRODUCTS.items():
        history = _fuel(key)
        now = history[0]
        change = fuel_rules.price_change(history)
        products.append(
            as_answer(
                now,
                FuelNow,
                name_zh=zh,
                name_en=en,
                price=float(now.price),
                previous_price=float(history[1].price) if change is not None else None,
                change=float(change) if change is not None else None,
                sample=now.sample,
            )
        )
        current.append(now)
    effective = max(f.effective for f in current)
    age = (today - effective).days
    note = "Prices in NT$ per litre at CPC's own stations, tax included; they change on Mondays."
    if age > 7:
        note += f" The newest prices in the store took effect {age} days ago: this week's have not been imported yet."
    if any(p.change is None for p in products):
        note += " `change` is null where the week before is not in the store."
    return FuelPrices(
        as_of=today,
        effective=effective,
        age_days=age,
        products=products,
        note=note,
        sample=any(p.sample for p in products),
        sources=distinct_sources(f.source_ref for f in current),
    )


def _history(product: str, limit: int | None) -> FuelHistory:
    full = _fuel(product)
    shown = full[:limit] if limit else full
    weeks = []
    for i, f in enumerate(shown):
        change = fuel_rules.price_change(full, i)
        weeks.append(
            as_answer(
                f,
                FuelWeekOut,
                price=float(f.price),
                change=float(change) if change is not None else None,
                sample=f.sample,
            )
        )
    zh, en = fuel_rules.FUEL_PRODUCTS[product]
    return FuelHistory(
        product=product,
        name_zh=zh,
        name_en=en,
        weeks=len(weeks),
        limit=limit,
        history=weeks,
        minimum=float(min(f.price for f in shown)),
        maximum=float(max(f.price for f in shown)),
        sample=any(f.sample for f in shown),
        sources=distinct_sources(f.source_ref for f in shown),
    )


@SERVICE.operation("GET", "/api/fuel/history")
def fuel_history(p: FuelQuery) -> FuelHistory:
    """The latest 12 posted weeks of one product (92, 95, 98 or diesel), newest first, with weekly changes."""
    return _history(p.product, fuel_rules.FREE_FUEL_WEEKS)


@SERVICE.operation("GET", "/api/pro/fuel/history", price="$0.01", example={"product": "diesel"}, rests_on=("fuel",))
def fuel_history_full(p: FuelQuery) -> FuelHistory:
    """Every posted week of one product the store holds (92, 95, 98 or diesel), newest first."""
    return _history(p.product, None)
