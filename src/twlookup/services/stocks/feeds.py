"""The stocks service's live feed: the exchanges' daily close files (TWSE and TPEx OpenAPI).

Each exchange's file is one part of the feed, with its own state: TPEx may publish a day later or
earlier than TWSE, and one exchange's newer day never stops the other's file from importing.
"""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.platform.feeds import Feed, Part, Stamp, static_parts
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


CLOSES = Feed(
    service="stocks",
    name="closes",
    title="Daily closes: TWSE STOCK_DAY_ALL and TPEx daily close quotes",
    publisher="Taiwan Stock Exchange (臺灣證券交易所) and Taipei Exchange (證券櫃檯買賣中心)",
    format="JSON array, one object per security per trading day (ROC dates)",
    licence="no open-data licence found for it here (not verified); the exchanges' OpenAPI terms apply",
    page="https://openapi.twse.com.tw/",
    changes="each trading day after the close; nothing on weekends and market holidays",
    importer=import_closes,
    stamp=closes_stamp,
    parts=static_parts(*(Part(f.market, f.url, f"{f.market}.json") for f in FEEDS)),
    urls=tuple(f.url for f in FEEDS),
    every=timedelta(hours=1),
    stale_after=timedelta(days=5),  # a Friday close is the newest until Monday's; holidays add days
    history=True,
    held=closes_held,
    ingest_hint="FILE  (a TWSE STOCK_DAY_ALL or TPEx daily close quotes JSON file)",
)
