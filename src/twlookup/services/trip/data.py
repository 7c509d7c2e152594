"""Seeding the trip tables from data/trip/*.yaml, and the cached reference data."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.schemas import TAIPEI
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.trip.logic import (
    Country,
    EntryItem,
    EsimProfile,
    FxRate,
    Provenance,
    TaxFree,
    TaxFreeRule,
    as_decimal,
)
from twlookup.services.trip.tables import FxRateRecord, GuideRecord


def seed_fx(session: Session, data_dir: Path) -> int:
    """The sample board, unless a real board was imported: a seed never overwrites rates that
    `twlookup ingest trip.fx` loaded from the bank's file."""
    if session.scalar(select(FxRateRecord.currency).where(FxRateRecord.sample.is_(False)).limit(1)) is not None:
        return 0
    doc = load_yaml(data_dir / "trip" / "fx_rates.yaml")
    rows = [
        FxRateRecord(
            currency=r["currency"],
            position=i,
            name_zh=r.get("name_zh"),
            cash_buy=r.get("cash_buy"),
            cash_sell=r.get("cash_sell"),
            spot_buy=r.get("spot_buy"),
            spot_sell=r.get("spot_sell"),
            posted_at=doc["posted_at"],
            source=doc["source"],
            source_title=doc.get("source_title"),
            checked=doc["checked"],
            sample=bool(doc.get("sample", False)),
        )
        for i, r in enumerate(doc["rates"])
    ]
    return replace_rows(session, FxRateRecord, rows)


def _record(kind: str, ident: str, position: int, body: dict[str, Any], item: dict[str, Any], doc: dict[str, Any]) -> GuideRecord:
    return GuideRecord(
        kind=kind,
        id=ident,
        position=position,
        body=body,
        source=item.get("source") or doc["source"],
        source_title=item.get("source_title") or doc.get("source_title"),
        checked=item.get("checked", doc["checked"]),
        sample=bool(item.get("sample", doc.get("sample", False))),
    )


def _json(value: Any) -> Any:
    """YAML dates become ISO strings so that the body fits a JSON column."""
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items() if k not in ("source", "source_title", "checked", "sample")}
    if isinstance(value, list):
        return [_json(v) for v in value]
    if isinstance(value, date):
        return value.isoformat()
    return value


def seed_guides(session: Session, data_dir: Path) -> int:
    folder = data_dir / "trip"
    rows: list[GuideRecord] = []
    entry = load_yaml(folder / "entry.yaml")
    for code, country in entry["countries"].items():
        rows.append(_record("country", code, len(rows), {"name_en": country["name_en"], "name_zh": country["name_zh"]}, country["items"][0], entry))
        for item in country["items"]:
            rows.append(_record("entry", f"{code}:{item['id']}", len(rows), {"country": code, **_json(item)}, item, entry))
    tax = load_yaml(folder / "japan_taxfree.yaml")
    rows.append(_record("taxfree", "regime", len(rows), _json(tax["regime"]), tax["regime"], tax))
    rows.append(_record("taxfree", "parameters", len(rows), _json(tax["parameters"]), tax["parameters"], tax))
    rows.append(_record("taxfree", "consumption-tax", len(rows), _json(tax["consumption_tax"]), tax["consumption_tax"], tax))
    for rule in tax["rules"]:
        # A rule cites its own page where it names one, else the regime's.
        rows.append(_record("taxfree-rule", rule["id"], len(rows), _json(rule), rule if "source" in rule else tax["regime"], tax))
    parks = load_yaml(folder / "themeparks.yaml")
    for park in parks["parks"]:
        rows.append(_record("themepark", park["id"], len(rows), _json(park), park, parks))
    places = load_yaml(folder / "places.yaml")
    for place in places["places"]:
        rows.append(_record("place", place["id"], len(rows), _json(place), place, places))
    domestic = load_yaml(folder / "domestic.yaml")
    for mode in domestic["modes"]:
        rows.append(_record("domestic", mode["id"], len(rows), _json(mode), mode, domestic))
    sales_source = {"source": domestic["holiday_sales_source"], "source_title": domestic["holiday_sales_source_title"]}
    for sale in domestic["holiday_sales"]:
        rows.append(_record("holiday-sale", sale["id"], len(rows), _json(sale), sales_source, domestic))
    booking = load_yaml(folder / "booking.yaml")
    for item in booking["items"]:
        rows.append(_record("booking", item["id"], len(rows), _json(item), item, booking))
    esim = load_yaml(folder / "esim.yaml")
    settings = {"margin": esim["margin"], "plan_sizes_gb": esim["plan_sizes_gb"]}
    rows.append(_record("esim", "settings", len(rows), settings, esim, esim))
    for profile in esim["profiles"]:
        rows.append(_record("esim-profile", profile["id"], len(rows), _json(profile), profile, esim))
    return replace_rows(session, GuideRecord, rows)


# ---------------------------------------------------------------- the cached reference data


@dataclass(frozen=True)
class Guide:
    """One guide record as the operations use it: its body and provenance."""

    id: str
    body: dict[str, Any]
    provenance: Provenance


@dataclass(frozen=True)
class TripData:
    rates: dict[str, FxRate]  # in the bank's board order
    countries: dict[str, Country]
    taxfree: TaxFree
    themeparks: tuple[Guide, ...]
    places: dict[str, Guide]
    domestic: tuple[Guide, ...]
    holiday_sales: tuple[Guide, ...]
    booking: tuple[Guide, ...]
    esim_profiles: dict[str, EsimProfile]
    esim_margin: Decimal
    esim_plan_sizes: tuple[int, ...]
    esim_provenance: Provenance

    @property
    def posted_at(self) -> datetime | None:
        return max((r.posted_at for r in self.rates.values()), default=None)

    @property
    def sample_rates(self) -> bool:
        return any(r.provenance.sample for r in self.rates.values())


def _prov(r: FxRateRecord | GuideRecord) -> Provenance:
    return Provenance(r.source, r.source_title, r.checked, r.sample)


def _day(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def _load(session: Session) -> TripData:
    rates = {
        r.currency: FxRate(
            r.currency, r.name_zh, as_decimal(r.cash_buy), as_decimal(r.cash_sell), as_decimal(r.spot_buy),
            as_decimal(r.spot_sell), r.posted_at.replace(tzinfo=TAIPEI), _prov(r),
        )  # fmt: skip
        for r in session.scalars(select(FxRateRecord).order_by(FxRateRecord.position))
    }
    by_kind: dict[str, list[GuideRecord]] = {}
    for g in session.scalars(select(GuideRecord).order_by(GuideRecord.position)):
        by_kind.setdefault(g.kind, []).append(g)
    if "taxfree" not in by_kind or "esim" not in by_kind:
        raise RuntimeError("the trip guides are not seeded; run `twlookup seed`")
    items: dict[str, list[EntryItem]] = {}
    for g in by_kind.get("entry", []):
        b = g.body
        items.setdefault(b["country"], []).append(
            EntryItem(b["country"], b["id"], b["title"], b["requirement"], b["detail"], _day(b.get("valid_from")), _day(b.get("valid_until")), _prov(g))
        )
    countries = {
        g.id: Country(g.id, g.body["name_en"], g.body["name_zh"], tuple(items.get(g.id, ()))) for g in by_kind.get("country", [])
    }
    tax = {g.id: g for g in by_kind["taxfree"]}
    regime, params, ctax = tax["regime"], tax["parameters"], tax["consumption-tax"]
    taxfree = TaxFree(
        regime.body["id"], regime.body["name_en"], date.fromisoformat(regime.body["in_force_from"]), regime.body["replaced"],
        int(params.body["minimum_jpy_excluding_tax"]), int(params.body["customs_deadline_days"]),
        int(params.body["high_value_unit_jpy_excluding_tax"]), Decimal(str(ctax.body["standard_rate"])),
        Decimal(str(ctax.body["reduced_rate"])), ctax.body["reduced_applies_to"],
        tuple(TaxFreeRule(g.body["id"], g.body["title"], g.body["detail"], _prov(g)) for g in by_kind.get("taxfree-rule", [])),
        _prov(regime), _prov(ctax),
    )  # fmt: skip
    esim = by_kind["esim"][0]

    def guides(kind: str) -> tuple[Guide, ...]:
        return tuple(Guide(g.id, g.body, _prov(g)) for g in by_kind.get(kind, []))

    return TripData(
        rates=rates,
        countries=countries,
        taxfree=taxfree,
        themeparks=guides("themepark"),
        places={g.id: g for g in guides("place")},
        domestic=guides("domestic"),
        holiday_sales=guides("holiday-sale"),
        booking=guides("booking"),
        esim_profiles={
            g.id: EsimProfile(g.id, Decimal(str(g.body["gb_per_day"])), g.body["covers"]) for g in by_kind.get("esim-profile", [])
        },
        esim_margin=Decimal(str(esim.body["margin"])),
        esim_plan_sizes=tuple(int(s) for s in esim.body["plan_sizes_gb"]),
        esim_provenance=_prov(esim),
    )


TRIP_DATA: Reference[TripData] = Reference(_load)
