"""The trip service's live feed: Bank of Taiwan's posted-rate CSV.

The bank serves the day's board at /xrt/flcsv/0/day as a download whose Content-Disposition names
it ExchangeRate@YYYYMMDDHHMM.csv, the posting time; the importer reads the posting time from that
name, so a download without it is refused rather than given a made-up time. The bank posts new
boards through each business day.
"""

from __future__ import annotations

from datetime import timedelta

from twlookup.platform.feeds import Feed, Part, static_parts
from twlookup.services.trip.data import fx_held, import_fx
from twlookup.services.trip.parsers import BOARD_TITLE, BOARD_URL, fx_stamp

BOARD_CSV = "https://rate.bot.com.tw/xrt/flcsv/0/day"


FX = Feed(
    service="trip",
    name="fx",
    title=BOARD_TITLE,
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
