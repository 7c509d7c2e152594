"""The holiday service's records, each declared once: a destination's peak season
(data/holiday/peak_seasons.yaml), a flight booking-window rule and the flight notes
(flight_timing.yaml), and a section of the ticket guide (tickets_guide.yaml). The data files are
validated against them when seeding, the store's tables mirror them, and the logic and answers
work on them."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import field_validator

from twlookup.platform.records import Citation, CitingRecord, Record, SourcedRecord


class Peak(SourcedRecord):
    """A destination's peak season. One that is a holiday break names the holidays (`holidays`, as the
    destination calendar names them) and takes its dates from that calendar when seeded; `source`
    backs the crowding (`why`). Other peaks (seasons, school terms) carry their sourced dates."""

    country: str
    name_en: str
    name_zh: str
    start: date
    end: date
    level: Literal["high", "medium"]
    why: str
    holidays: tuple[str, ...] = ()

    def overlaps(self, start: date, end: date) -> bool:
        return self.start <= end and start <= self.end


class Destination(Record):
    code: str
    name_en: str
    name_zh: str
    peaks: tuple[Peak, ...]


class FlightRule(SourcedRecord):
    haul: Literal["short_haul", "long_haul"]
    countries: tuple[str, ...]
    best_min_days: int
    best_max_days: int
    peak_min_days: int
    explain: str
    peak_source: str
    peak_source_title: str | None = None

    @field_validator("countries")
    @classmethod
    def _upper(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(c.upper() for c in value)


class FlightNotes(SourcedRecord):
    """The last-minute threshold (its source is the record's) and the general notes with theirs."""

    last_minute_days: int
    notes: str
    notes_sources: tuple[Citation, ...] = ()


class GuideSection(CitingRecord):
    """A section of the ticket guide; its `source` is the first of its `sources`."""

    id: str
    title_zh: str
    title_en: str
    tips_zh: tuple[str, ...]
    summary_en: str
