"""The trip service's live feed: Bank of Taiwan's posted-rate CSV.

The bank serves the day's board at /xrt/flcsv/0/day as a download whose Content-Disposition names
it ExchangeRate@YYYYMMDDHHMM.csv, the posting time; the importer reads the posting time from that
name, so a download without it is refused rather than given a made-up time. The bank posts new
boards through each business day.
"""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.platform.feeds import Feed, Part, Stamp, static_parts
from twlookup.services.trip.ingest import BOARD_URL, import_fx, is_history_download, parse_bot_csv
from twlookup.services.trip.tables import FxRateRecord

BOARD_CSV = "https://rate.bot.com.tw/xrt/flcsv/0/day"


def fx_stamp(raw: bytes, filename: str) -> Stamp:
    """The day board (part "board") or a one-currency history download ("history-USD"), and its posting time."""
    posted, rates = parse_bot_csv(raw, filename)
    part = "history-" + "+".join(sorted(r.currency for r in rates)) if is_history_download(raw) else "board"
    label = posted.strftime("%Y-%m-%d %H:%M")
    return Stamp(part=part, key=(posted.isoformat(),), label=label, data_date=posted.date())


def fx_held(session: Session) -> date | None:
    newest = session.scalar(select(func.max(FxRateRecord.posted_at)).where(FxRateRecord.sample.is_(False)))
    return newest.date() if newest else None


FX = Feed(
    service="trip",
    name="fx",
    title="臺灣銀行牌告匯率 (Bank of Taiwan posted exchange rates)",
    publisher="Bank of Taiwan (臺灣銀行)",
    format="CSV (UTF-8 with BOM), 21 columns per currency; file name ExchangeRate@YYYYMMDDHHMM.csv",
    licence="no open-data licence found for it here (not verified); the bank's site terms apply",
    page=BOARD_URL,
    changes="the bank posts boards during business days (the file name carries the posting time)",
    importer=import_fx,
    stamp=fx_stamp,
    parts=static_parts(Part("board", BOARD_CSV, "ExchangeRate.csv", publisher_name=True)),
    urls=(BOARD_CSV,),
    every=timedelta(hours=1),
    stale_after=timedelta(days=4),  # a Friday board is still the newest on Monday morning
    held=fx_held,
    side_parts=("history-",),
)
