"""The share service's tables: public shares and their public comments (derived from the records),
and click-through counting. Only approved submissions (platform/review.py) and shipped sample
shares become rows here."""

from __future__ import annotations

from datetime import date

from sqlalchemy import Date, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base
from twlookup.platform.store.record_tables import record_table
from twlookup.services.share.records import Comment, Share

ShareRow = record_table(
    Share, "share_share", unique=("key",), index=("platform", "category", "published_at"), autoincrement=True
)
CommentRow = record_table(
    Comment, "share_comment", index=("share_id",), foreign={"share_id": "share_share.id"}, autoincrement=True
)


class ClickRow(Base):
    """One click-through per client per share per day (the client as a salted hash). A ledger the
    click count is kept by, not a record: nothing shows it, so it is declared here alone."""

    __tablename__ = "share_click"
    __table_args__ = (UniqueConstraint("share_id", "client", "day"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    share_id: Mapped[int] = mapped_column(ForeignKey("share_share.id"), index=True)
    client: Mapped[str] = mapped_column(String(64))
    day: Mapped[date] = mapped_column(Date)
