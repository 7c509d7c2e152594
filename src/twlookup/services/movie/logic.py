"""The movie service's rules: which release applies in Taiwan, released or upcoming, platform match."""

from __future__ import annotations

from datetime import date

from twlookup.domain.release_dates import When, fold, parse_when
from twlookup.services.movie.schemas import Title


def taiwan_when(title: Title) -> When:
    """The release that applies in Taiwan: the Taiwan date where announced, else the origin's."""
    return parse_when(title.taiwan_release or title.release)


def released(title: Title) -> bool:
    """Only a source confirming the release makes a title released; a passed date does not."""
    return title.release_confirmed_by is not None


def is_upcoming(title: Title, today: date) -> bool:
    when = taiwan_when(title)
    return not released(title) and (when.latest is None or when.latest >= today)


def platform_matches(title: Title, keyword: str) -> bool:
    return fold(keyword) in fold(title.platform)


def sort_key(title: Title) -> tuple[bool, date, str]:
    when = taiwan_when(title)
    return (when.earliest is None, when.earliest or date.max, title.id)
