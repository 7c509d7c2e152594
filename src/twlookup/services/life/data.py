"""Seeding the life tables from data/life/*.yaml, and the cached reference data."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.life.logic import Draw, FuelPrice, InvoicePeriod, LifeData
from twlookup.services.life.tables import FuelPriceRecord, InvoicePeriodRecord, LotteryDrawRecord


def seed_life(session: Session, data_dir: Path) -> int:
    folder = data_dir / "life"
    inv = load_yaml(folder / "invoice.yaml")
    periods = [
        InvoicePeriodRecord(
            period=p["period"],
            special=p["special"],
            grand=p["grand"],
            first=list(p["first"]),
            additional_sixth=list(p.get("additional_sixth") or []),
            reported_by=p.get("reported_by"),
            source=p["source"],
            source_title=p.get("source_title"),
            checked=p.get("checked", inv["checked"]),
            sample=bool(p.get("sample", False)),
        )
        for p in inv["periods"]
    ]
    lot = load_yaml(folder / "lottery.yaml")
    draws = [
        LotteryDrawRecord(
            game=d["game"],
            period=str(d["period"]),
            draw_date=d["draw_date"],
            numbers=sorted(d["numbers"]),
            second=d.get("second"),
            reported_by=d.get("reported_by"),
            source=d.get("source", lot["sample_source"]),
            source_title=d.get("source_title", lot["sample_source_title"] if d.get("sample") else None),
            checked=d.get("checked", lot["checked"]),
            sample=bool(d.get("sample", False)),
        )
        for d in lot["draws"]
    ]
    fuel = load_yaml(folder / "fuel.yaml")
    prices = [
        FuelPriceRecord(
            product=str(product),
            effective=w["effective"],
            price=Decimal(str(price)),
            note=w.get("note"),
            reported_by=w.get("reported_by"),
            source=w.get("source", fuel["source"]),
            source_title=w.get("source_title", fuel["source_title"]),
            checked=w.get("checked", fuel["checked"]),
            sample=bool(w.get("sample", False)),
        )
        for w in fuel["weeks"]
        for product, price in w["prices"].items()
    ]
    return (
        replace_rows(session, InvoicePeriodRecord, periods)
        + replace_rows(session, LotteryDrawRecord, draws)
        + replace_rows(session, FuelPriceRecord, prices)
    )


def _load(session: Session) -> LifeData:
    periods = {
        r.period: InvoicePeriod(
            r.period, r.special, r.grand, tuple(r.first), tuple(r.additional_sixth or ()), r.source, r.source_title,
            r.checked, r.sample, r.reported_by,
        )  # fmt: skip
        for r in session.scalars(select(InvoicePeriodRecord))
    }
    draws: dict[str, list[Draw]] = {}
    query = select(LotteryDrawRecord).order_by(LotteryDrawRecord.draw_date.desc(), LotteryDrawRecord.period.desc())
    for r in session.scalars(query):
        draws.setdefault(r.game, []).append(
            Draw(r.game, r.period, r.draw_date, tuple(r.numbers), r.second, r.source, r.source_title, r.checked, r.sample, r.reported_by)
        )
    fuel: dict[str, list[FuelPrice]] = {}
    for r in session.scalars(select(FuelPriceRecord).order_by(FuelPriceRecord.effective.desc())):
        fuel.setdefault(r.product, []).append(
            FuelPrice(r.product, r.effective, Decimal(r.price), r.source, r.source_title, r.checked, r.sample, r.note, r.reported_by)
        )
    return LifeData(periods, draws, fuel)


LIFE_DATA: Reference[LifeData] = Reference(_load)
