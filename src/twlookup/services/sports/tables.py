"""Store table of the sports service (mirrors schemas.Event)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import Date, String
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.domain.release_tables import RecordJSON, TrackedItemColumns
from twlookup.platform.store.base import Base


class EventRecord(TrackedItemColumns, Base):
    __tablename__ = "sports_event"

    sport: Mapped[str] = mapped_column(String(20), index=True)
    start: Mapped[date] = mapped_column(Date, index=True)
    end: Mapped[date] = mapped_column(Date)
    venue: Mapped[str] = mapped_column(String(300))
    country: Mapped[str] = mapped_column(String(100))
    organiser: Mapped[str | None] = mapped_column(String(200), default=None)
    taiwan: Mapped[str | None] = mapped_column(String(500), default=None)
    important_dates: Mapped[list[dict]] = mapped_column(RecordJSON, default=list)
    broadcasts: Mapped[list[dict]] = mapped_column(RecordJSON, default=list)
    schedule_changes: Mapped[list[dict]] = mapped_column(RecordJSON, default=list)
