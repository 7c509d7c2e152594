"""Seeding events from data/sports/events.yaml, and the cached catalogue."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.domain.release_tracker import Catalogue
from twlookup.platform.records import load_records, to_row
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.sports.records import Event
from twlookup.services.sports.tables import EventRow


def seed_events(session: Session, data_dir: Path) -> int:
    events = load_records(data_dir / "sports" / "events.yaml", Event, "events")
    return replace_rows(session, EventRow, [to_row(e, EventRow) for e in events])


def _load(session: Session) -> Catalogue[Event]:
    return Catalogue(Event.model_validate(row) for row in session.scalars(select(EventRow)))


CATALOGUE: Reference[Catalogue[Event]] = Reference(_load)
