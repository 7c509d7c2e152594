"""Store table of the models service."""

from __future__ import annotations

from datetime import date

from sqlalchemy import JSON, Date, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class ModelRecord(Provenance, Base):
    __tablename__ = "models_model"

    id: Mapped[str] = mapped_column(String(120), primary_key=True)
    provider: Mapped[str] = mapped_column(String(40), index=True)
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(30))
    aliases: Mapped[list[str]] = mapped_column(JSON, default=list)
    deprecated_on: Mapped[date | None] = mapped_column(Date, default=None)
    retirement_date: Mapped[date | None] = mapped_column(Date, default=None)
    replacement: Mapped[str | None] = mapped_column(String(120), default=None)
    note: Mapped[str | None] = mapped_column(Text, default=None)
