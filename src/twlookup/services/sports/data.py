"""Seeding events from data/sports/events.yaml, and the cached catalogue."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from twlookup.domain.release_import import load_catalogue, seed_curated
from twlookup.domain.release_tracker import Catalogue
from twlookup.platform.store.reference import Reference
from twlookup.services.sports.records import Event
from twlookup.services.sports.tables import EventRow


def seed_events(session: Session, data_dir: Path) -> int:
    return seed_curated(session, data_dir / "sports" / "events.yaml", Event, "events", EventRow)


def _load(session: Session) -> Catalogue[Event]:
    """The curated events."""
    return load_catalogue(session, EventRow, Event)


CATALOGUE: Reference[Catalogue[Event]] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_events,)
