"""The sports service's rules: an event's status from its dates and today, and its dated entries."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from twlookup.platform.schemas import Source
from twlookup.services.sports.records import Event, ImportantDate
from twlookup.services.sports.schemas import DateKind, Status


def status(event: Event, today: date) -> Status:
    if today < event.start:
        return "upcoming"
    if today <= event.end:
        return "ongoing"
    return "completed"


def basis(event: Event, today: date) -> str | None:
    """Why an event reads as under way or finished: its dates passed with no change reported (a
    change of dates is recorded, and the record then holds the new dates)."""
    if today > event.end:
        return "end date passed, no delay reported"
    if today >= event.start:
        return "start date passed, no delay reported"
    return None


def check_note(event: Event, today: date) -> str | None:
    """The dates have passed since the record was checked: results and late changes are not known here."""
    if event.checked < event.end < today:
        return f"event dates passed; not re-checked since {event.checked.isoformat()}"
    if event.checked < event.start <= today:
        return f"start date passed; not re-checked since {event.checked.isoformat()}"
    return None


def date_source(event: Event, day: ImportantDate) -> Source:
    """An important date's citation: the page announcing it where the data names one, else the event's."""
    return event.cite(day.source, day.source_title) if day.source else event.source_ref


def dated_entries(event: Event) -> Iterator[tuple[date, DateKind, str, Source]]:
    """(date, kind, label, source) for the start, the end and each important date."""
    yield event.start, "start", f"{event.name} begins", event.source_ref
    for d in event.important_dates:
        yield d.date, "important", d.label, date_source(event, d)
    if event.end != event.start:
        yield event.end, "end", f"{event.name} ends", event.source_ref
