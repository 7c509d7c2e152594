"""The stocks service's live feed: the exchanges' daily close files (TWSE and TPEx OpenAPI).

Each exchange's file is one part of the feed, with its own state: TPEx may publish a day later or
earlier than TWSE, and one exchange's newer day never stops the other's file from importing.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.platform.feeds import Part, Stamp, declared_feed, static_parts
from twlookup.services.stocks.parsers import FEEDS, ROC_DATE, daily_records, import_closes, roc_date
from twlookup.services.stocks.tables import CloseRecord


def closes_stamp(raw: bytes, _name: str) -> Stamp:
    """Which exchange's file it is, and the newest trading date in it."""
    feed, rows = daily_records(raw)
    days = [
        roc_date(str(r["Date"]), str(r.get(feed.code, "")))
        for r in rows
        if isinstance(r, dict) and ROC_DATE.match(str(r.get("Date", "")).strip().replace("/", ""))
    ]
    newest = max(days) if days else None
    return Stamp(
        part=feed.market,
        key=(newest.isoformat(),) if newest else None,
        label=newest.isoformat() if newest else None,
        data_date=newest,
    )


def closes_held(session: Session) -> date | None:
    return session.scalar(select(func.max(CloseRecord.date)).where(CloseRecord.sample.is_(False)))


CLOSES = declared_feed(
    "stocks",
    "closes",
    importer=import_closes,
    stamp=closes_stamp,
    parts=static_parts(*(Part(f.market, f.url, f"{f.market}.json") for f in FEEDS)),  # one per exchange
    held=closes_held,
)
