"""Seeding the holiday tables from data/holiday/*.yaml, and the cached reference data."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.holiday.logic import (
    Destination,
    FlightNotes,
    FlightRule,
    GuideSection,
    HolidayData,
    Peak,
)
from twlookup.services.holiday.tables import FlightNoteRecord, FlightRuleRecord, GuideSectionRecord, PeakSeasonRecord


def seed_holiday(session: Session, data_dir: Path) -> int:
    folder = data_dir / "holiday"
    peaks_doc = load_yaml(folder / "peak_seasons.yaml")
    peaks = [
        PeakSeasonRecord(
            country=code.upper(),
            position=i,
            country_name_en=country["name_en"],
            country_name_zh=country["name_zh"],
            name_en=p["name_en"],
            name_zh=p["name_zh"],
            start=p["start"],
            end=p["end"],
            level=p["level"],
            why=p["why"],
            source=p["source"],
            source_title=p.get("source_title"),
            checked=p.get("checked", peaks_doc["checked"]),
        )
        for code, country in peaks_doc["countries"].items()
        for i, p in enumerate(country["peaks"])
    ]
    flight = load_yaml(folder / "flight_timing.yaml")
    rules = [
        FlightRuleRecord(
            haul=haul,
            countries=[c.upper() for c in r["countries"]],
            best_min_days=r["best_min_days"],
            best_max_days=r["best_max_days"],
            peak_min_days=r["peak_min_days"],
            explain=r["explain"],
            source=r["source"],
            source_title=r.get("source_title"),
            peak_source=r["peak_source"],
            peak_source_title=r.get("peak_source_title"),
            checked=r.get("checked", flight["checked"]),
        )
        for haul, r in flight["rules"].items()
    ]
    note = FlightNoteRecord(
        key="default",
        last_minute_days=flight["last_minute_days"],
        notes=flight["notes"],
        notes_sources=[{"title": s["title"], "url": s["url"]} for s in flight.get("notes_sources") or []],
        source=flight["last_minute_source"],
        source_title=flight.get("last_minute_source_title"),
        checked=flight["checked"],
    )
    guide_doc = load_yaml(folder / "tickets_guide.yaml")
    sections = [
        GuideSectionRecord(
            id=s["id"],
            position=i,
            title_zh=s["title_zh"],
            title_en=s["title_en"],
            tips_zh=list(s["tips_zh"]),
            summary_en=s["summary_en"],
            sources=[{"title": x["title"], "url": x["url"]} for x in s["sources"]],
            source=s["sources"][0]["url"],
            source_title=s["sources"][0]["title"],
            checked=s.get("checked", guide_doc["checked"]),
        )
        for i, s in enumerate(guide_doc["sections"])
    ]
    count = replace_rows(session, PeakSeasonRecord, peaks)
    count += replace_rows(session, FlightRuleRecord, rules)
    count += replace_rows(session, FlightNoteRecord, [note])
    count += replace_rows(session, GuideSectionRecord, sections)
    return count


def _load(session: Session) -> HolidayData:
    destinations: dict[str, Destination] = {}
    grouped: dict[str, list[PeakSeasonRecord]] = {}
    for r in session.scalars(select(PeakSeasonRecord).order_by(PeakSeasonRecord.country, PeakSeasonRecord.position)):
        grouped.setdefault(r.country, []).append(r)
    for code, rows in grouped.items():
        peaks = tuple(Peak(code, r.name_en, r.name_zh, r.start, r.end, r.level, r.why, r.source, r.checked) for r in rows)
        destinations[code] = Destination(code, rows[0].country_name_en, rows[0].country_name_zh, peaks)
    rules = {
        r.haul: FlightRule(
            r.haul, tuple(r.countries), r.best_min_days, r.best_max_days, r.peak_min_days, r.explain,
            r.source, r.source_title, r.peak_source, r.peak_source_title, r.checked,
        )  # fmt: skip
        for r in session.scalars(select(FlightRuleRecord))
    }
    n = session.get(FlightNoteRecord, "default")
    if n is None:
        raise RuntimeError("the holiday flight notes are not seeded; run `twlookup seed`")
    notes = FlightNotes(
        n.last_minute_days, n.source, n.source_title, n.notes, tuple((s["title"], s["url"]) for s in n.notes_sources), n.checked
    )
    guide = tuple(
        GuideSection(g.id, g.title_zh, g.title_en, tuple(g.tips_zh), g.summary_en, tuple((s["title"], s["url"]) for s in g.sources), g.checked)
        for g in session.scalars(select(GuideSectionRecord).order_by(GuideSectionRecord.position))
    )
    return HolidayData(destinations, rules, notes, guide)


HOLIDAY_DATA: Reference[HolidayData] = Reference(_load)
