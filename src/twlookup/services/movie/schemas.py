"""The movie service's answer shapes and parameters (its record is records.Title)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from twlookup.domain.release_dates import Precision
from twlookup.domain.release_schemas import CountdownOut, DelayOut, ItemCountdown, ItemDetail
from twlookup.domain.release_state import State
from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel
from twlookup.services.movie.records import Title, TitleType

Region = Literal["TW", "origin"]  # which release: Taiwan's, or the origin country's


class TitleOut(RecordAnswer, record=Title):
    delays: list[DelayOut] = Field(description="Each change of the announced release date, with its source")
    release_in_taiwan: str = Field(
        description="The date that applies in Taiwan: taiwan_release where given, else release"
    )
    precision: Precision
    earliest: dt.date | None = Field(description="First day the Taiwan-applicable date or window can mean")
    latest: dt.date | None = Field(description="Last day the Taiwan-applicable date or window can mean")
    state: State = Field(
        description="From the Taiwan-applicable date and today (Asia/Taipei): upcoming (ahead, or today); "
        "window-open (a window that has begun and not closed); released (released or aired: the date passed "
        "with no delay reported, or a source confirms it); overdue (a window closed with no release confirmed); "
        "tba (nothing announced)"
    )
    released: bool = Field(description="state is released")
    upcoming: bool = Field(description="Still to come: state upcoming, window-open or tba")
    basis: str | None = Field(
        description='Why it is released or overdue: "date passed, no delay reported", the URL of the page '
        "confirming the release (release_confirmed_by), or the window that closed; null while still to come"
    )
    days_until: int | None = Field(
        ge=0, description="Whole days from today to `earliest`; null once it has passed, and when not announced"
    )
    days_since: int | None = Field(
        ge=0, description="Whole days since the date (a window: since its last day); null until then"
    )
    check_note: str | None = Field(description="Set when the date has passed and no source here confirms the release")


class ListQuery(Params):
    type: TitleType | None = Field(None, description="Only titles of this type")
    platform: str | None = Field(
        None, min_length=1, max_length=40, description="Keyword of the platform, e.g. cinema, netflix, disney"
    )
    upcoming: bool = Field(
        False,
        description="1 (or true): only titles still to come in Taiwan (state upcoming, window-open or tba)",
    )


class TitleList(LazyModel):
    as_of: dt.date
    count: int
    titles: list[TitleOut]


class TitleDetail(ItemDetail):
    title: TitleOut
    countdown: CountdownOut


class CalendarRelease(LazyModel):
    date: dt.date
    region: Region = Field(description="TW: the Taiwan release; origin: the origin country's")
    title: TitleOut


class Calendar(LazyModel):
    as_of: dt.date
    month: str
    count: int
    releases: list[CalendarRelease] = Field(description="Exact release days in the month, Taiwan and origin")
    windows: list[TitleOut] = Field(description="Titles announced for a window overlapping the month")


class TitleCountdown(ItemCountdown):
    region: Region = Field(description="Which release is counted to: Taiwan's where announced")


class Export(LazyModel):
    as_of: dt.date
    count: int
    titles: list[TitleOut]
