"""Seeding games from data/games/games.yaml, and the cached catalogue."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from twlookup.domain.release_import import load_catalogue, seed_curated
from twlookup.domain.release_tracker import Catalogue
from twlookup.platform.store.reference import Reference
from twlookup.services.games.records import Game
from twlookup.services.games.tables import GameRow


def seed_games(session: Session, data_dir: Path) -> int:
    return seed_curated(session, data_dir / "games" / "games.yaml", Game, "games", GameRow)


def _load(session: Session) -> Catalogue[Game]:
    """The curated games, then those the Wikidata feed imported that no curated record has."""
    return load_catalogue(session, GameRow, Game, "games")


CATALOGUE: Reference[Catalogue[Game]] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_games,)
