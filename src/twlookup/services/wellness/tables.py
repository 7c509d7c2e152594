"""Store tables of the wellness service, derived from the records in records.py. They hold
reference data only: no answer is ever stored."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance
from twlookup.platform.store.record_tables import record_table
from twlookup.services.wellness.records import CrisisLine, Instrument, Situation


def _position() -> Any:
    """The record's place in its data file, which lists keep."""
    return mapped_column(Integer, nullable=False)


TelehealthSituationRow = record_table(
    Situation,
    "wellness_telehealth_situation",
    extra={"position": _position()},
    # the column is longer than the Literal's longest value, so that a new value needs no migration
    override={"prescribing": mapped_column(String(20), nullable=False)},
)
InstrumentRow = record_table(Instrument, "wellness_instrument")
CrisisLineRow = record_table(CrisisLine, "wellness_crisis_line", key="number", extra={"position": _position()})


class GuideRow(Provenance, Base):
    """The guides (data/wellness/guides.yaml and the telehealth regulation), one row per guide
    record: the sleep method, a breathing exercise, a digital wellness section, the regulation, and
    the breathing caution. `body` holds the record's own fields (`Exercise`, `GuideSection`,
    `SleepMethod`, `Regulation` in records.py, which are the one place they are named; data.py
    validates them when seeding and reading), `sources` its citations: a stored document, so no
    record's field is written out here."""

    __tablename__ = "wellness_guide"

    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    sources: Mapped[list[dict[str, str]]] = mapped_column(JSON)
