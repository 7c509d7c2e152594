"""The movie service's rules: which release applies in Taiwan, its state today, platform match."""

from __future__ import annotations

from datetime import date

from twlookup.domain.release_dates import When, fold, parse_when
from twlookup.domain.release_state import ReleaseState, release_state
from twlookup.services.movie.records import Title


def taiwan_when(title: Title) -> When:
    """The release that applies in Taiwan: the Taiwan date where announced, else the origin's."""
    return parse_when(title.taiwan_release or title.release)


def state(title: Title, today: date) -> ReleaseState:
    """Released once its Taiwan-applicable date has passed with no delay recorded, or where a
    source confirms it; a window that closed unconfirmed is overdue (see domain.release_state)."""
    return release_state(taiwan_when(title), today, title.release_confirmed_by)


def is_upcoming(title: Title, today: date) -> bool:
    return state(title, today).upcoming


def platform_matches(title: Title, keyword: str) -> bool:
    return fold(keyword) in fold(title.platform)


def sort_key(title: Title) -> tuple[bool, date, str]:
    when = taiwan_when(title)
    return (when.earliest is None, when.earliest or date.max, title.id)
