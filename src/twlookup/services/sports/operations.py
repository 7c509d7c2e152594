"""The sports service's operations: thin adapters from parameters to the shared tracker and logic."""

from __future__ import annotations

from datetime import date, timedelta

from twlookup.domain.knowledge_base import Domain
from twlookup.domain.release_dates import When, month_bounds, parse_when
from twlookup.domain.release_operations import declare_lookup_and_watchlist
from twlookup.domain.release_ops import Tracker, countdown_out, delay_out, item_countdown
from twlookup.domain.release_schemas import CountdownOut, MonthQuery, NameQuery
from twlookup.domain.release_state import days_since, days_until
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import today_taipei
from twlookup.platform.service import Service
from twlookup.services.sports import logic
from twlookup.services.sports.data import CATALOGUE
from twlookup.services.sports.records import Event
from twlookup.services.sports.schemas import (
    BroadcastAnswer,
    BroadcastOut,
    Calendar,
    DateEntry,
    EventCountdown,
    EventDetail,
    EventList,
    EventOut,
    Export,
    ImportantDateOut,
    ListQuery,
    Today,
    TodayQuery,
)

SERVICE = Service(
    name="sports",
    title="Sports events Taiwan follows",
    description=(
        "Sports events followed in Taiwan, 2026 to 2028: dates, venue, Taiwan-team information, "
        "important dates (draws, ticket sales, opening), Taiwan broadcast platforms where a source "
        "names them, countdowns in Taiwan time, and a Wikidata and Wikipedia lookup of any event."
    ),
    cors=True,
)

DOMAIN = Domain(
    name="sports",
    # Direct "instance of" (P31) classes preferred among the search's candidates. Each id was checked on
    # 2026-11-23 against stored public code that names Wikidata classes (search tool, find_string):
    #   Q13406554 sports competition, Q27020041 sports season, Q40244 marathon, Q500834 tournament,
    #   Q16510064 sporting event, Q114609228 recurring sporting event edition: each labelled so in
    #   one or more independent class tables (Q500834 once as "association football competition", in
    #   the others as "tournament");
    #   Q167170 multi-sport event: the one stored source is an entity-linking fixture that links the
    #   German "Multisport-Ereignis" to it (weaker; a wrong id only weakens the preference, the
    #   description words below are the fallback).
    classes=frozenset({"Q167170", "Q13406554", "Q500834", "Q27020041", "Q40244", "Q16510064", "Q114609228"}),
    keywords=(
        "tournament",
        "championship",
        "season",
        "games",
        "marathon",
        "cup",
        "classic",
        "open",
        "錦標賽",
        "運動會",
        "世界盃",
        "馬拉松",
        "聯賽",
        "經典賽",
        "公開賽",
        "奧運",
        "賽季",
        "比賽",
    ),
    properties={
        "P580": "start time",
        "P582": "end time",
        "P585": "point in time",
        "P641": "sport",
        "P276": "location",
        "P17": "country",
        "P664": "organizer",
    },
)


def event_out(event: Event, today: date) -> EventOut:
    return as_answer(
        event,
        EventOut,
        important_dates=[
            as_answer(d, ImportantDateOut, source=logic.date_source(event, d)) for d in event.important_dates
        ],
        broadcasts=[
            as_answer(b, BroadcastOut, source=event.cite(b.source, b.source_title, b.checked)) for b in event.broadcasts
        ],
        schedule_changes=[delay_out(d, event) for d in event.schedule_changes],
        status=logic.status(event, today),
        basis=logic.basis(event, today),
        days_until_start=days_until(event.start, today),
        days_since_end=days_since(event.end, today),
        check_note=logic.check_note(event, today),
    )


def _start(event: Event) -> When:
    return parse_when(event.start.isoformat())


def _start_countdown(event: Event, today: date) -> CountdownOut:
    return countdown_out(_start(event), today, "start")


def _entries(events: list[Event], first: date, last: date, today: date) -> list[DateEntry]:
    out = [
        DateEntry(
            date=day,
            kind=kind,
            label=label,
            upcoming=day >= today,
            days_until=days_until(day, today),
            event_id=event.id,
            event=event.name,
            event_zh=event.name_zh,
            sport=event.sport,
            source=source,
        )
        for event in events
        for day, kind, label, source in logic.dated_entries(event)
        if first <= day <= last
    ]
    out.sort(key=lambda e: (e.date, e.event_id, e.kind))
    return out


TRACKER = Tracker(CATALOGUE, DOMAIN, "event", event_out, _start_countdown, lambda e: (e.start, e.id))


@SERVICE.operation("GET", "/api/events", tool="list_sports_events")
def list_sports_events(p: ListQuery) -> EventList:
    """List events by start date, filtered by sport, status (from today's date) and Taiwan-team information."""
    today = today_taipei()
    events = [
        e
        for e in TRACKER.items()
        if (p.sport is None or e.sport == p.sport)
        and (p.status is None or logic.status(e, today) == p.status)
        and (not p.taiwan or e.taiwan)
    ]
    return EventList(as_of=today, count=len(events), events=TRACKER.answers(events, today))


@SERVICE.operation("GET", "/api/event", tool="get_sports_event")
def get_sports_event(p: NameQuery) -> EventDetail:
    """One event by id or name (English or Chinese): dates, venue, Taiwan team, important dates, broadcasters."""
    return TRACKER.detail(p.q, today_taipei(), EventDetail, _start_countdown)


@SERVICE.operation("GET", "/api/calendar", tool="sports_calendar")
def sports_calendar(p: MonthQuery) -> Calendar:
    """Important dates in one month (YYYY-MM): starts, ends, draws, ticket sales, openings."""
    today = today_taipei()
    first, last = month_bounds(p.month)
    entries = _entries(TRACKER.items(), first, last, today)
    return Calendar(as_of=today, month=p.month, count=len(entries), dates=entries)


@SERVICE.operation("GET", "/api/today", tool="whats_on")
def whats_on(p: TodayQuery) -> Today:
    """Events in progress on a day (default today in Taiwan) and the dates coming up in the next `days` days."""
    today = today_taipei()
    day = p.date or today
    until = day + timedelta(days=p.days)
    events = TRACKER.items()
    return Today(
        as_of=today,
        date=day,
        days=p.days,
        until=until,
        ongoing=[event_out(e, today) for e in events if e.start <= day <= e.end],
        coming=_entries(events, day, until, today),
    )


@SERVICE.operation("GET", "/api/broadcast", tool="taiwan_broadcast")
def taiwan_broadcast(p: NameQuery) -> BroadcastAnswer:
    """Who carries an event in Taiwan (TV channel, streaming service), each with its source; says
    "not known" where no source found names one, rather than guessing."""
    today = today_taipei()
    event, _how = TRACKER.find(p.q)
    out = event_out(event, today)
    known = bool(out.broadcasts)
    note = (
        f"{len(out.broadcasts)} platform(s) named by the sources listed; others may carry it too."
        if known
        else "Not known: no source found here names a Taiwan broadcaster for this event. Check the organiser's and the channels' announcements."
    )
    return BroadcastAnswer(
        as_of=today,
        event_id=event.id,
        event=event.name,
        event_zh=event.name_zh,
        known=known,
        platforms=out.broadcasts,
        note=note,
    )


@SERVICE.operation("GET", "/api/countdown", tool="event_countdown")
def event_countdown(p: NameQuery) -> EventCountdown:
    """Whole days (Asia/Taipei) to an event's start, and to its end; each is null once passed, and the
    days since the end are given after it."""
    today = today_taipei()
    event, _how = TRACKER.find(p.q)
    return item_countdown(
        event,
        _start(event),
        today,
        "start",
        EventCountdown,
        status=logic.status(event, today),
        basis=logic.basis(event, today),
        end=event.end,
        days_until_end=days_until(event.end, today),
        days_since_end=days_since(event.end, today),
    )


declare_lookup_and_watchlist(
    SERVICE,
    TRACKER,
    EventOut,
    module=__name__,
    lookup_tool="lookup_any_sports_event",
    lookup_doc="""Look any sports event up in Wikidata and Wikipedia (dates, venue, country, sport, organiser,
official site), in the catalogue or not. 503 when Wikidata cannot be reached and the store has
no cached answer.""",
    plural="events",
    watchlist_example="cpbl-2026-season",
)


@SERVICE.operation("GET", "/api/pro/export", price="$0.05")
def export() -> Export:
    """Every event with its dates, Taiwan team, important dates, broadcasters, schedule changes and sources."""
    today, events = today_taipei(), TRACKER.items()
    return Export(as_of=today, count=len(events), events=TRACKER.answers(events, today))
