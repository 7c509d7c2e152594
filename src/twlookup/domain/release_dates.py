"""Announced dates at the precision they were announced, and what follows from them and today.

Shared by the release trackers (sports, movie, games). Pure: `today` is always passed in.

An announced date is written in the data files as one of:

- ``2026-11-19``: an exact day (a confirmed date);
- ``2027-03``: a month; ``2027-Q1``: a quarter; ``2027-H2``: a half year;
- ``2027-spring`` / ``2027-summer`` / ``2027-fall``: a season (northern meteorological seasons:
  March to May, June to August, September to November; no winter, whose year is ambiguous);
- ``2027``: a year;
- ``tba``: nothing announced yet.

A window counts down to its earliest day and says so; ``tba`` has no countdown, and neither has a
date that has passed (no negative day counts: the days since it instead). What a passed date
means for the release (released, overdue) is `release_state`'s.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator

Precision = Literal["day", "month", "quarter", "half", "season", "year", "tba"]
SEASONS = {"spring": (3, 5), "summer": (6, 8), "fall": (9, 11)}
_PATTERN = re.compile(
    r"^(?P<y>\d{4})(?:-(?:(?P<m>0[1-9]|1[0-2])(?:-(?P<d>\d{2}))?|Q(?P<q>[1-4])|H(?P<h>[12])|(?P<s>spring|summer|fall)))?$"
)


@dataclass(frozen=True)
class When:
    """An announced date: its text, precision and the first and last day it can mean."""

    text: str
    precision: Precision
    earliest: date | None
    latest: date | None

    @property
    def exact(self) -> bool:
        return self.precision == "day"

    def overlaps(self, first: date, last: date) -> bool:
        return self.earliest is not None and self.latest is not None and self.earliest <= last and self.latest >= first


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def parse_when(text: str) -> When:
    """Parse an announced date; raises ValueError naming what is accepted."""
    value = text.strip()
    if value.lower() == "tba":
        return When("tba", "tba", None, None)
    m = _PATTERN.match(value)
    if not m:
        raise ValueError(
            f"{text!r} is not an announced date: use YYYY-MM-DD, YYYY-MM, YYYY-Q1..Q4, YYYY-H1/H2, "
            "YYYY-spring/summer/fall, YYYY or tba"
        )
    y = int(m["y"])
    if m["d"]:
        day = date(y, int(m["m"]), int(m["d"]))  # ValueError for 2027-02-30
        return When(value, "day", day, day)
    if m["m"]:
        return When(value, "month", date(y, int(m["m"]), 1), _month_end(y, int(m["m"])))
    if m["q"]:
        q = int(m["q"])
        return When(value, "quarter", date(y, 3 * q - 2, 1), _month_end(y, 3 * q))
    if m["h"]:
        h = int(m["h"])
        return When(value, "half", date(y, 6 * h - 5, 1), _month_end(y, 6 * h))
    if m["s"]:
        first, last = SEASONS[m["s"]]
        return When(value, "season", date(y, first, 1), _month_end(y, last))
    return When(value, "year", date(y, 1, 1), date(y, 12, 31))


def check_when(text: str) -> str:
    """Validator for record fields holding an announced date."""
    parse_when(text)
    return text


def _as_text(value: object) -> object:
    # YAML reads 2026-11-19 as a date and 2027 as an int: both are announced dates as text
    return value.isoformat() if isinstance(value, date) else str(value) if isinstance(value, int) else value


WhenText = Annotated[str, BeforeValidator(_as_text), AfterValidator(check_when)]


@dataclass(frozen=True)
class Countdown:
    target: date | None
    days: int | None  # to target; None once it has passed (never negative), or for tba
    days_since: int | None  # since target (a window: since its last day); None until then
    precision: Precision
    note: str


def countdown(when: When, today: date, what: str = "release") -> Countdown:
    """Whole days from `today` (Asia/Taipei) to the announced date, or to a window's earliest day;
    once that day has passed, no countdown but the days since (a window: since it closed)."""
    if when.earliest is None or when.latest is None:
        return Countdown(None, None, None, "tba", f"No {what} date has been announced: no countdown.")
    start, end = when.earliest.isoformat(), when.latest.isoformat()
    days = (when.earliest - today).days
    since: int | None = None
    if when.exact:
        if days >= 0:
            note = f"{days} days to the {what} on {start}"
        else:
            since = -days
            note = f"the {what} date {start} was {since} days ago: no countdown"
    elif days >= 0:
        note = (
            f"{when.text} is a window ({when.precision}), not a date: counting to its earliest day, "
            f"{start}; it may be as late as {end}"
        )
    elif today <= when.latest:
        note = (
            f"the {what} window {when.text} is open: from {start} to {end}, "
            f"{(when.latest - today).days} days left; no countdown"
        )
    else:
        since = (today - when.latest).days
        note = f"the {what} window {when.text} closed on {end}, {since} days ago: no countdown"
    return Countdown(when.earliest, days if days >= 0 else None, since, when.precision, note)


def passed_since_check(
    when: When, checked: date, today: date, confirmed: bool = False, what: str = "release date"
) -> str | None:
    """Say so when an announced date has passed and no source here confirms it happened: either it
    passed after the record was last checked, or the record's source only announced it."""
    if confirmed or when.latest is None or when.latest >= today:
        return None
    label = f"{what} {when.text}" if when.exact else f"{what} window {when.text}"
    if when.latest >= checked:
        return f"{label} passed; not re-checked since {checked.isoformat()}"
    return f"{label} has passed; no source here confirms the release (record checked {checked.isoformat()})"


def month_bounds(month: str) -> tuple[date, date]:
    year, mon = (int(part) for part in month.split("-"))
    return date(year, mon, 1), _month_end(year, mon)


def fold(text: str) -> str:
    """A name as matching sees it: NFKC (full-width to half-width), case-folded, without spaces and
    punctuation, so that "ＧＴＡ６", "gta 6" and "GTA-6" meet."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in text if ch.isalnum())
