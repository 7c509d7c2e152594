"""The sports service's answer shapes and parameters (its record is records.Event)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from twlookup.domain.release_schemas import CountdownOut, DelayOut, ItemCountdown, ItemDetail
from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import IsoDate, LazyModel, Source
from twlookup.services.sports.records import Broadcast, Event, ImportantDate, Sport

Status = Literal["upcoming", "ongoing", "completed"]
DateKind = Literal["start", "end", "important"]


class ImportantDateOut(RecordAnswer, record=ImportantDate, exclude=("source", "source_title")):
    source: Source


class BroadcastOut(RecordAnswer, record=Broadcast, exclude=("source", "source_title", "checked")):
    source: Source


class EventOut(RecordAnswer, record=Event):
    important_dates: list[ImportantDateOut]
    broadcasts: list[BroadcastOut]
    schedule_changes: list[DelayOut]
    status: Status = Field(
        description="From the dates and today (Asia/Taipei): upcoming before the start day, ongoing from the "
        "start to the end day (a multi-day event under way), completed after the end day"
    )
    basis: str | None = Field(
        description='Why it reads as under way or finished: "start date passed, no delay reported" or "end date '
        'passed, no delay reported"; null while upcoming'
    )
    days_until_start: int | None = Field(
        ge=0, description="Whole days from today to the start; null once the start day has passed"
    )
    days_since_end: int | None = Field(ge=0, description="Whole days since the end day; null until it has passed")
    check_note: str | None = Field(description="Set when the dates have passed since the record was checked")


class ListQuery(Params):
    sport: Sport | None = Field(
        None, description="Only this sport (multi: multi-sport games; soccer: association football)"
    )
    status: Status | None = Field(None, description="Only events in this status today")
    taiwan: bool = Field(False, description="1 (or true): only events with Taiwan-team information")


class EventList(LazyModel):
    as_of: dt.date
    count: int
    events: list[EventOut]


class EventDetail(ItemDetail):
    event: EventOut
    countdown: CountdownOut


class DateEntry(LazyModel):
    date: dt.date
    kind: DateKind
    label: str
    upcoming: bool = Field(description="The date is today or later (Asia/Taipei)")
    days_until: int | None = Field(ge=0, description="Whole days from today to the date; null once it has passed")
    event_id: str
    event: str
    event_zh: str | None
    sport: Sport
    source: Source


class Calendar(LazyModel):
    as_of: dt.date
    month: str
    count: int
    dates: list[DateEntry]


class TodayQuery(Params):
    date: IsoDate | None = Field(
        None, description="Day to look from (YYYY-MM-DD, 2000 to 2099); default today in Taiwan"
    )
    days: int = Field(7, ge=0, le=90, description="Look this many days ahead (0 to 90; default 7)")


class Today(LazyModel):
    as_of: dt.date = Field(description="Today in Taiwan")
    date: dt.date = Field(description="The day looked from")
    days: int
    until: dt.date
    ongoing: list[EventOut] = Field(description="Events in progress on `date`")
    coming: list[DateEntry] = Field(
        description="Starts, ends and important dates from `date` to `until` (from `date` looked from, so "
        "a past `date` lists past dates, each with upcoming false)"
    )


class BroadcastAnswer(LazyModel):
    as_of: dt.date
    event_id: str
    event: str
    event_zh: str | None
    known: bool = Field(description="False when no source found says who carries the event in Taiwan")
    platforms: list[BroadcastOut]
    note: str


class EventCountdown(ItemCountdown):
    status: Status
    basis: str | None = Field(description="Why it reads as under way or finished; null while upcoming")
    end: dt.date
    days_until_end: int | None = Field(ge=0, description="Whole days to the end day; null once it has passed")
    days_since_end: int | None = Field(ge=0, description="Whole days since the end day; null until it has passed")


class Export(LazyModel):
    as_of: dt.date
    count: int
    events: list[EventOut]
