"""The movie service's record: one title (film, series, anime), as data/movie/titles.yaml and the
Wikidata feed give it."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from twlookup.domain.release_dates import WhenText
from twlookup.domain.release_tracker import Delay, RecordOrigin, TrackedRecord

TitleType = Literal["film", "series", "anime-series", "anime-film"]


class Title(TrackedRecord):
    """One title as the data file and the store hold it (data/movie/titles.yaml), or as the
    Wikidata feed imported it (`record_origin: imported`, never in the data file)."""

    type: TitleType
    platform: str = Field(
        min_length=1, max_length=60, description='Where it is released: "cinema", or the streaming service'
    )
    origin: str = Field(
        pattern=r"^[A-Z]{2}$",
        max_length=2,
        description="Country of the origin release (ISO 3166 code), e.g. US, JP, KR",
    )
    release: WhenText = Field(
        max_length=20,
        description="Origin release as announced: YYYY-MM-DD, a window (YYYY-MM, YYYY-Q1, YYYY) or tba",
    )
    taiwan_release: WhenText | None = Field(
        None,
        max_length=20,
        description="Taiwan release where it differs from the origin's (same formats); null: same day or not announced",
    )
    studio: str | None = Field(
        None, max_length=200, description="Studio or distributor whose announcement is the source"
    )
    delays: list[Delay] = Field(default_factory=list, description="Each change of the announced release date")
    release_confirmed_by: str | None = Field(
        None, max_length=500, description="A page confirming the title has been released, where one was found"
    )
    record_origin: RecordOrigin = Field(
        "curated",
        description="curated: a record of data/movie/titles.yaml, read from its source; imported: from the "
        "Wikidata feed (movie.wikidata), where no curated record has the title",
    )
