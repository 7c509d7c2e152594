"""Feed state in the store: one row per part of a feed, and one refresh lock per feed (the feeds in
platform/feeds write them; a seed, which may put shipped rows back, makes the feeds forget their last file)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, DateTime, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base


class FeedStateRow(Base):
    """What the platform knows of one part of a feed: when it was last tried, last got a good answer,
    last imported, the last error, the publisher's validators and how new the imported data is."""

    __tablename__ = "feed_state"

    feed: Mapped[str] = mapped_column(String(80), primary_key=True)  # "life.invoice"
    part: Mapped[str] = mapped_column(String(80), primary_key=True)  # "rss", "TWSE", "lotto649"
    url: Mapped[str | None] = mapped_column(String(500), default=None)
    last_attempt: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    last_success: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    last_import: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    last_outcome: Mapped[str | None] = mapped_column(String(20), default=None)
    last_message: Mapped[str | None] = mapped_column(Text, default=None)
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
    last_error_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    etag: Mapped[str | None] = mapped_column(String(300), default=None)
    last_modified: Mapped[str | None] = mapped_column(String(100), default=None)
    sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    data_key: Mapped[str | None] = mapped_column(String(200), default=None)  # JSON of the Stamp key
    data_label: Mapped[str | None] = mapped_column(String(100), default=None)
    data_date: Mapped[date | None] = mapped_column(Date, default=None)
    rows: Mapped[int | None] = mapped_column(Integer, default=None)
    via: Mapped[str | None] = mapped_column(String(20), default=None)  # "refresh" or "ingest"


class FeedLockRow(Base):
    """Who refreshes a feed now, until when: a lease, so that one process refreshes a feed at a time
    and a process that died holding it does not block the feed for longer than the lease."""

    __tablename__ = "feed_lock"

    feed: Mapped[str] = mapped_column(String(80), primary_key=True)
    owner: Mapped[str] = mapped_column(String(120))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
