"""Store table of the sports service, derived from its record (records.Event)."""

from __future__ import annotations

from twlookup.platform.store.record_tables import record_table
from twlookup.services.sports.records import Event

EventRow = record_table(Event, "sports_event", index=("sport", "start"))
