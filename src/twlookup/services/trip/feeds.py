"""The trip service's live feed: Bank of Taiwan's posted-rate CSV.

The bank serves the day's board at /xrt/flcsv/0/day as a download whose Content-Disposition names
it ExchangeRate@YYYYMMDDHHMM.csv, the posting time; the importer reads the posting time from that
name, so a download without it is refused rather than given a made-up time. The bank posts new
boards through each business day.
"""

from __future__ import annotations

from twlookup.platform.feeds import declared_feed
from twlookup.services.trip.data import fx_held, import_fx
from twlookup.services.trip.parsers import fx_stamp

FX = declared_feed("trip", "fx", importer=import_fx, stamp=fx_stamp, held=fx_held)
