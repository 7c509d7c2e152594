"""Taiwan's 2027 days off, long weekends and leave plans, and the helpers every answer that shows
them uses."""

from __future__ import annotations

from datetime import date, timedelta

from twlookup.domain.taiwan_calendar import Break, DayOff, TaiwanCalendar
from twlookup.domain.taiwan_calendar_tables import TAIWAN_CALENDAR
from twlookup.platform.errors import Problem
from twlookup.platform.schemas import Source
from twlookup.platform.store.derived import per_value
from twlookup.services.holiday import logic
from twlookup.services.holiday.operations.service import SERVICE
from twlookup.services.holiday.schemas import (
    YEAR,
    DayOffOut,
    HolidayOut,
    HolidaysYear,
    LeavePlanQuery,
    LeavePlans,
    LongWeekendOut,
    LongWeekends,
    LongWeekendStrategies,
    PlanOut,
    Strategies,
    Strategy,
)

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
STRATEGY_LEAVE = (1, 2, 3, 4, 5)
PLAN_RANKING = (
    "A plan is a run of consecutive days off in which every workday is taken as leave, bounded by "
    "workdays on both sides; leave is only taken on 2027 workdays. Ranked by length (longest first), "
    "then days off per leave day (no leave ranks highest), then earliest start."
)
LONG_WEEKEND_RULE = (
    "A long weekend is a run of 3 or more consecutive days off, starting in the year, that contains "
    "a national holiday or observed day (computed from the official calendar, not typed in)."
)


def taiwan_calendar() -> TaiwanCalendar:
    cal = TAIWAN_CALENDAR.get()
    if not cal.covers(YEAR):
        raise Problem(503, f"The official {YEAR} Taiwan calendar is not in the store; run `twlookup seed`.")
    return cal


def calendar_source(cal: TaiwanCalendar, year: int = YEAR) -> Source:
    return cal.years[year].source_ref


def weekday(d: date) -> str:
    return WEEKDAYS[d.weekday()]


def holiday_out(h: DayOff) -> HolidayOut:
    return HolidayOut(date=h.date, name_en=h.name_en, name_zh=h.name_zh, kind=h.kind)


def break_out(b: Break) -> LongWeekendOut:
    days = [b.start + timedelta(days=i) for i in range(b.days)]
    return LongWeekendOut(
        start=b.start,
        end=b.end,
        days=b.days,
        weekdays=[weekday(d) for d in days],
        name_en=" / ".join(dict.fromkeys(h.name_en for h in b.holidays)),
        holidays=[holiday_out(h) for h in b.holidays],
    )


def plan_out(p: logic.Plan, rank: int) -> PlanOut:
    return PlanOut(
        rank=rank,
        start=p.start,
        end=p.end,
        start_weekday=weekday(p.start),
        end_weekday=weekday(p.end),
        days=p.days,
        leave_days=p.leave_days,
        leave_dates=list(p.leave_dates),
        efficiency=p.efficiency,
        holidays=[holiday_out(h) for h in p.holidays],
    )


def holidays_year(cal: TaiwanCalendar) -> HolidaysYear:
    days = []
    for d in cal.all_days_off(YEAR):
        h = cal.days_off.get(d)
        days.append(
            DayOffOut(
                date=d,
                weekday=weekday(d),
                reason=h.name_en if h else "Weekend",
                name_zh=h.name_zh if h else "週末",
                kind=h.kind if h else "weekend",
            )
        )
    listed = cal.holidays_in(YEAR)
    return HolidaysYear(
        year=YEAR,
        count=len(days),
        weekend_days=sum(1 for d in days if d.date.weekday() >= 5),
        weekday_days_off=sum(1 for d in days if d.date.weekday() < 5),
        holidays=len(listed),
        makeup_workdays=sorted(d for d in cal.makeup_workdays if d.year == YEAR),
        days=days,
        sources=[calendar_source(cal)],
    )


@SERVICE.operation("GET", "/api/long-weekends-2027", tool="get_2027_long_weekends")
def long_weekends_2027() -> LongWeekends:
    """Taiwan's 2027 long weekends (runs of 3+ days off around a holiday), from the official calendar."""
    cal = taiwan_calendar()
    breaks = cal.long_weekends(YEAR)
    return LongWeekends(
        year=YEAR,
        count=len(breaks),
        long_weekends=[break_out(b) for b in breaks],
        rule=LONG_WEEKEND_RULE,
        sources=[calendar_source(cal)],
    )


@SERVICE.operation("GET", "/api/holidays-2027")
def holidays_2027() -> HolidaysYear:
    """Every day off in Taiwan in 2027, with the reason (holiday name or weekend) and the counts."""
    return holidays_year(taiwan_calendar())


@SERVICE.operation("GET", "/api/leave-plan", tool="plan_leave_2027")
def leave_plan(p: LeavePlanQuery) -> LeavePlans:
    """The longest 2027 breaks you can make with at most `leave` leave days (default 8 plans, at most 20).

    Every workday inside a plan is taken as leave and the days just before and after are workdays,
    so the break is exactly as long as stated."""
    cal = taiwan_calendar()
    plans = logic.plan_leave(cal, YEAR, p.leave, p.limit)
    return LeavePlans(
        year=YEAR,
        leave=p.leave,
        limit=p.limit,
        count=len(plans),
        ranking=PLAN_RANKING,
        plans=[plan_out(x, i) for i, x in enumerate(plans, 1)],
        sources=[calendar_source(cal)],
    )


@SERVICE.operation("GET", "/api/strategies-2027")
def strategies_2027() -> Strategies:
    """For each 2027 long weekend, the best break that contains it with 1, 2, 3, 4 or 5 leave days."""
    return _strategies(taiwan_calendar())


@per_value
def _strategies(cal: TaiwanCalendar) -> Strategies:
    """Depends on the calendar alone: searched once per calendar (about 9 ms each time before)."""
    grid = logic.YearGrid(cal, YEAR)
    out = []
    for b in cal.long_weekends(YEAR):
        strategies = []
        for n in STRATEGY_LEAVE:
            best = grid.best_containing(b.start, b.end, n)
            strategies.append(Strategy(leave=n, plan=plan_out(best, 1) if best else None))
        out.append(LongWeekendStrategies(long_weekend=break_out(b), strategies=strategies))
    return Strategies(year=YEAR, ranking=PLAN_RANKING, long_weekends=out, sources=[calendar_source(cal)])
