"""Store tables of the wellness service. They hold reference data only: no answer is ever stored."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class TelehealthSituationRecord(Provenance, Base):
    """One of the 11 telehealth situations (data/wellness/telehealth.yaml)."""

    __tablename__ = "wellness_telehealth_situation"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    article: Mapped[str] = mapped_column(String(100))
    name_zh: Mapped[str] = mapped_column(String(100))
    name_en: Mapped[str] = mapped_column(String(200))
    special_case: Mapped[bool] = mapped_column(Boolean)
    remote_consultation_allowed: Mapped[bool] = mapped_column(Boolean)
    prescribing: Mapped[str] = mapped_column(String(20))
    first_visit_allowed: Mapped[bool] = mapped_column(Boolean)
    description: Mapped[str] = mapped_column(Text)
    sources: Mapped[list[dict[str, str]]] = mapped_column(JSON)


class InstrumentRecord(Provenance, Base):
    """A self-assessment instrument: items, answer range, severity bands, flagged items."""

    __tablename__ = "wellness_instrument"

    id: Mapped[str] = mapped_column(String(20), primary_key=True)
    name_zh: Mapped[str] = mapped_column(String(100))
    name_en: Mapped[str] = mapped_column(String(200))
    period: Mapped[str] = mapped_column(String(100))
    item_min: Mapped[int] = mapped_column(Integer)
    item_max: Mapped[int] = mapped_column(Integer)
    answer_scale: Mapped[str] = mapped_column(String(300))
    items: Mapped[list[str]] = mapped_column(JSON)
    bands: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    flag_items: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    extra_item: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    sources: Mapped[list[dict[str, str]]] = mapped_column(JSON)


class CrisisLineRecord(Provenance, Base):
    """A Taiwan crisis or support line (data/wellness/crisis_lines.yaml)."""

    __tablename__ = "wellness_crisis_line"

    number: Mapped[str] = mapped_column(String(20), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    name_zh: Mapped[str] = mapped_column(String(100))
    name_en: Mapped[str] = mapped_column(String(200))
    hours: Mapped[str] = mapped_column(String(200))
    purpose: Mapped[str] = mapped_column(Text)


class GuideRecord(Provenance, Base):
    """One piece of guide content (data/wellness/guides.yaml): the sleep method, a breathing
    exercise or a digital wellness section; `body` holds its fields as written in the file."""

    __tablename__ = "wellness_guide"

    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    sources: Mapped[list[dict[str, str]]] = mapped_column(JSON)
