"""Seeding the trip tables from data/trip/*.yaml, importing the bank's board file, and the cached
reference data."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.domain.taiwan_calendar import TaiwanCalendar
from twlookup.domain.taiwan_calendar_tables import TAIWAN_CALENDAR, seed_calendar
from twlookup.platform.errors import Problem
from twlookup.platform.records import FILE_DEFAULTS, R, file_defaults, to_row, validate_records
from twlookup.platform.schemas import Source
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.trip.logic.rules import TaxFree
from twlookup.services.trip.parsers import BOARD_TITLE, BOARD_URL, NAMES, ParsedRate, is_history_download, parse_bot_csv
from twlookup.services.trip.records import (
    BookingTip,
    Country,
    EntryItem,
    EsimProfile,
    FxRate,
    Place,
    RailMode,
    TaxFreeRule,
    Themepark,
    TicketSale,
)
from twlookup.services.trip.tables import FxRateRecord, GuideRecord


def seed_fx(session: Session, data_dir: Path) -> int:
    """The sample board, unless a real board was imported: a seed never overwrites rates that
    `twlookup ingest trip.fx` loaded from the bank's file."""
    if session.scalar(select(FxRateRecord.currency).where(FxRateRecord.sample.is_(False)).limit(1)) is not None:
        return 0
    path = data_dir / "trip" / "fx_rates.yaml"
    doc = load_yaml(path)
    board = {**file_defaults(doc, FxRate), "posted_at": doc["posted_at"]}
    rates = validate_records(path, doc["rates"], FxRate, board, label="currency")
    rows = [fx_row(r, i) for i, r in enumerate(rates)]
    return replace_rows(session, FxRateRecord, rows)


def fx_row(rate: FxRate, position: int) -> FxRateRecord:
    """The stored row of a rate: floats, and the posting time in Taiwan time without an offset."""
    kinds = {
        k: None if v is None else float(v)
        for k, v in rate.model_dump(include={"cash_buy", "cash_sell", "spot_buy", "spot_sell"}).items()
    }
    return to_row(rate, FxRateRecord, **kinds, position=position, posted_at=rate.posted_at.replace(tzinfo=None))


def import_fx(session: Session, path: Path) -> int:
    """Load the file's rates (the bank's own values, not sample).

    A day board (ExchangeRate@...csv) is the whole board: it replaces the stored one, unless the
    store already holds a board the bank posted later (an old file is refused). A history
    download holds one currency: it updates that currency only, and never puts an older rate over
    a newer one already imported, so loading /flcsv/0/L6M/USD does not wipe JPY, KRW or VND."""
    raw = path.read_bytes()
    posted, rates = parse_bot_csv(raw, path.name)
    if is_history_download(raw):
        stored = {r.currency: r for r in session.scalars(select(FxRateRecord))}
        next_position = max((r.position for r in stored.values()), default=-1) + 1
        count = 0
        for r in rates:
            old = stored.get(r.currency)
            if old is not None and not old.sample and old.posted_at > posted:
                raise ValueError(
                    f"{r.currency}: the store holds the bank's rate posted {old.posted_at:%Y-%m-%d %H:%M}, "
                    f"newer than this file's {posted:%Y-%m-%d}; not replaced"
                )
            position = old.position if old is not None else next_position
            next_position += old is None
            session.merge(fx_row(posted_rate(r, posted), position))
            count += 1
        session.flush()
        return count
    newest = fx_held_at(session)
    if newest is not None and newest > posted:
        raise ValueError(
            f"the store holds the bank's board posted {newest:%Y-%m-%d %H:%M}, newer than this file's {posted:%Y-%m-%d %H:%M}; not replaced"
        )
    rows = [fx_row(posted_rate(r, posted), i) for i, r in enumerate(rates)]
    return replace_rows(session, FxRateRecord, rows)


def posted_rate(r: ParsedRate, posted: datetime) -> FxRate:
    """A rate read from the bank's file as the record it is: the bank's board, checked when posted."""
    return FxRate(
        **asdict(r),  # the currency and its four rates
        name_zh=NAMES.get(r.currency),
        posted_at=posted,
        source=BOARD_URL,
        source_title=BOARD_TITLE,
        checked=posted.date(),
        sample=False,
    )


def fx_held_at(session: Session) -> datetime | None:
    """When the newest board read from the bank (not the sample) was posted."""
    return session.scalar(select(func.max(FxRateRecord.posted_at)).where(FxRateRecord.sample.is_(False)))


def fx_held(session: Session) -> date | None:
    newest = fx_held_at(session)
    return newest.date() if newest else None


def _inherit(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """A nested item with the provenance of the item it sits in, unless it gives its own."""
    return {**{k: parent[k] for k in FILE_DEFAULTS if k in parent}, **child}


def _record(
    kind: str, ident: str, position: int, body: dict[str, Any], item: dict[str, Any], doc: dict[str, Any]
) -> GuideRecord:
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
    for code, country in entry["countries"].items():  # validated against the record; stored as its body
        validate_records(
            folder / "entry.yaml",
            [{"country": code, **i} for i in country["items"]],
            EntryItem,
            file_defaults(entry, EntryItem),
        )
        rows.append(
            _record(
                "country",
                code,
                len(rows),
                {"name_en": country["name_en"], "name_zh": country["name_zh"]},
                country["items"][0],
                entry,
            )
        )
        for item in country["items"]:
            rows.append(
                _record("entry", f"{code}:{item['id']}", len(rows), {"country": code, **_json(item)}, item, entry)
            )
    tax = load_yaml(folder / "japan_taxfree.yaml")
    rows.append(_record("taxfree", "regime", len(rows), _json(tax["regime"]), tax["regime"], tax))
    rows.append(_record("taxfree", "parameters", len(rows), _json(tax["parameters"]), tax["parameters"], tax))
    rows.append(
        _record("taxfree", "consumption-tax", len(rows), _json(tax["consumption_tax"]), tax["consumption_tax"], tax)
    )
    rules = [rule if "source" in rule else _inherit(tax["regime"], rule) for rule in tax["rules"]]
    validate_records(folder / "japan_taxfree.yaml", rules, TaxFreeRule, file_defaults(tax, TaxFreeRule))
    for rule in tax["rules"]:
        # A rule cites its own page where it names one, else the regime's.
        rows.append(
            _record(
                "taxfree-rule", rule["id"], len(rows), _json(rule), rule if "source" in rule else tax["regime"], tax
            )
        )
    # the guides that are one list of records each: (file, list, kind, record)
    docs: dict[str, Any] = {}
    for file, key, kind, model in (
        ("themeparks.yaml", "parks", "themepark", Themepark),
        ("places.yaml", "places", "place", Place),
        ("domestic.yaml", "modes", "domestic", RailMode),
        ("booking.yaml", "items", "booking", BookingTip),
    ):
        doc = docs[file] = load_yaml(folder / file)
        validate_records(folder / file, doc[key], model, file_defaults(doc, model))
        rows += [_record(kind, item["id"], len(rows) + i, _json(item), item, doc) for i, item in enumerate(doc[key])]
    domestic = docs["domestic.yaml"]
    sales_source = {"source": domestic["holiday_sales_source"], "source_title": domestic["holiday_sales_source_title"]}
    validate_records(
        folder / "domestic.yaml",
        domestic["holiday_sales"],
        TicketSale,
        {**file_defaults(domestic, TicketSale), **sales_source},
    )
    for sale in domestic["holiday_sales"]:
        rows.append(_record("holiday-sale", sale["id"], len(rows), _json(sale), sales_source, domestic))
    esim = load_yaml(folder / "esim.yaml")
    validate_records(folder / "esim.yaml", esim["profiles"], EsimProfile)
    settings = {"margin": esim["margin"], "plan_sizes_gb": esim["plan_sizes_gb"]}
    rows.append(_record("esim", "settings", len(rows), settings, esim, esim))
    for profile in esim["profiles"]:
        rows.append(_record("esim-profile", profile["id"], len(rows), _json(profile), profile, esim))
    return replace_rows(session, GuideRecord, rows)


# ---------------------------------------------------------------- the cached reference data


@dataclass(frozen=True)
class TripData:
    rates: dict[str, FxRate]  # in the bank's board order
    countries: dict[str, Country]
    taxfree: TaxFree
    themeparks: tuple[Themepark, ...]
    places: dict[str, Place]
    domestic: tuple[RailMode, ...]
    holiday_sales: tuple[TicketSale, ...]
    booking: tuple[BookingTip, ...]
    esim_profiles: dict[str, EsimProfile]
    esim_margin: Decimal
    esim_plan_sizes: tuple[int, ...]
    esim_source: Source

    @property
    def posted_at(self) -> datetime | None:
        return max((r.posted_at for r in self.rates.values()), default=None)

    @property
    def sample_rates(self) -> bool:
        return any(r.sample for r in self.rates.values())


def _provenance(r: GuideRecord) -> dict[str, Any]:
    return {k: getattr(r, k) for k in FILE_DEFAULTS}


def _load(session: Session) -> TripData:
    rates = {
        r.currency: FxRate.model_validate(r)
        for r in session.scalars(select(FxRateRecord).order_by(FxRateRecord.position))
    }
    by_kind: dict[str, list[GuideRecord]] = {}
    for g in session.scalars(select(GuideRecord).order_by(GuideRecord.position)):
        by_kind.setdefault(g.kind, []).append(g)
    if "taxfree" not in by_kind or "esim" not in by_kind:
        raise RuntimeError("the trip guides are not seeded; run `twlookup seed`")
    items: dict[str, list[EntryItem]] = {}
    for g in by_kind.get("entry", []):
        items.setdefault(g.body["country"], []).append(EntryItem.model_validate({**g.body, **_provenance(g)}))
    countries = {
        g.id: Country(code=g.id, name_en=g.body["name_en"], name_zh=g.body["name_zh"], items=tuple(items.get(g.id, ())))
        for g in by_kind.get("country", [])
    }
    tax = {g.id: g for g in by_kind["taxfree"]}
    regime, params, ctax = tax["regime"], tax["parameters"], tax["consumption-tax"]
    taxfree = TaxFree(
        regime.body["id"],
        regime.body["name_en"],
        date.fromisoformat(regime.body["in_force_from"]),
        regime.body["replaced"],
        int(params.body["minimum_jpy_excluding_tax"]),
        int(params.body["customs_deadline_days"]),
        int(params.body["high_value_unit_jpy_excluding_tax"]),
        Decimal(str(ctax.body["standard_rate"])),
        Decimal(str(ctax.body["reduced_rate"])),
        ctax.body["reduced_applies_to"],
        tuple(TaxFreeRule.model_validate({**g.body, **_provenance(g)}) for g in by_kind.get("taxfree-rule", [])),
        regime.source_ref,
        ctax.source_ref,
    )
    esim = by_kind["esim"][0]

    def guides(kind: str, model: type[R]) -> tuple[R, ...]:
        return tuple(model.model_validate({**g.body, **_provenance(g)}) for g in by_kind.get(kind, []))

    return TripData(
        rates=rates,
        countries=countries,
        taxfree=taxfree,
        themeparks=guides("themepark", Themepark),
        places={g.id: g for g in guides("place", Place)},
        domestic=guides("domestic", RailMode),
        holiday_sales=guides("holiday-sale", TicketSale),
        booking=guides("booking", BookingTip),
        esim_profiles={g.id: EsimProfile.model_validate(g.body) for g in by_kind.get("esim-profile", [])},
        esim_margin=Decimal(str(esim.body["margin"])),
        esim_plan_sizes=tuple(int(s) for s in esim.body["plan_sizes_gb"]),
        esim_source=esim.source_ref,
    )


TRIP_DATA: Reference[TripData] = Reference(_load)


def taiwan_calendar() -> TaiwanCalendar:
    """The official Taiwan calendar (the shared reference); a 503 until it is seeded."""
    cal = TAIWAN_CALENDAR.get()
    if not cal.years:
        raise Problem(503, "The official Taiwan calendar is not in the store; run `twlookup seed`.")
    return cal


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (
    seed_calendar,
    seed_fx,
    seed_guides,
)
