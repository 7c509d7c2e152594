"""What an announced release date means today: coming, window open, released, overdue or tba.

Shared by the release trackers (sports, movie, games). Pure: `today` is always passed in, and the
state is derived when an answer is built, never stored.

- A date still ahead (or today) is ``upcoming``, counting down to it.
- A window (month, quarter, half, season, year) that has begun but not closed is ``window-open``:
  the release may come any day until the window's last day; there is nothing to count down to.
- A passed exact date is ``released``: with no delay recorded, the announced date stands (the
  record's date is always the latest announced one), and the basis says so:
  ``"date passed, no delay reported"``. A source confirming the release is the basis where the
  record has one (it also makes a title released whose date has not come, e.g. an early drop).
- A window that closed with no confirming source is ``overdue``: it did not silently pass.
- ``tba``: nothing announced, nothing to count.

Day counts are never negative: `days_until` is null once the day has come and gone, `days_since`
counts from a passed date (or from the day a window closed).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

from twlookup.domain.release_dates import When

State = Literal["upcoming", "window-open", "released", "overdue", "tba"]
DATE_PASSED = "date passed, no delay reported"


@dataclass(frozen=True)
class ReleaseState:
    state: State
    basis: str | None  # why it is released or overdue; None while it is still to come
    days_until: int | None  # to the date (a window's earliest day); None once passed or tba
    days_since: int | None  # since the date (a window's last day); None until then

    @property
    def released(self) -> bool:
        return self.state == "released"

    @property
    def upcoming(self) -> bool:
        """Still to come: announced ahead, in an open window, or not announced yet."""
        return self.state in ("upcoming", "window-open", "tba")


def days_until(day: date | None, today: date) -> int | None:
    """Whole days from today to `day`, or None when `day` is unknown or has passed."""
    return (day - today).days if day is not None and day >= today else None


def days_since(day: date | None, today: date) -> int | None:
    """Whole days since `day`, or None when `day` is unknown or has not passed."""
    return (today - day).days if day is not None and day < today else None


def release_state(when: When, today: date, confirmed_by: str | None = None) -> ReleaseState:
    """The state of an announced release on `today` (Asia/Taipei); `confirmed_by`: a page
    confirming the release, where the record has one."""
    until, since = days_until(when.earliest, today), days_since(when.latest, today)
    if confirmed_by:
        return ReleaseState("released", confirmed_by, None, since)
    if when.earliest is None or when.latest is None:
        return ReleaseState("tba", None, None, None)
    if today <= when.earliest:
        return ReleaseState("upcoming", None, until, None)
    if today <= when.latest:
        return ReleaseState("window-open", None, None, None)
    if when.exact:
        return ReleaseState("released", DATE_PASSED, None, since)
    return ReleaseState(
        "overdue",
        f"window {when.text} closed on {when.latest.isoformat()} with no release confirmed",
        None,
        since,
    )
