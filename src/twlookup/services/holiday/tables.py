"""Store tables of the holiday service, each derived from its record in records.py (the Taiwan
calendar itself lives in twlookup.domain)."""

from __future__ import annotations

from sqlalchemy import Integer, String
from sqlalchemy.orm import mapped_column

from twlookup.platform.store.record_tables import record_table
from twlookup.services.holiday.records import FlightNotes, FlightRule, GuideSection, Peak

# One peak season of one destination (data/holiday/peak_seasons.yaml), with the destination's names
# and the season's place in its list.
PeakSeasonRow = record_table(
    Peak,
    "holiday_peak_season",
    key="country",
    extra={
        "position": mapped_column(Integer, primary_key=True, autoincrement=False),
        "country_name_en": mapped_column(String(100), nullable=False),
        "country_name_zh": mapped_column(String(50), nullable=False),
    },
)

FlightRuleRow = record_table(FlightRule, "holiday_flight_rule", key="haul")

# The flight notes are one row, under the key "default".
FlightNoteRow = record_table(
    FlightNotes, "holiday_flight_note", key=(), extra={"key": mapped_column(String(20), primary_key=True)}
)

GuideSectionRow = record_table(
    GuideSection, "holiday_guide_section", extra={"position": mapped_column(Integer, nullable=False)}
)
