"""Taiwan's calendar of days off: pure logic over the sourced official calendars.

A day is off when it is a listed day off (national holiday, festival, observed day), or a
Saturday or Sunday that is not a make-up workday. Years the store has no official calendar for
are not guessed: `covers(year)` says which are known, and only weekends count as days off
outside them (the law gives every weekend off; make-up Saturdays were dropped from 2026 on).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from datetime import date, timedelta

from twlookup.platform.schemas import Source


@dataclass(frozen=True)
class DayOff:
    date: date
    name_zh: str
    name_en: str
    kind: str  # holiday | observed | bridge


@dataclass(frozen=True)
class LaborLawDay:
    """A day off for workers under the Labor Standards Act that the government office calendar has as
    a workday (Labor Day, May 1, before 2026). `is_day_off` does not count it: the calendar is the
    government's; answers that report a date say it separately."""

    date: date
    name_zh: str
    name_en: str
    note: str
    source: str
    source_title: str | None
    checked: dt.date  # `date` is a field of this class

    @property
    def source_ref(self) -> Source:
        """The page this day rests on, as answers cite it."""
        return Source(url=self.source, title=self.source_title, checked=self.checked)


@dataclass(frozen=True)
class YearSource:
    year: int
    source: str
    source_title: str | None
    checked: date
    official: bool
    note: str | None = None

    @property
    def source_ref(self) -> Source:
        """The year's official calendar, as answers cite it."""
        return Source(url=self.source, title=self.source_title, checked=self.checked)

    def provenance(self) -> dict[str, object]:
        return {
            "source": self.source,
            "source_title": self.source_title,
            "checked": self.checked.isoformat(),
            "official": self.official,
        }


@dataclass(frozen=True)
class Break:
    """A run of consecutive days off."""

    start: date
    end: date
    holidays: tuple[DayOff, ...]

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


@dataclass
class TaiwanCalendar:
    years: dict[int, YearSource]
    days_off: dict[date, DayOff]
    makeup_workdays: dict[date, date | None] = field(default_factory=dict)  # workday -> day it pays back
    labor_law_days: dict[date, LaborLawDay] = field(default_factory=dict)  # off under the LSA only

    def labor_law_precedent(self, day: date) -> LaborLawDay | None:
        """For a holiday on the calendar, an earlier year's labor-law-only day of the same name and
        day of the year: the day was off for workers alone then and is off for everyone now."""
        holiday = self.days_off.get(day)
        if holiday is None:
            return None
        earlier = [
            d
            for d in self.labor_law_days.values()
            if d.date < day and (d.date.month, d.date.day, d.name_en) == (day.month, day.day, holiday.name_en)
        ]
        return max(earlier, key=lambda d: d.date, default=None)

    def covers(self, year: int) -> bool:
        return year in self.years

    def is_day_off(self, day: date) -> bool:
        if day in self.days_off:
            return True
        if day in self.makeup_workdays:
            return False
        return day.weekday() >= 5

    def reason(self, day: date) -> str | None:
        """Why a day is off (holiday name or 'weekend'), or None for a workday."""
        if day in self.days_off:
            return self.days_off[day].name_en
        if self.is_day_off(day):
            return "Weekend"
        return None

    def holidays_in(self, year: int) -> list[DayOff]:
        return sorted((d for d in self.days_off.values() if d.date.year == year), key=lambda d: d.date)

    def all_days_off(self, year: int) -> list[date]:
        day = date(year, 1, 1)
        out = []
        while day.year == year:
            if self.is_day_off(day):
                out.append(day)
            day += timedelta(days=1)
        return out

    def run_around(self, day: date) -> Break | None:
        """The maximal run of days off containing `day`, or None if it is a workday."""
        if not self.is_day_off(day):
            return None
        start = end = day
        while self.is_day_off(start - timedelta(days=1)):
            start -= timedelta(days=1)
        while self.is_day_off(end + timedelta(days=1)):
            end += timedelta(days=1)
        return Break(start, end, self._holidays_between(start, end))

    def breaks(self, year: int, min_days: int = 3) -> list[Break]:
        """Runs of at least `min_days` days off that start in `year` (long weekends at 3)."""
        out: list[Break] = []
        day = date(year, 1, 1)
        while day.year == year:
            if self.is_day_off(day) and not self.is_day_off(day - timedelta(days=1)):
                run = self.run_around(day)
                assert run is not None
                if run.days >= min_days:
                    out.append(run)
                day = run.end + timedelta(days=1) if run else day + timedelta(days=1)
            else:
                day += timedelta(days=1)
        return out

    def long_weekends(self, year: int) -> list[Break]:
        """Breaks of 3 days or more that contain a holiday or observed day (not plain weekends)."""
        return [b for b in self.breaks(year, 3) if b.holidays]

    def next_day_off(self, after: date, holidays_only: bool = True) -> DayOff | None:
        for day in sorted(self.days_off):
            if day > after:
                return self.days_off[day]
        return None

    def _holidays_between(self, start: date, end: date) -> tuple[DayOff, ...]:
        return tuple(self.days_off[d] for d in sorted(self.days_off) if start <= d <= end)
