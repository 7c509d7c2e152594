"""Seeding titles from data/movie/titles.yaml, and the cached catalogue."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from twlookup.domain.release_import import load_catalogue, seed_curated
from twlookup.domain.release_tracker import Catalogue
from twlookup.platform.store.reference import Reference
from twlookup.services.movie.records import Title
from twlookup.services.movie.tables import TitleRow


def seed_titles(session: Session, data_dir: Path) -> int:
    return seed_curated(session, data_dir / "movie" / "titles.yaml", Title, "titles", TitleRow)


def _load(session: Session) -> Catalogue[Title]:
    """The curated titles, then those the Wikidata feed imported that no curated record has."""
    return load_catalogue(session, TitleRow, Title, "movie")


CATALOGUE: Reference[Catalogue[Title]] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_titles,)
