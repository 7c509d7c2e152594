"""Seeding titles from data/movie/titles.yaml, and the cached catalogue."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.domain.release_import import load_imported, merge
from twlookup.domain.release_tracker import Catalogue
from twlookup.platform.records import load_records, to_row
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.movie.records import Title
from twlookup.services.movie.tables import TitleRow


def seed_titles(session: Session, data_dir: Path) -> int:
    titles = load_records(data_dir / "movie" / "titles.yaml", Title, "titles")
    return replace_rows(session, TitleRow, [to_row(t, TitleRow) for t in titles])


def _load(session: Session) -> Catalogue[Title]:
    """The curated titles, then those the Wikidata feed imported that no curated record has."""
    curated = [Title.model_validate(row) for row in session.scalars(select(TitleRow))]
    return Catalogue(merge(curated, load_imported(session, "movie", Title.model_validate)))


CATALOGUE: Reference[Catalogue[Title]] = Reference(_load)
