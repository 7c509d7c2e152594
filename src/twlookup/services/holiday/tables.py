"""Store tables of the holiday service (the Taiwan calendar itself lives in twlookup.domain)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import JSON, Date, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class PeakSeasonRecord(Provenance, Base):
    """One peak season of one destination (data/holiday/peak_seasons.yaml)."""

    __tablename__ = "holiday_peak_season"

    country: Mapped[str] = mapped_column(String(2), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    country_name_en: Mapped[str] = mapped_column(String(100))
    country_name_zh: Mapped[str] = mapped_column(String(50))
    name_en: Mapped[str] = mapped_column(String(200))
    name_zh: Mapped[str] = mapped_column(String(100))
    start: Mapped[date] = mapped_column(Date)
    end: Mapped[date] = mapped_column(Date)
    level: Mapped[str] = mapped_column(String(10))
    why: Mapped[str] = mapped_column(Text)
    # holidays the dates come from (names in the destination calendar); empty for sourced dates
    holidays: Mapped[list[str]] = mapped_column(JSON, default=list)


class FlightRuleRecord(Provenance, Base):
    """A booking-window rule for short- or long-haul flights (data/holiday/flight_timing.yaml)."""

    __tablename__ = "holiday_flight_rule"

    haul: Mapped[str] = mapped_column(String(20), primary_key=True)
    countries: Mapped[list[str]] = mapped_column(JSON, default=list)
    best_min_days: Mapped[int]
    best_max_days: Mapped[int]
    peak_min_days: Mapped[int]
    explain: Mapped[str] = mapped_column(Text)
    peak_source: Mapped[str] = mapped_column(String(500))
    peak_source_title: Mapped[str | None] = mapped_column(String(300), default=None)


class FlightNoteRecord(Provenance, Base):
    """The last-minute threshold and the general notes of the flight rules (one row)."""

    __tablename__ = "holiday_flight_note"

    key: Mapped[str] = mapped_column(String(20), primary_key=True)
    last_minute_days: Mapped[int]
    notes: Mapped[str] = mapped_column(Text)
    notes_sources: Mapped[list[dict[str, str]]] = mapped_column(JSON, default=list)


class GuideSectionRecord(Provenance, Base):
    """One section of the ticket booking guide (data/holiday/tickets_guide.yaml); `source` is the
    first of its sources, `sources` all of them."""

    __tablename__ = "holiday_guide_section"

    id: Mapped[str] = mapped_column(String(60), primary_key=True)
    position: Mapped[int]
    title_zh: Mapped[str] = mapped_column(String(200))
    title_en: Mapped[str] = mapped_column(String(200))
    tips_zh: Mapped[list[str]] = mapped_column(JSON, default=list)
    summary_en: Mapped[str] = mapped_column(Text)
    sources: Mapped[list[dict[str, str]]] = mapped_column(JSON, default=list)
