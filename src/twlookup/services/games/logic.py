"""The games service's rules: a game's status from its announced date, any confirming source and today."""

from __future__ import annotations

from datetime import date

from twlookup.domain.release_dates import When, parse_when
from twlookup.domain.release_state import ReleaseState, release_state
from twlookup.services.games.records import Game
from twlookup.services.games.schemas import Status


def state(game: Game, today: date) -> ReleaseState:
    return release_state(parse_when(game.release), today, game.release_confirmed_by)


def status(game: Game, today: date) -> Status:
    """released once the announced day has passed with no delay recorded (or a source confirms
    it); overdue once a window has closed unconfirmed; else confirmed (an exact date ahead),
    window (a window not closed yet) or tba (see domain.release_state)."""
    current = state(game, today).state
    if current in ("released", "overdue", "tba"):
        return current
    return "confirmed" if parse_when(game.release).exact else "window"


def release_sort_key(game: Game) -> tuple[int, date, str]:
    when: When = parse_when(game.release)
    return (when.earliest is None, when.earliest or date.max, game.id)
