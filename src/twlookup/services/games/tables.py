"""Store table of the games service (mirrors schemas.Game)."""

from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.domain.release_tables import RecordJSON, TrackedItemColumns
from twlookup.platform.store.base import Base


class GameRecord(TrackedItemColumns, Base):
    __tablename__ = "games_game"

    platforms: Mapped[list[str]] = mapped_column(RecordJSON)
    release: Mapped[str] = mapped_column(String(20), index=True)
    developer: Mapped[str | None] = mapped_column(String(200), default=None)
    publisher: Mapped[str | None] = mapped_column(String(200), default=None)
    delays: Mapped[list[dict]] = mapped_column(RecordJSON, default=list)
    release_confirmed_by: Mapped[str | None] = mapped_column(String(500), default=None)
