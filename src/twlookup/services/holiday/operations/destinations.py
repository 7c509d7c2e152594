"""Destinations: their public holidays and peak seasons, and how crowded a trip there is likely to be."""

from __future__ import annotations

from datetime import date

from twlookup.domain.taiwan_calendar import TaiwanCalendar
from twlookup.platform.errors import InvalidParameter
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import Source, today_taipei
from twlookup.services.holiday import logic
from twlookup.services.holiday.data import HOLIDAY_DATA
from twlookup.services.holiday.logic.calendars import (
    covered_years,
    destination_holidays,
    holidays_source,
    matching,
    partial_holidays_note,
)
from twlookup.services.holiday.operations.breaks import break_out, calendar_source, taiwan_calendar, weekday
from twlookup.services.holiday.operations.service import SERVICE
from twlookup.services.holiday.records import Peak
from twlookup.services.holiday.schemas import (
    MAX_CROWD_DAYS,
    YEAR,
    Abroad,
    AbroadQuery,
    CrowdQuery,
    CrowdResult,
    DestinationHoliday,
    FactorOut,
    Overlap,
    PeakOut,
)


def peak_out(p: Peak) -> PeakOut:
    days = destination_holidays(p.country, (p.start.year,)) if p.holidays else ()
    anchors = [dest_holiday(d, n) for d, n in matching(days, p.holidays) if p.start <= d <= p.end]
    return as_answer(p, PeakOut, dates_from="holidays calendar" if p.holidays else "source", holidays=anchors)


def dest_holiday(d: date, name: str) -> DestinationHoliday:
    return DestinationHoliday(date=d, weekday=weekday(d), name=name)


def factor_out(f: logic.CrowdFactor) -> FactorOut:
    return FactorOut(kind=f.kind, name=f.name, start=f.start, end=f.end, points=f.points)


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


def crowd_of(cal: TaiwanCalendar, data: logic.HolidayData, country: str, start: date, end: date) -> logic.Crowd:
    years = tuple(range(start.year, end.year + 1))
    return logic.assess_crowd(
        start,
        end,
        data.peaks(country),
        destination_holidays(country, years),
        logic.long_weekends_between(cal, start, end),
    )


@SERVICE.operation("GET", "/api/abroad")
def abroad(p: AbroadQuery) -> Abroad:
    """A destination's 2027 public holidays and peak seasons, and which Taiwan long weekends overlap them."""
    cal, data, today = taiwan_calendar(), HOLIDAY_DATA.get(), today_taipei()
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
    cal, data, today = taiwan_calendar(), HOLIDAY_DATA.get(), today_taipei()
    years = tuple(range(p.start.year, p.end.year + 1))
    dest_days = [(d, n) for d, n in destination_holidays(p.country, years) if p.start <= d <= p.end]
    peaks = data.peaks(p.country)
    lws = logic.long_weekends_between(cal, p.start, p.end)
    result = crowd_of(cal, data, p.country, p.start, p.end)
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
