"""The games service's rules: a game's status from its announced date, the check date and today."""

from __future__ import annotations

from datetime import date

from twlookup.domain.release_dates import When, parse_when
from twlookup.services.games.schemas import Game, Status


def status(game: Game) -> Status:
    """released only when a source confirms the release: a date that has passed is not silently
    turned into released (the answer's `check_note` says the date passed unconfirmed)."""
    when = parse_when(game.release)
    if when.precision == "tba":
        return "tba"
    if game.release_confirmed_by:
        return "released"
    return "confirmed" if when.exact else "window"


def is_upcoming(game: Game, today: date) -> bool:
    when = parse_when(game.release)
    return status(game) != "released" and (when.latest is None or when.latest >= today)


def release_sort_key(game: Game) -> tuple[int, date, str]:
    when: When = parse_when(game.release)
    return (when.earliest is None, when.earliest or date.max, game.id)
