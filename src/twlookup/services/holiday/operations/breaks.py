"""The holiday service's operations: thin adapters from parameters to logic and results."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from twlookup.domain.taiwan_calendar import Break, DayOff, TaiwanCalendar
from twlookup.domain.taiwan_calendar_tables import TAIWAN_CALENDAR, seed_calendar
from twlookup.platform.errors import InvalidParameter, Problem
from twlookup.platform.records import Citation, SourcedRecord, as_answer
from twlookup.platform.schemas import Source, today_taipei
from twlookup.platform.service import Service
from twlookup.services.holiday import logic
from twlookup.services.holiday.data import HOLIDAY_DATA, seed_holiday
from twlookup.services.holiday.logic.calendars import (
    covered_years,
    destination_holidays,
    holidays_source,
    matching,
    partial_holidays_note,
)
from twlookup.services.holiday.records import FlightNotes, FlightRule, GuideSection, Peak
from twlookup.services.holiday.schemas import (
    MAX_CROWD_DAYS,
    MAX_DEPART_AHEAD_DAYS,
    YEAR,
    Abroad,
    AbroadQuery,
    CrowdQuery,
    CrowdResult,
    DayOffOut,
    DestinationExport,
    DestinationHoliday,
    Export,
    FactorOut,
    FlightBrief,
    FlightNotesOut,
    FlightQuery,
    FlightRuleOut,
    FlightTiming,
    GuideSectionOut,
    HolidayOut,
    HolidaysYear,
    LeavePlanQuery,
    LeavePlans,
    LongWeekendOut,
    LongWeekends,
    LongWeekendStrategies,
    Overlap,
    PeakOut,
    PlanOut,
    Strategies,
    Strategy,
    TicketsGuide,
    TripDestination,
    TripOption,
    TripPlan,
    TripPlanQuery,
)

SERVICE = Service(
    name="holiday",
    title="2027 long weekends and leave planner",
    description=(
        "Taiwan's 2027 days off and long weekends from the official government calendar, the best "
        "ways to spend leave days, destination holidays and peak seasons, crowd levels, when to book "
        "flights, and a ticket booking guide. Every answer names its sources."
    ),
)
SERVICE.seeder(seed_calendar)
SERVICE.seeder(seed_holiday)

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
TRIP_PLANS = 5


# ---------------------------------------------------------------- helpers


def _calendar() -> TaiwanCalendar:
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


def peak_out(p: Peak) -> PeakOut:
    days = destination_holidays(p.country, (p.start.year,)) if p.holidays else ()
    anchors = [dest_holiday(d, n) for d, n in matching(days, p.holidays) if p.start <= d <= p.end]
    return as_answer(p, PeakOut, dates_from="holidays calendar" if p.holidays else "source", holidays=anchors)


def dest_holiday(d: date, name: str) -> DestinationHoliday:
    return DestinationHoliday(date=d, weekday=weekday(d), name=name)


def factor_out(f: logic.CrowdFactor) -> FactorOut:
    return FactorOut(kind=f.kind, name=f.name, start=f.start, end=f.end, points=f.points)


def peak_source(r: FlightRule) -> Source:
    return r.cite(r.peak_source, r.peak_source_title)


def rule_out(r: FlightRule) -> FlightRuleOut:
    return as_answer(r, FlightRuleOut, peak_source=peak_source(r))


def citations(record: SourcedRecord, pages: Iterable[Citation]) -> list[Source]:
    """The pages a record cites, each with the record's check date and sample flag."""
    return [record.cite(c.url, c.title) for c in pages]


def guide_out(g: GuideSection) -> GuideSectionOut:
    return as_answer(g, GuideSectionOut, sources=citations(g, g.sources))


def notes_out(n: FlightNotes) -> FlightNotesOut:
    return as_answer(n, FlightNotesOut, last_minute_source=n.source_ref, notes_sources=citations(n, n.notes_sources))


def peak_sources(peaks: tuple[Peak, ...]) -> list[Source]:
    seen: dict[str, Source] = {}
    for p in peaks:
        seen.setdefault(p.source, p.source_ref)
    return list(seen.values())


def no_peak_note(country: str, data: logic.HolidayData) -> str:
    return (
        f"This service has no sourced peak-season data for {country}; crowd levels use public holidays and "
        f"Taiwan long weekends only. Countries with peak data: {', '.join(sorted(data.destinations))}."
    )


def _crowd(cal: TaiwanCalendar, data: logic.HolidayData, country: str, start: date, end: date) -> logic.Crowd:
    years = tuple(range(start.year, end.year + 1))
    return logic.assess_crowd(
        start,
        end,
        data.peaks(country),
        destination_holidays(country, years),
        logic.long_weekends_between(cal, start, end),
    )


def _flight(cal: TaiwanCalendar, data: logic.HolidayData, dest: str, depart: date, today: date) -> logic.FlightAdvice:
    rule = data.rule_for(dest)
    assert rule is not None
    reasons = logic.peak_reasons(
        depart, data.peaks(dest), logic.long_weekends_between(cal, depart, depart + timedelta(days=1))
    )
    return logic.flight_advice(depart, today, rule, data.flight_notes.last_minute_days, reasons)


def _holidays_year(cal: TaiwanCalendar) -> HolidaysYear:
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


# ---------------------------------------------------------------- operations


@SERVICE.operation("GET", "/api/long-weekends-2027", tool="get_2027_long_weekends")
def long_weekends_2027() -> LongWeekends:
    """Taiwan's 2027 long weekends (runs of 3+ days off around a holiday), from the official calendar."""
    cal = _calendar()
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
    return _holidays_year(_calendar())


@SERVICE.operation("GET", "/api/leave-plan", tool="plan_leave_2027")
def leave_plan(p: LeavePlanQuery) -> LeavePlans:
    """The longest 2027 breaks you can make with at most `leave` leave days (default 8 plans, at most 20).

    Every workday inside a plan is taken as leave and the days just before and after are workdays,
    so the break is exactly as long as stated."""
    cal = _calendar()
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
    cal = _calendar()
    grid = logic.YearGrid(cal, YEAR)
    out = []
    for b in cal.long_weekends(YEAR):
        strategies = []
        for n in STRATEGY_LEAVE:
            best = grid.best_containing(b.start, b.end, n)
            strategies.append(Strategy(leave=n, plan=plan_out(best, 1) if best else None))
        out.append(LongWeekendStrategies(long_weekend=break_out(b), strategies=strategies))
    return Strategies(year=YEAR, ranking=PLAN_RANKING, long_weekends=out, sources=[calendar_source(cal)])


@SERVICE.operation("GET", "/api/abroad")
def abroad(p: AbroadQuery) -> Abroad:
    """A destination's 2027 public holidays and peak seasons, and which Taiwan long weekends overlap them."""
    cal, data, today = _calendar(), HOLIDAY_DATA.get(), today_taipei()
    dest_days = destination_holidays(p.country, (YEAR,))
    peaks = data.peaks(p.country)
    overlaps = []
    for b in cal.long_weekends(YEAR):
        peak_names = [x.name_en for x in peaks if x.overlaps(b.start, b.end)]
        hits = [dest_holiday(d, n) for d, n in dest_days if b.start <= d <= b.end]
        if peak_names or hits:
            overlaps.append(Overlap(long_weekend=break_out(b), peak_seasons=peak_names, destination_holidays=hits))
    dest = data.destinations.get(p.country)
    notes = [] if peaks else [no_peak_note(p.country, data)]
    return Abroad(
        country=p.country,
        name_en=dest.name_en if dest else None,
        name_zh=dest.name_zh if dest else None,
        year=YEAR,
        holidays=[dest_holiday(d, n) for d, n in dest_days],
        peak_data=bool(peaks),
        peak_seasons=[peak_out(x) for x in peaks],
        overlaps=overlaps,
        notes=notes,
        sources=[holidays_source(today), calendar_source(cal), *peak_sources(peaks)],
    )


@SERVICE.operation("GET", "/api/crowd", tool="check_destination_crowd")
def crowd(p: CrowdQuery) -> CrowdResult:
    """How crowded a destination is likely to be between two dates, and why (the rule is in the answer).

    Dates are YYYY-MM-DD; end on or after start; at most 60 days in all."""
    if p.end < p.start:
        raise InvalidParameter("end", f"must be on or after start ({p.start})")
    days = (p.end - p.start).days + 1
    if days > MAX_CROWD_DAYS:
        raise InvalidParameter(
            "end", f"the range is {days} days; at most {MAX_CROWD_DAYS} days are allowed", {"max_days": MAX_CROWD_DAYS}
        )
    first, last = covered_years(p.country)
    for name, day in (("start", p.start), ("end", p.end)):
        if not first <= day.year <= last:
            raise InvalidParameter(
                name,
                f"the holidays package has {p.country}'s public holidays for {first} to {last} only",
                {"minimum_year": first, "maximum_year": last},
            )
    cal, data, today = _calendar(), HOLIDAY_DATA.get(), today_taipei()
    years = tuple(range(p.start.year, p.end.year + 1))
    dest_days = [(d, n) for d, n in destination_holidays(p.country, years) if p.start <= d <= p.end]
    peaks = data.peaks(p.country)
    lws = logic.long_weekends_between(cal, p.start, p.end)
    result = _crowd(cal, data, p.country, p.start, p.end)
    notes = []
    if not peaks:
        notes.append(no_peak_note(p.country, data))
    elif any(y != YEAR for y in years):
        notes.append(f"Peak seasons are sourced for {YEAR} only; other years count holidays and long weekends alone.")
    partial = partial_holidays_note(p.country, years)
    if partial:
        notes.append(partial)
    uncovered = [y for y in years if not cal.covers(y)]
    if uncovered:
        notes.append(
            f"No official Taiwan calendar for {', '.join(map(str, uncovered))}: Taiwan long weekends there are not counted."
        )
    overlapping = [x for x in peaks if x.overlaps(p.start, p.end)]
    sources = [
        holidays_source(today),
        *(calendar_source(cal, y) for y in sorted(cal.years) if y in years),
        *peak_sources(tuple(overlapping)),
    ]
    return CrowdResult(
        country=p.country,
        start=p.start,
        end=p.end,
        days=days,
        crowd_level=result.level,
        points=result.points,
        rule=logic.CROWD_RULE,
        factors=[factor_out(f) for f in result.factors],
        destination_holidays=[dest_holiday(d, n) for d, n in dest_days],
        peak_data=bool(peaks),
        peak_seasons=[peak_out(x) for x in overlapping],
        taiwan_long_weekends=[break_out(b) for b in lws],
        notes=notes,
        sources=sources,
    )


@SERVICE.operation("GET", "/api/flight-timing", tool="flight_booking_timing")
def flight_timing(p: FlightQuery) -> FlightTiming:
    """When to buy the flight: days left, short or long haul, peak or not, and a verdict with reasons.

    Verdicts: book now, good window, early: watch fares, last minute. Departures are from Taiwan."""
    cal, data, today = _calendar(), HOLIDAY_DATA.get(), today_taipei()
    dest = p.dest
    rule = data.rule_for(dest) if dest != logic.ORIGIN else None
    if rule is None:
        raise InvalidParameter(
            "dest", f"{p.dest!r} is not a destination with a sourced booking rule", data.flight_countries
        )
    if p.depart < today:
        raise InvalidParameter(
            "depart", f"{p.depart} is in the past (today in Taiwan is {today})", {"minimum": today.isoformat()}
        )
    if (p.depart - today).days > MAX_DEPART_AHEAD_DAYS:
        raise InvalidParameter(
            "depart",
            f"at most {MAX_DEPART_AHEAD_DAYS} days ahead; airlines open sales about a year out",
            {"maximum": (today + timedelta(days=MAX_DEPART_AHEAD_DAYS)).isoformat()},
        )
    advice = _flight(cal, data, dest, p.depart, today)
    notes = data.flight_notes
    return FlightTiming(
        as_of=today,
        depart=p.depart,
        dest=dest,
        haul=rule.haul,
        days_left=advice.days_left,
        in_peak=advice.peak,
        verdict=advice.verdict,
        reasons=list(advice.reasons),
        best_window_start=advice.best_window[0],
        best_window_end=advice.best_window[1],
        peak_book_by=advice.peak_book_by,
        last_minute_days=notes.last_minute_days,
        rule=rule_out(rule),
        notes=notes.notes,
        sources=[rule.source_ref, peak_source(rule), notes.source_ref, *citations(notes, notes.notes_sources)],
    )


@SERVICE.operation("GET", "/api/tickets-guide", tool="ticket_booking_guide")
def tickets_guide() -> TicketsGuide:
    """Booking guide for immersive theatre, escape rooms and 2027 long-weekend timing in Taiwan."""
    data = HOLIDAY_DATA.get()
    sections = [guide_out(g) for g in data.guide]
    return TicketsGuide(
        count=len(sections),
        sections=sections,
        note="Guide text written for this service from the sources listed; prices and rules are the venues' own.",
        sources=[s for sec in sections for s in sec.sources],
    )


@SERVICE.operation("GET", "/api/pro/trip-plan", price="$0.02", example={"leave": 2, "countries": "JP,KR"})
def trip_plan(p: TripPlanQuery) -> TripPlan:
    """The best 2027 leave windows for `leave` days, the crowd level in each country and when to book.

    Up to 5 countries (comma-separated ISO codes). Flight timing is counted from today in Taiwan."""
    cal, data, today = _calendar(), HOLIDAY_DATA.get(), today_taipei()
    countries = p.countries.split(",")
    plans = logic.plan_leave(cal, YEAR, p.leave, TRIP_PLANS)
    options = []
    for rank, plan in enumerate(plans, 1):
        dests = []
        for cc in countries:
            c = _crowd(cal, data, cc, plan.start, plan.end)
            flight, note = None, None
            rule = data.rule_for(cc) if cc != logic.ORIGIN else None
            if rule is None:
                note = f"No sourced booking rule for {cc}; rules cover {', '.join(data.flight_countries)}."
            elif plan.start < today:
                note = "This window has already begun or passed."
            else:
                a = _flight(cal, data, cc, plan.start, today)
                flight = FlightBrief(
                    verdict=a.verdict,
                    days_left=a.days_left,
                    haul=rule.haul,
                    best_window_start=a.best_window[0],
                    best_window_end=a.best_window[1],
                    peak_book_by=a.peak_book_by,
                    reasons=list(a.reasons),
                )
            dests.append(
                TripDestination(
                    country=cc,
                    crowd_level=c.level,
                    points=c.points,
                    factors=[factor_out(f) for f in c.factors],
                    peak_data=bool(data.peaks(cc)),
                    flight=flight,
                    flight_note=note,
                )
            )
        options.append(TripOption(plan=plan_out(plan, rank), destinations=dests))
    sources = [calendar_source(cal), holidays_source(today)]
    for cc in countries:
        sources += peak_sources(data.peaks(cc))
        rule = data.rule_for(cc)
        if rule and not any(s.url == rule.source for s in sources):
            sources.append(rule.source_ref)
    return TripPlan(
        as_of=today, leave=p.leave, countries=countries, crowd_rule=logic.CROWD_RULE, options=options, sources=sources
    )


@SERVICE.operation("GET", "/api/pro/export", price="$0.05")
def export() -> Export:
    """All the service's data: the 2027 calendar, long weekends, peak seasons, flight rules and guide."""
    cal, data, today = _calendar(), HOLIDAY_DATA.get(), today_taipei()
    dests = [
        DestinationExport(
            country=d.code, name_en=d.name_en, name_zh=d.name_zh, peak_seasons=[peak_out(x) for x in d.peaks]
        )
        for d in sorted(data.destinations.values(), key=lambda d: d.code)
    ]
    guide = [guide_out(g) for g in data.guide]
    rules = [rule_out(r) for r in data.rules.values()]
    sources = [calendar_source(cal)]
    seen = {sources[0].url}
    for s in [
        *(x.source for d in dests for x in d.peak_seasons),
        *(r.source_ref for r in data.rules.values()),
        *(r.peak_source for r in rules),
        *(s for g in guide for s in g.sources),
    ]:
        if s.url not in seen:
            seen.add(s.url)
            sources.append(s)
    return Export(
        as_of=today,
        calendar=_holidays_year(cal),
        long_weekends=[break_out(b) for b in cal.long_weekends(YEAR)],
        destinations=dests,
        flight_rules=rules,
        flight_notes=notes_out(data.flight_notes),
        tickets_guide=guide,
        sources=sources,
    )
