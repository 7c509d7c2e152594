"""Seeding the life tables from data/life/*.yaml, and the cached reference data."""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup import bundled
from twlookup.domain.taiwan_calendar_tables import seed_calendar
from twlookup.platform.records import file_defaults, load_records, read_data_file, to_row, validate_records
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.life.logic import LifeData
from twlookup.services.life.records import Draw, FuelPrice, Game, InvoicePeriod, InvoicePrize
from twlookup.services.life.tables import FuelPriceRow, InvoicePeriodRow, LotteryDrawRow


# The games' rules and the receipt prizes are fixed reference data read once from the shipped data
# folder (no feed changes them), when first asked for rather than when the app starts.
@cache
def games() -> dict[str, Game]:
    return {g.key: g for g in load_records(bundled.data_dir() / "life" / "games.yaml", Game, "games", label="key")}


@cache
def invoice_prizes() -> dict[str, InvoicePrize]:
    path = bundled.data_dir() / "life" / "invoice_prizes.yaml"
    return {p.key: p for p in load_records(path, InvoicePrize, "prizes", label="key")}


def seed_life(session: Session, data_dir: Path) -> int:
    folder = data_dir / "life"
    periods = load_records(folder / "invoice.yaml", InvoicePeriod, "periods", label="period")
    path = folder / "lottery.yaml"
    lot = read_data_file(path)
    # a draw without its own source is a generated sample: it cites the sample source and says so
    items = [
        {
            "source": lot["sample_source"],
            **({"source_title": lot["sample_source_title"]} if d.get("sample") else {}),
            **d,
        }
        for d in lot["draws"]
    ]
    draws = validate_records(path, items, Draw, file_defaults(lot, Draw), label="period")
    path = folder / "fuel.yaml"
    fuel = read_data_file(path)
    weeks = [
        {**{k: v for k, v in w.items() if k != "prices"}, "product": product, "price": Decimal(str(price))}
        for w in fuel["weeks"]
        for product, price in w["prices"].items()
    ]
    prices = validate_records(path, weeks, FuelPrice, file_defaults(fuel, FuelPrice), label="effective")
    return (
        replace_rows(session, InvoicePeriodRow, (to_row(p, InvoicePeriodRow) for p in periods))
        + replace_rows(session, LotteryDrawRow, (to_row(d, LotteryDrawRow) for d in draws))
        + replace_rows(session, FuelPriceRow, (to_row(f, FuelPriceRow) for f in prices))
    )


def _load(session: Session) -> LifeData:
    periods = {r.period: InvoicePeriod.model_validate(r) for r in session.scalars(select(InvoicePeriodRow))}
    draws: dict[str, list[Draw]] = {}
    query = select(LotteryDrawRow).order_by(LotteryDrawRow.draw_date.desc(), LotteryDrawRow.period.desc())
    for r in session.scalars(query):
        draws.setdefault(r.game, []).append(Draw.model_validate(r))
    fuel: dict[str, list[FuelPrice]] = {}
    for r in session.scalars(select(FuelPriceRow).order_by(FuelPriceRow.effective.desc())):
        fuel.setdefault(r.product, []).append(FuelPrice.model_validate(r))
    return LifeData(periods, draws, fuel)


LIFE_DATA: Reference[LifeData] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (
    seed_calendar,
    seed_life,
)
