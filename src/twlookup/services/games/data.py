"""Seeding games from data/games/games.yaml, and the cached catalogue."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.domain.release_import import load_imported, merge
from twlookup.domain.release_tracker import Catalogue
from twlookup.platform.records import load_records, to_row
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.games.records import Game
from twlookup.services.games.tables import GameRow


def seed_games(session: Session, data_dir: Path) -> int:
    games = load_records(data_dir / "games" / "games.yaml", Game, "games")
    return replace_rows(session, GameRow, [to_row(g, GameRow) for g in games])


def _load(session: Session) -> Catalogue[Game]:
    """The curated games, then those the Wikidata feed imported that no curated record has."""
    curated = [Game.model_validate(row) for row in session.scalars(select(GameRow))]
    return Catalogue(merge(curated, load_imported(session, "games", Game.model_validate)))


CATALOGUE: Reference[Catalogue[Game]] = Reference(_load)
