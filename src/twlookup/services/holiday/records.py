"""The holiday service's records, each declared once: a destination's peak season
(data/holiday/peak_seasons.yaml), a flight booking-window rule and the flight notes
(flight_timing.yaml), and a section of the ticket guide (tickets_guide.yaml). The data files are
validated against them when seeding, the store's tables mirror them, and the logic and answers
work on them."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field, field_validator

from twlookup.platform.records import Citation, CitingRecord, Record, SourcedRecord


class Peak(SourcedRecord):
    """A destination's peak season. One that is a holiday break names the holidays (`holidays`, as the
    destination calendar names them) and takes its dates from that calendar when seeded; `source`
    backs the crowding (`why`). Other peaks (seasons, school terms) carry their sourced dates."""

    country: str = Field(max_length=2, description="ISO 3166-1 alpha-2 code of the destination")
    name_en: str = Field(max_length=200)
    name_zh: str = Field(max_length=100)
    start: date
    end: date
    level: Literal["high", "medium"] = Field(description="high or medium")
    why: str = Field(description="Why it is crowded, as the source says")
    holidays: tuple[str, ...] = Field(
        (), description="The destination-calendar holidays the dates come from (empty when the source gives them)"
    )

    def overlaps(self, start: date, end: date) -> bool:
        return self.start <= end and start <= self.end


class Destination(Record):
    code: str
    name_en: str
    name_zh: str
    peaks: tuple[Peak, ...]


class FlightRule(SourcedRecord):
    """When to buy a flight from Taiwan to a short- or long-haul destination
    (data/holiday/flight_timing.yaml): the lead times fares are usually lowest at, backed by `source`,
    and the lead time for peak dates, backed by `peak_source`. Each field is declared here only: the
    table (tables.py), the answer (schemas.FlightRuleOut) and the check of the data file derive from it."""

    haul: Literal["short_haul", "long_haul"]
    countries: tuple[str, ...] = Field(description="ISO 3166-1 alpha-2 codes of the destinations the rule covers")
    best_min_days: int = Field(
        ge=0, description="Fewest days before departure of the window fares are usually lowest in"
    )
    best_max_days: int = Field(ge=0, description="Most days before departure of that window")
    peak_min_days: int = Field(ge=0, description="For peak dates: buy at least this many days ahead")
    explain: str = Field(description="What the sources found, in this service's words")
    peak_source: str = Field(max_length=500, description="The page the peak lead time rests on")
    peak_source_title: str | None = Field(None, max_length=300)

    @field_validator("countries")
    @classmethod
    def _upper(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(c.upper() for c in value)


class FlightNotes(SourcedRecord):
    """The last-minute threshold (its source is the record's) and the general notes with theirs."""

    last_minute_days: int = Field(
        ge=0, description="Inside this many days of departure fares are usually above average"
    )
    notes: str
    notes_sources: tuple[Citation, ...] = ()


class GuideSection(CitingRecord):
    """A section of the ticket guide; its `source` is the first of its `sources`."""

    id: str = Field(max_length=60)
    title_zh: str = Field(max_length=200)
    title_en: str = Field(max_length=200)
    tips_zh: tuple[str, ...]
    summary_en: str
