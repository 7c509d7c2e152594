"""The one clock: today's date and the time in Taiwan, for every answer that depends on the date.

Every date-derived state (upcoming or released, in force, open now, next draw, retired) is computed
from a record's own dates and `today()` when it is asked for, never stored. `TWLOOKUP_TODAY`
(YYYY-MM-DD) fixes today for the whole process, to reproduce a user's report, run a demo or test
the API as it will answer on another day; the time of day keeps running.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from time import time as epoch_seconds
from zoneinfo import ZoneInfo

TAIPEI = ZoneInfo("Asia/Taipei")

_fixed: date | None = None  # set from the `today` setting by create_app and the CLI
# How many times the time of day was read: an answer whose work read it depends on the moment it was
# asked, not only on the date, and is not kept (platform/answer_cache.py).
readings = 0


def set_today(value: date | None) -> None:
    """Fix today for this process (None: follow the real calendar again)."""
    global _fixed
    _fixed = value


def fixed_today() -> date | None:
    return _fixed


# today's date in Taipei, and the moment (epoch seconds) it ends: read on every request, worked out
# once a day
_day: date = date.min
_day_ends = float("-inf")


def today() -> date:
    """Today's date in Asia/Taipei, which is what dates in these services are relative to."""
    if _fixed is not None:
        return _fixed
    if epoch_seconds() < _day_ends:
        return _day
    return _new_day()


def _new_day() -> date:
    global _day, _day_ends
    day = datetime.now(TAIPEI).date()
    _day, _day_ends = day, datetime.combine(day + timedelta(days=1), time(), TAIPEI).timestamp()
    return day


def now() -> datetime:
    """The time in Asia/Taipei (aware); on a fixed today, that day at the real time of day."""
    global readings
    readings += 1
    real = datetime.now(TAIPEI)
    if _fixed is None:
        return real
    return datetime.combine(_fixed, time(real.hour, real.minute, real.second, real.microsecond), TAIPEI)
