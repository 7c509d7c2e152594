"""Store table of the motion service: every reference record, by kind, as its validated payload."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, String
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class MotionRecord(Provenance, Base):
    """One record of data/motion/: `record_type` names its record model (easing, support, library, a11y);
    `payload` is that model's fields, validated on the way in and out."""

    __tablename__ = "motion_record"

    record_type: Mapped[str] = mapped_column(String(20), primary_key=True)
    id: Mapped[str] = mapped_column(String(120), primary_key=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
