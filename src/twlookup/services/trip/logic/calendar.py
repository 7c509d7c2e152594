"""Taiwan's days off as the trip service answers them: the holidays and long weekends from the
official calendar, each citing its year's calendar."""

from __future__ import annotations

from datetime import date, timedelta

from twlookup.domain.provenance import distinct_sources
from twlookup.domain.taiwan_calendar import Break, DayOff, TaiwanCalendar
from twlookup.platform.schemas import Source
from twlookup.services.trip.schemas import BreakOut, DayOffOut, Holidays

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def day_off_out(cal: TaiwanCalendar, d: DayOff) -> DayOffOut:
    return DayOffOut(
        date=d.date,
        weekday=WEEKDAYS[d.date.weekday()],
        name_en=d.name_en,
        name_zh=d.name_zh,
        kind=d.kind,
        source=cal.years[d.date.year].source_ref,
    )


def break_out(cal: TaiwanCalendar, b: Break) -> BreakOut:
    return BreakOut(
        start=b.start,
        end=b.end,
        days=b.days,
        holidays=list(dict.fromkeys(h.name_en for h in b.holidays)),
        source=cal.years[b.start.year].source_ref,
    )


def calendar_sources(cal: TaiwanCalendar, years: list[int]) -> list[Source]:
    return distinct_sources(cal.years[y].source_ref for y in years if y in cal.years)


def breaks_overlapping(cal: TaiwanCalendar, start: date, end: date) -> list[Break]:
    out: list[Break] = []
    for year in sorted({start.year - 1, *range(start.year, end.year + 1)}):
        if cal.covers(year):
            out += [b for b in cal.long_weekends(year) if b.start <= end and start <= b.end]
    return out


def holidays(cal: TaiwanCalendar, today: date) -> Holidays:
    years = sorted(cal.years)
    last = date(years[-1], 12, 31)
    days = [d for y in years for d in cal.holidays_in(y) if d.date >= today]
    nxt = cal.next_day_off(today - timedelta(days=1))
    return Holidays(
        as_of=today,
        years=years,
        count=len(days),
        holidays=[day_off_out(cal, d) for d in days],
        next_holiday=day_off_out(cal, nxt) if nxt else None,
        long_weekends=[break_out(cal, b) for b in breaks_overlapping(cal, today, last)],
        sources=calendar_sources(cal, [y for y in years if y >= today.year]),
    )
