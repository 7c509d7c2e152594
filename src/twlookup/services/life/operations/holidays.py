"""Taiwan's days off from the official calendar: a year's holidays, the next one, and any date."""

from __future__ import annotations

from datetime import timedelta

from twlookup.domain.taiwan_calendar import Break, DayOff, TaiwanCalendar
from twlookup.domain.taiwan_calendar_tables import TAIWAN_CALENDAR
from twlookup.platform.errors import InvalidParameter, Problem
from twlookup.platform.schemas import Source, today_taipei
from twlookup.services.life.operations.service import SERVICE
from twlookup.services.life.schemas import (
    BreakOut,
    DateQuery,
    HolidayOut,
    HolidaysYear,
    IsHoliday,
    MakeupOut,
    NextHoliday,
    YearQuery,
)

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def taiwan_calendar() -> TaiwanCalendar:
    cal = TAIWAN_CALENDAR.get()
    if not cal.years:
        raise Problem(503, "The Taiwan calendar is not in the store; run `twlookup seed`.")
    return cal


def _covered(cal: TaiwanCalendar) -> list[int]:
    return sorted(cal.years)


def _require_year(cal: TaiwanCalendar, year: int, param: str) -> None:
    if not cal.covers(year):
        years = _covered(cal)
        raise InvalidParameter(
            param,
            f"no official Taiwan calendar for {year} in this service; covered years: {', '.join(map(str, years))}",
            years,
        )


def _calendar_source(cal: TaiwanCalendar, year: int) -> Source:
    return cal.years[year].source_ref


def _holiday(h: DayOff) -> HolidayOut:
    return HolidayOut(
        date=h.date, weekday=WEEKDAYS[h.date.weekday()], name_zh=h.name_zh, name_en=h.name_en, kind=h.kind
    )


def _break(b: Break) -> BreakOut:
    return BreakOut(start=b.start, end=b.end, days=b.days, holidays=[_holiday(h) for h in b.holidays])


@SERVICE.operation("GET", "/api/holidays", tool="get_holidays")
def holidays(p: YearQuery) -> HolidaysYear:
    """Taiwan's national holidays, long weekends and make-up workdays of one year, from the official calendar.

    Only years the government calendar is sourced for are answered; others get a 422 listing them."""
    cal = taiwan_calendar()
    _require_year(cal, p.year, "year")
    makeups = sorted((d, paid) for d, paid in cal.makeup_workdays.items() if d.year == p.year)
    return HolidaysYear(
        year=p.year,
        official=cal.years[p.year].official,
        holidays=[_holiday(h) for h in cal.holidays_in(p.year)],
        long_weekends=[_break(b) for b in cal.long_weekends(p.year)],
        makeup_workdays=[MakeupOut(date=d, weekday=WEEKDAYS[d.weekday()], pays_back=paid) for d, paid in makeups],
        days_off=len(cal.all_days_off(p.year)),
        sources=[_calendar_source(cal, p.year)],
    )


@SERVICE.operation("GET", "/api/holidays/next")
def next_holiday() -> NextHoliday:
    """Whether today (in Taiwan) is a day off, the next holiday and long weekend, and holidays nearby."""
    cal, today = taiwan_calendar(), today_taipei()
    covered = _covered(cal)
    upcoming = cal.next_day_off(today - timedelta(days=1))
    upcoming = upcoming if upcoming and upcoming.date >= today else None
    long_weekend = None
    for year in (y for y in covered if y >= today.year):
        long_weekend = next((b for b in cal.long_weekends(year) if b.end >= today), None)
        if long_weekend:
            break
    nearby = [
        h for d, h in sorted(cal.days_off.items()) if today - timedelta(days=30) <= d <= today + timedelta(days=60)
    ]
    note = None
    if today.year not in covered or upcoming is None:
        note = f"The official calendar covers {', '.join(map(str, covered))}; dates beyond it are not guessed."
    years = sorted(
        {today.year, *(h.date.year for h in nearby), *([upcoming.date.year] if upcoming else [])} & set(covered)
    )
    return NextHoliday(
        today=today,
        today_off=cal.is_day_off(today),
        today_reason=cal.reason(today),
        next_holiday=_holiday(upcoming) if upcoming else None,
        days_until_next_holiday=(upcoming.date - today).days if upcoming else None,
        next_long_weekend=_break(long_weekend) if long_weekend else None,
        nearby=[_holiday(h) for h in nearby],
        covered_years=covered,
        note=note,
        sources=[_calendar_source(cal, y) for y in years] or [_calendar_source(cal, covered[-1])],
    )


@SERVICE.operation("GET", "/api/is-holiday", tool="is_holiday")
def is_holiday(p: DateQuery) -> IsHoliday:
    """Whether a date (YYYY-MM-DD) is a day off in Taiwan, why, and the run of days off it belongs to."""
    cal = taiwan_calendar()
    _require_year(cal, p.date.year, "date")
    run = cal.run_around(p.date)
    holiday = cal.days_off.get(p.date)
    sources = [_calendar_source(cal, p.date.year)]
    labor, note = cal.labor_law_days.get(p.date), None
    if labor is not None:
        note = f"{labor.name_en} ({labor.name_zh}): {labor.note}"
        sources.append(labor.source_ref)
    elif (earlier := cal.labor_law_precedent(p.date)) is not None:
        note = (
            f"{earlier.name_en} is a day off for everyone on this year's government calendar; in "
            f"{earlier.date.year} and before only workers under the Labor Standards Act had it off."
        )
        sources.append(earlier.source_ref)
    return IsHoliday(
        date=p.date,
        weekday=WEEKDAYS[p.date.weekday()],
        off=cal.is_day_off(p.date),
        reason=cal.reason(p.date),
        holiday=_holiday(holiday) if holiday else None,
        makeup_workday=p.date in cal.makeup_workdays,
        labor_law_day_off=labor is not None and not cal.is_day_off(p.date),
        run=_break(run) if run else None,
        note=note,
        sources=sources,
    )
