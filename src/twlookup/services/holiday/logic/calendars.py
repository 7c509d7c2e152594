"""Destination public-holiday calendars: the one source of holiday dates in the holiday service.

Answers list them (`/api/abroad`, `/api/crowd`), the crowd rule counts them, and the peak seasons
that are a holiday break take their dates from them when seeded (`holiday_span`), so a peak season
and the calendar cannot disagree. The calendars come from the `holidays` package (MIT).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from datetime import date, timedelta
from functools import cache, lru_cache
from importlib.metadata import version
from typing import TYPE_CHECKING, Any

from twlookup.platform.package_init import defer_init
from twlookup.platform.schemas import Source
from twlookup.startup import long_lived

if TYPE_CHECKING:
    import holidays

HOLIDAYS_PKG_URL = "https://github.com/vacanza/holidays"

# Which of the package's categories make up a country's days off (the package's default, "public",
# elsewhere). Hong Kong's "public" category is the statutory holidays of the Employment Ordinance;
# the days banks, schools and offices close are the general holidays of the General Holidays
# Ordinance (Cap. 149; its schedule, read 2026-11-23 at http://www.hklii.org/hk/legis/en/ord/149/sch.html,
# lists Good Friday and the day following it), which the package files under "optional".
CATEGORIES: dict[str, tuple[str, ...]] = {"HK": ("public", "optional")}


# The package is the source of every destination holiday; its licence and version (from its
# metadata) were read on the date given. An answer cites it as checked on the day it is given
# (`holidays_source`), since the calendars are computed from the installed package when asked.
HOLIDAYS_SOURCE = Source(
    url=HOLIDAYS_PKG_URL,
    # the installed version, read from the package's metadata: importing the package for it would
    # load it at every start rather than with the first calendar asked for
    title=f"holidays (python-holidays) {version('holidays')}: country public holiday calendars",
    checked=date(2026, 11, 26),
    licence="MIT",
)


def holidays_source(today: date) -> Source:
    return HOLIDAYS_SOURCE.model_copy(update={"checked": today})


@cache
def _package() -> Any:
    """The holidays package, imported by the first calendar asked for, not when the app starts;
    its modules stay for good (out of the collector's scans: twlookup/startup.py). Its
    `holidays.countries` package would import all 250 country modules for the first country
    asked for (about 8 MB); each country's module is imported when its calendar is first asked
    for instead (platform/package_init.py)."""
    import holidays

    defer_init("holidays.countries")

    long_lived()
    return holidays


def _calendar(country: str, years: Iterable[int] = (), language: str | None = None) -> holidays.HolidayBase:
    return _package().country_holidays(
        country, years=list(years), language=language, categories=CATEGORIES.get(country)
    )


@lru_cache(maxsize=512)
def covered_years(country: str) -> tuple[int, int]:
    """The years the `holidays` package has a calendar of `country` for."""
    probe = _calendar(country)
    return probe.start_year, probe.end_year


@lru_cache(maxsize=512)
def partial_holidays_note(country: str, years: tuple[int, ...]) -> str | None:
    """Some calendars (India's lunar holidays) are tabulated for fewer years than the country's
    range; the package then warns and returns the fixed-date holidays only. Say so."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _calendar(country, years).get(date(years[0], 1, 1))
    messages = sorted({str(w.message) for w in caught})
    if not messages:
        return None
    return f"Incomplete destination holidays for {country} in {', '.join(map(str, years))}: " + " ".join(messages)


@lru_cache(maxsize=512)
def destination_holidays(country: str, years: tuple[int, ...]) -> tuple[tuple[date, str], ...]:
    """Public holidays of a country from the `holidays` package, in English where it has English."""
    probe = _calendar(country)
    language = "en_US" if "en_US" in (probe.supported_languages or ()) else None
    with warnings.catch_warnings():  # an incomplete calendar is reported by partial_holidays_note
        warnings.simplefilter("ignore")
        return tuple(sorted(_calendar(country, years, language).items()))


MAX_SPAN_DAYS = 14


def matching(days: Iterable[tuple[date, str]], names: Iterable[str]) -> list[tuple[date, str]]:
    """The holidays whose name contains one of `names` (case-insensitive)."""
    wanted = [n.lower() for n in names]
    return [(d, n) for d, n in days if any(w in n.lower() for w in wanted)]


def holiday_span(country: str, year: int, names: tuple[str, ...]) -> tuple[date, date, list[tuple[date, str]]]:
    """The dates of a peak season that is a holiday break: from the first to the last day of the runs
    of days off (the calendar's holidays, Saturdays and Sundays) that hold a holiday named like one of
    `names` in `year`, kept within the year, with those holidays. ValueError when the calendar has
    none of them, or when they are more than MAX_SPAN_DAYS apart (a name matching unrelated days)."""
    days = destination_holidays(country, (year - 1, year, year + 1))
    off = {d for d, _ in days}
    hits = [(d, n) for d, n in matching(days, names) if d.year == year]
    if not hits:
        raise ValueError(f"the {country} calendar has no holiday named like {', '.join(names)} in {year}")

    def is_off(d: date) -> bool:
        return d in off or d.weekday() >= 5

    start, end = hits[0][0], hits[-1][0]
    if (end - start).days > MAX_SPAN_DAYS:
        raise ValueError(f"the {country} holidays named like {', '.join(names)} in {year} span {start} to {end}")
    while is_off(start - timedelta(days=1)) and start > date(year, 1, 1):
        start -= timedelta(days=1)
    while is_off(end + timedelta(days=1)) and end < date(year, 12, 31):
        end += timedelta(days=1)
    return start, end, hits
