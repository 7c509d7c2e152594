"""The share service's tables: public shares, their public comments, click-through counting.
Only approved submissions (platform/review.py) and shipped sample shares become rows here."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base


class ShareRow(Base):
    __tablename__ = "share_share"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(120), unique=True)  # canonical id, e.g. youtube:dQw4w9WgXcQ
    platform: Mapped[str] = mapped_column(String(20), index=True)
    url: Mapped[str] = mapped_column(String(500))
    title: Mapped[str | None] = mapped_column(String(300), default=None)
    title_from: Mapped[str] = mapped_column(String(20))  # oembed | submitter | sample | none
    description: Mapped[str | None] = mapped_column(Text, default=None)
    category: Mapped[str] = mapped_column(String(20), index=True)
    votes: Mapped[int] = mapped_column(Integer, default=0)
    comments: Mapped[int] = mapped_column(Integer, default=0)
    clicks: Mapped[int] = mapped_column(Integer, default=0)
    published_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    submission_id: Mapped[int | None] = mapped_column(Integer, default=None)
    sample: Mapped[bool] = mapped_column(default=False)


class CommentRow(Base):
    __tablename__ = "share_comment"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    share_id: Mapped[int] = mapped_column(ForeignKey("share_share.id"), index=True)
    body: Mapped[str] = mapped_column(Text)
    published_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    submission_id: Mapped[int | None] = mapped_column(Integer, default=None)


class ClickRow(Base):
    """One click-through per client per share per day (the client as a salted hash)."""

    __tablename__ = "share_click"
    __table_args__ = (UniqueConstraint("share_id", "client", "day"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    share_id: Mapped[int] = mapped_column(ForeignKey("share_share.id"), index=True)
    client: Mapped[str] = mapped_column(String(64))
    day: Mapped[date] = mapped_column(Date)
