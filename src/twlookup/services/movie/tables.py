"""Store table of the movie service (mirrors schemas.Title)."""

from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.domain.release_tables import RecordJSON, TrackedItemColumns
from twlookup.platform.store.base import Base


class TitleRecord(TrackedItemColumns, Base):
    __tablename__ = "movie_title"

    type: Mapped[str] = mapped_column(String(20), index=True)
    platform: Mapped[str] = mapped_column(String(60))
    origin: Mapped[str] = mapped_column(String(2))
    release: Mapped[str] = mapped_column(String(20))
    taiwan_release: Mapped[str | None] = mapped_column(String(20), default=None)
    studio: Mapped[str | None] = mapped_column(String(200), default=None)
    delays: Mapped[list[dict]] = mapped_column(RecordJSON, default=list)
    release_confirmed_by: Mapped[str | None] = mapped_column(String(500), default=None)
