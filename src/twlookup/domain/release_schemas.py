"""Parameters and answer pieces the release trackers share (sports, movie, games)."""

from __future__ import annotations

from datetime import date
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, Field

from twlookup.domain.knowledge_base import KnowledgeResult
from twlookup.domain.release_dates import Precision
from twlookup.domain.release_tracker import Delay
from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel, Source

WATCHLIST_LIMIT = 30  # spec document 1, Limits: at most 30 events / titles / games per call
MONTH_PATTERN = r"^(19|20|21)\d{2}-(0[1-9]|1[0-2])$"
MatchedAs = Literal["id", "name", "alias", "partial"]


class NameQuery(Params):
    q: str = Field(
        min_length=1,
        max_length=200,
        description="Id, English or Chinese name (case and full-width characters do not matter)",
    )


class LookupQuery(Params):
    q: str = Field(
        min_length=1,
        max_length=200,
        description="Anything to look up in Wikidata and Wikipedia, in the catalogue or not",
    )


class MonthQuery(Params):
    month: str = Field(pattern=MONTH_PATTERN, description="Month as YYYY-MM (1900-01 to 2199-12)")


class WatchlistBody(Params):
    ids: list[str] = Field(
        min_length=1,
        max_length=WATCHLIST_LIMIT,
        description=f"Ids or names (English or Chinese), at most {WATCHLIST_LIMIT}",
    )


# A change of an announced date; its announcement is cited with its item's provenance (`item.cite`).
class DelayOut(RecordAnswer, record=Delay, exclude=("source", "source_title")):
    source: Source


class DelayEntry(DelayOut):
    id: str
    name: str
    name_zh: str | None


class Delays(LazyModel):
    as_of: date
    count: int
    delays: list[DelayEntry] = Field(description="Newest announcement first")


class CountdownOut(LazyModel):
    as_of: date = Field(description="Today in Asia/Taipei, the day counted from")
    target: date | None = Field(description="The day counted to: the date, or a window's earliest day; null for tba")
    days: int | None = Field(
        ge=0, description="Whole days from as_of to target; null once target has passed (see days_since) and for tba"
    )
    days_since: int | None = Field(
        ge=0,
        description="Whole days since target (a window: since its last day); null until it has passed and for an open window",
    )
    precision: Precision
    counts_to: str = Field(description="What is counted to, e.g. release or start")
    note: str


class ItemDetail(LazyModel):
    """One item as a tracker's detail operation answers it (`Tracker.detail`): the query and how it
    matched; each tracker's answer adds the item under its noun, then its countdown."""

    as_of: date
    query: str
    matched_as: str


class ItemCountdown(CountdownOut):
    """A countdown naming the item it counts for; a tracker's countdown answer adds its own fields."""

    id: str
    name: str
    name_zh: str | None


class CatalogueMatch(LazyModel):
    id: str
    name: str
    name_zh: str | None
    matched_as: MatchedAs


class LookupOut(LazyModel):
    as_of: date
    catalogue: CatalogueMatch | None = Field(description="The catalogue's item for the query, if it has one")
    knowledge: KnowledgeResult


T = TypeVar("T", bound=BaseModel)


class WatchEntry(LazyModel, Generic[T]):
    query: str
    matched_as: MatchedAs | None = Field(description="How the query matched the catalogue; null when it did not")
    item: T | None = Field(description="The catalogue record, or null when the catalogue does not have it")
    countdown: CountdownOut | None = Field(description="From the catalogue's dates; null when not in the catalogue")
    supplement: KnowledgeResult = Field(description="Wikidata and Wikipedia facts")


class Watchlist(LazyModel, Generic[T]):
    as_of: date
    count: int
    limit: int = WATCHLIST_LIMIT
    entries: list[WatchEntry[T]]
