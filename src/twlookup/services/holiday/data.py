"""Seeding the holiday tables from data/holiday/*.yaml, and the cached reference data."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.domain.taiwan_calendar_tables import seed_calendar
from twlookup.platform.records import DataFileError, file_defaults, to_row, validate_records
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.holiday.logic import HolidayData
from twlookup.services.holiday.logic.calendars import holiday_span
from twlookup.services.holiday.records import Destination, FlightNotes, FlightRule, GuideSection, Peak
from twlookup.services.holiday.tables import FlightNoteRow, FlightRuleRow, GuideSectionRow, PeakSeasonRow

if TYPE_CHECKING:
    from twlookup.platform.store.record_tables import DerivedRow

# A day of a month written out ("6 Feb", "Feb 6", "2027-02-06"): a peak season whose dates come from
# the holidays calendar may not repeat them in its text, where they could drift from the calendar.
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*"
_DAY_DATE = re.compile(rf"\b\d{{1,2}}(?:-\d{{1,2}})? {_MONTH}\b|\b{_MONTH} \d{{1,2}}\b|\b\d{{4}}-\d{{2}}-\d{{2}}\b")


def calendar_peak(path: Path, code: str, year: int, item: dict) -> dict:
    """A peak season that is a holiday break, with its dates taken from the destination calendar."""
    label = f"{path}: peak {item.get('name_en')!r} of {code}"
    if "start" in item or "end" in item:
        raise DataFileError(f"{label} takes its dates from the holidays calendar; remove start and end")
    if _DAY_DATE.search(item.get("why", "")):
        raise DataFileError(f"{label}: `why` may not give dates; they come from the holidays calendar")
    try:
        start, end, _ = holiday_span(code, year, tuple(item["holidays"]))
    except ValueError as exc:
        raise DataFileError(f"{label}: {exc}") from None
    return {**item, "start": start, "end": end}


def seed_holiday(session: Session, data_dir: Path) -> int:
    folder = data_dir / "holiday"
    path = folder / "peak_seasons.yaml"
    peaks_doc = load_yaml(path)
    year = int(peaks_doc["year"])
    peaks = []
    for code, country in peaks_doc["countries"].items():
        names = {"country_name_en": country["name_en"], "country_name_zh": country["name_zh"]}
        items = [{"country": code.upper(), **p} for p in country["peaks"]]
        items = [calendar_peak(path, code.upper(), year, p) if p.get("holidays") else p for p in items]
        for i, p in enumerate(validate_records(path, items, Peak, file_defaults(peaks_doc, Peak), label="name_en")):
            peaks.append(to_row(p, PeakSeasonRow, position=i, **names))
    path = folder / "flight_timing.yaml"
    flight = load_yaml(path)
    items = [{"haul": haul, **r} for haul, r in flight["rules"].items()]
    rules = validate_records(path, items, FlightRule, file_defaults(flight, FlightRule), label="haul")
    notes = {
        "last_minute_days": flight["last_minute_days"],
        "notes": flight["notes"],
        "notes_sources": flight.get("notes_sources") or (),
        "source": flight["last_minute_source"],
        "source_title": flight.get("last_minute_source_title"),
    }
    (note,) = validate_records(path, [notes], FlightNotes, file_defaults(flight, FlightNotes), label="notes")
    path = folder / "tickets_guide.yaml"
    guide_doc = load_yaml(path)
    sections = validate_records(path, guide_doc["sections"], GuideSection, file_defaults(guide_doc, GuideSection))
    count = replace_rows(session, PeakSeasonRow, peaks)
    count += replace_rows(session, FlightRuleRow, (to_row(r, FlightRuleRow) for r in rules))
    count += replace_rows(session, FlightNoteRow, [to_row(note, FlightNoteRow, key="default")])
    count += replace_rows(
        session, GuideSectionRow, (to_row(s, GuideSectionRow, position=i) for i, s in enumerate(sections))
    )
    return count


def _load(session: Session) -> HolidayData:
    destinations: dict[str, Destination] = {}
    grouped: dict[str, list[DerivedRow]] = {}
    for r in session.scalars(select(PeakSeasonRow).order_by(PeakSeasonRow.country, PeakSeasonRow.position)):
        grouped.setdefault(r.country, []).append(r)
    for code, rows in grouped.items():
        peaks = tuple(Peak.model_validate(r) for r in rows)
        destinations[code] = Destination(
            code=code, name_en=rows[0].country_name_en, name_zh=rows[0].country_name_zh, peaks=peaks
        )
    rules = {r.haul: FlightRule.model_validate(r) for r in session.scalars(select(FlightRuleRow))}
    n = session.get(FlightNoteRow, "default")
    if n is None:
        raise RuntimeError("the holiday flight notes are not seeded; run `twlookup seed`")
    query = select(GuideSectionRow).order_by(GuideSectionRow.position)
    guide = tuple(GuideSection.model_validate(g) for g in session.scalars(query))
    return HolidayData(destinations, rules, FlightNotes.model_validate(n), guide)


HOLIDAY_DATA: Reference[HolidayData] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (
    seed_calendar,
    seed_holiday,
)
