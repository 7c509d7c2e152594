"""The games service's answer shapes and parameters (its record is records.Game)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from twlookup.domain.release_dates import Precision
from twlookup.domain.release_schemas import CountdownOut, DelayOut, ItemCountdown, ItemDetail
from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel
from twlookup.services.games.records import Game, Platform

Status = Literal["confirmed", "window", "tba", "released", "overdue"]


class GameOut(RecordAnswer, record=Game):
    delays: list[DelayOut] = Field(description="Each change of the announced release date, with its source")
    status: Status = Field(
        description="From the announced date and today (Asia/Taipei): confirmed: an exact date ahead (or today); "
        "window: a month, quarter, half, season or year not closed yet; tba: nothing announced; released: the "
        "date passed with no delay reported, or a source confirms the release (release_confirmed_by); overdue: "
        "a window closed with no release confirmed"
    )
    upcoming: bool = Field(description="Still to come: status confirmed, window or tba")
    basis: str | None = Field(
        description='Why it is released or overdue: "date passed, no delay reported", the URL of the page '
        "confirming the release, or the window that closed; null while still to come"
    )
    precision: Precision
    earliest: dt.date | None = Field(description="First day the announced date or window can mean")
    latest: dt.date | None = Field(description="Last day the announced date or window can mean")
    days_until: int | None = Field(
        ge=0, description="Whole days from today to `earliest`; null once it has passed, and for tba"
    )
    days_since: int | None = Field(
        ge=0, description="Whole days since the date (a window: since its last day); null until then"
    )
    check_note: str | None = Field(
        description='Set when the date has passed and no source here confirms the release, e.g. "release date 2026-11-19 passed; not re-checked since 2026-11-02"'
    )


class ListQuery(Params):
    platform: Platform | None = Field(None, description="Only games announced for this platform")
    status: Status | None = Field(None, description="Only games in this status today")
    upcoming: bool = Field(False, description="1 (or true): only games still to come (status confirmed, window or tba)")


class GameList(LazyModel):
    as_of: dt.date
    count: int
    counts_by_status: dict[str, int]
    games: list[GameOut]


class GameDetail(ItemDetail):
    game: GameOut
    countdown: CountdownOut


class CalendarEntry(LazyModel):
    date: dt.date
    games: list[GameOut]


class Calendar(LazyModel):
    as_of: dt.date
    month: str
    count: int = Field(description="Games with an exact date in the month")
    days: list[CalendarEntry]
    windows: list[GameOut] = Field(
        description="Games announced for a window that overlaps the month (month, quarter, season, year)"
    )


class GameCountdown(ItemCountdown):
    status: Status


class Export(LazyModel):
    as_of: dt.date
    count: int
    games: list[GameOut]
