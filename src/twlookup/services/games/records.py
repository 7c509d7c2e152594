"""The games service's record: one game, as data/games/games.yaml and the Wikidata feed give it."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from twlookup.domain.release_dates import WhenText
from twlookup.domain.release_tracker import Delay, RecordOrigin, TrackedRecord

Platform = Literal["ps5", "xbox", "pc", "switch2", "mobile"]


class Game(TrackedRecord):
    """One game as the data file and the store hold it (data/games/games.yaml), or as the
    Wikidata feed imported it (`record_origin: imported`, never in the data file)."""

    platforms: list[Platform] = Field(min_length=1, description="Announced platforms (xbox: Xbox Series X|S)")
    release: WhenText = Field(
        max_length=20,
        description="Release date as announced: YYYY-MM-DD, or a window (YYYY-MM, YYYY-Q1, YYYY-H2, YYYY-spring, YYYY), or tba",
    )
    developer: str | None = Field(None, max_length=200)
    publisher: str | None = Field(None, max_length=200)
    delays: list[Delay] = Field(default_factory=list, description="Each change of the announced release date")
    release_confirmed_by: str | None = Field(
        None, max_length=500, description="A page confirming the game has been released, where one was found"
    )
    record_origin: RecordOrigin = Field(
        "curated",
        description="curated: a record of data/games/games.yaml, read from its source; imported: from the "
        "Wikidata feed (games.wikidata), where no curated record has the game",
    )
