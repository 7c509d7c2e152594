"""The paid operations: a trip plan over leave windows, crowds and flight timing, and the export of
all the service's data."""

from __future__ import annotations

from twlookup.platform.schemas import today_taipei
from twlookup.services.holiday import logic
from twlookup.services.holiday.data import HOLIDAY_DATA
from twlookup.services.holiday.logic.calendars import holidays_source
from twlookup.services.holiday.operations.booking import flight_advice, guide_out, notes_out, rule_out
from twlookup.services.holiday.operations.breaks import (
    break_out,
    calendar_source,
    holidays_year,
    plan_out,
    taiwan_calendar,
)
from twlookup.services.holiday.operations.destinations import crowd_of, factor_out, peak_out, peak_sources
from twlookup.services.holiday.operations.service import SERVICE
from twlookup.services.holiday.schemas import (
    YEAR,
    DestinationExport,
    Export,
    FlightBrief,
    TripDestination,
    TripOption,
    TripPlan,
    TripPlanQuery,
)

TRIP_PLANS = 5


@SERVICE.operation("GET", "/api/pro/trip-plan", price="$0.02", example={"leave": 2, "countries": "JP,KR"})
def trip_plan(p: TripPlanQuery) -> TripPlan:
    """The best 2027 leave windows for `leave` days, the crowd level in each country and when to book.

    Up to 5 countries (comma-separated ISO codes). Flight timing is counted from today in Taiwan."""
    cal, data, today = taiwan_calendar(), HOLIDAY_DATA.get(), today_taipei()
    countries = p.countries.split(",")
    plans = logic.plan_leave(cal, YEAR, p.leave, TRIP_PLANS)
    options = []
    for rank, plan in enumerate(plans, 1):
        dests = []
        for cc in countries:
            c = crowd_of(cal, data, cc, plan.start, plan.end)
            flight, note = None, None
            rule = data.rule_for(cc) if cc != logic.ORIGIN else None
            if rule is None:
                note = f"No sourced booking rule for {cc}; rules cover {', '.join(data.flight_countries)}."
            elif plan.start < today:
                note = "This window has already begun or passed."
            else:
                a = flight_advice(cal, data, cc, plan.start, today)
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
    cal, data, today = taiwan_calendar(), HOLIDAY_DATA.get(), today_taipei()
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
        calendar=holidays_year(cal),
        long_weekends=[break_out(b) for b in cal.long_weekends(YEAR)],
        destinations=dests,
        flight_rules=rules,
        flight_notes=notes_out(data.flight_notes),
        tickets_guide=guide,
        sources=sources,
    )
