"""The price service's live feed: the Ministry of Agriculture's 農產品交易行情 (FarmTransData).

The service answers pages of JSON records ($top, $skip) for a range of trading days (StartDate,
EndDate, ROC dates like 115.11.21). A refresh asks for the last four days, page by page until a
page comes back short, and imports the records as one file: a market day published late, or
completed later in the day, is picked up on the next refresh.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.platform.feeds import Fetched, Part, PartsContext, Stamp, declared_feed
from twlookup.platform.feeds.download import Fetcher
from twlookup.services.price.data import import_daily
from twlookup.services.price.parsers import FEED_URL, page_records, parse_feed, roc
from twlookup.services.price.tables import ObservationRow

PAGE = 1000  # records per request
MAX_PAGES = 40  # a bound: a day of all markets is a few thousand records
DAYS = 4


def daily_stamp(raw: bytes, _name: str) -> Stamp:
    rows = parse_feed(raw)
    newest = max((r.day for r in rows), default=None)
    return Stamp(
        part="daily",
        key=(newest.isoformat(),) if newest else None,
        label=newest.isoformat() if newest else None,
        data_date=newest,
    )


def _pages(start: date, end: date) -> Callable[[Fetcher, Part], Fetched]:
    def fetch(fetcher: Fetcher, part: Part) -> Fetched:
        records: list[object] = []
        for page in range(MAX_PAGES):
            params = {"$top": str(PAGE), "$skip": str(page * PAGE), "StartDate": roc(start), "EndDate": roc(end)}
            chunk = page_records(fetcher.get(FEED_URL, params=params).body, page + 1)
            records.extend(chunk)
            if len(chunk) < PAGE:
                break
        else:
            raise ValueError(f"more than {MAX_PAGES} pages of {PAGE} records for {roc(start)} to {roc(end)}")
        body = json.dumps(records, ensure_ascii=False).encode()
        return Fetched(body=body, filename=f"FarmTransData_{roc(start)}-{roc(end)}.json", url=FEED_URL)

    return fetch


def daily_parts(ctx: PartsContext) -> list[Part]:
    start = ctx.today - timedelta(days=DAYS - 1)
    return [Part("daily", FEED_URL, "FarmTransData.json", fetch=_pages(start, ctx.today))]


def daily_held(session: Session) -> date | None:
    return session.scalar(select(func.max(ObservationRow.day)).where(ObservationRow.sample.is_(False)))


DAILY = declared_feed("price", "daily", importer=import_daily, stamp=daily_stamp, parts=daily_parts, held=daily_held)
