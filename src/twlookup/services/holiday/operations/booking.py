"""When to book: flight booking timing by the sourced booking-window rules, and the ticket booking guide."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from twlookup.domain.taiwan_calendar import TaiwanCalendar
from twlookup.platform.errors import InvalidParameter
from twlookup.platform.records import Citation, SourcedRecord, as_answer
from twlookup.platform.schemas import Source, today_taipei
from twlookup.services.holiday import logic
from twlookup.services.holiday.data import HOLIDAY_DATA
from twlookup.services.holiday.operations.breaks import taiwan_calendar
from twlookup.services.holiday.operations.service import SERVICE
from twlookup.services.holiday.records import FlightNotes, FlightRule, GuideSection
from twlookup.services.holiday.schemas import (
    MAX_DEPART_AHEAD_DAYS,
    FlightNotesOut,
    FlightQuery,
    FlightRuleOut,
    FlightTiming,
    GuideSectionOut,
    TicketsGuide,
)


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


def flight_advice(
    cal: TaiwanCalendar, data: logic.HolidayData, dest: str, depart: date, today: date
) -> logic.FlightAdvice:
    rule = data.rule_for(dest)
    assert rule is not None
    reasons = logic.peak_reasons(
        depart, data.peaks(dest), logic.long_weekends_between(cal, depart, depart + timedelta(days=1))
    )
    return logic.flight_advice(depart, today, rule, data.flight_notes.last_minute_days, reasons)


@SERVICE.operation("GET", "/api/flight-timing", tool="flight_booking_timing")
def flight_timing(p: FlightQuery) -> FlightTiming:
    """When to buy the flight: days left, short or long haul, peak or not, and a verdict with reasons.

    Verdicts: book now, good window, early: watch fares, last minute. Departures are from Taiwan."""
    cal, data, today = taiwan_calendar(), HOLIDAY_DATA.get(), today_taipei()
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
    advice = flight_advice(cal, data, dest, p.depart, today)
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
