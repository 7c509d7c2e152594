"""The sports service's record: one event (data/sports/events.yaml), with its important dates,
Taiwan broadcasters and changes of its dates."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field, model_validator

from twlookup.domain.release_tracker import Delay, TrackedRecord
from twlookup.platform.records import Record

Sport = Literal[
    "baseball", "basketball", "multi", "badminton", "running", "football", "soccer", "tennis", "golf", "esports"
]


class ImportantDate(Record):
    date: dt.date
    label: str = Field(min_length=1, description="What happens: draw, ticket sale, opening, final...")
    source: str | None = Field(None, description="Where this date is announced, when not the event's own source")
    source_title: str | None = None


class Broadcast(Record):
    platform: str = Field(min_length=1, description="TV channel or streaming service carrying the event in Taiwan")
    kind: Literal["tv", "streaming"]
    source: str
    source_title: str | None = None
    checked: dt.date
    note: str | None = None


class Event(TrackedRecord):
    """One event as the data file and the store hold it (data/sports/events.yaml)."""

    sport: Sport = Field(
        description="multi: multi-sport games; football: American football; soccer: association football"
    )
    start: dt.date
    end: dt.date
    venue: str = Field(min_length=1, max_length=300, description="Venue, or the host cities when there are many")
    country: str = Field(max_length=100, description="Host country or countries")
    organiser: str | None = Field(None, max_length=200)
    taiwan: str | None = Field(
        None,
        max_length=500,
        description="Taiwan-team information (the team, its group or its qualification); null when none",
    )
    important_dates: list[ImportantDate] = Field(default_factory=list)
    broadcasts: list[Broadcast] = Field(default_factory=list, description="Taiwan broadcasters, each with its source")
    schedule_changes: list[Delay] = Field(default_factory=list, description="Changes of the announced dates")

    @model_validator(mode="after")
    def _order(self) -> Event:
        if self.end < self.start:
            raise ValueError(f"end {self.end} is before start {self.start}")
        return self
