"""Parameters and results of the cardgame guide's operations."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel, Source
from twlookup.services.cardgame.records import BanList, CardTerm, Chapter, FaqItem

GAME = "Yu-Gi-Oh! OFFICIAL CARD GAME, Asian-English (AE) cards"
RIGHTS = "Card names, card text and art belong to Konami; this guide quotes card names only. Guide text: CC BY 4.0."


class ChapterBrief(LazyModel):
    slug: str
    order: int
    title: str
    summary: str


class ChapterList(LazyModel):
    game: str
    count: int
    chapters: list[ChapterBrief]
    rights: str


class ChapterQuery(Params):
    slug: str = Field(
        min_length=1, max_length=60, pattern=r"^[a-z0-9-]+$", description="Chapter slug, e.g. how-a-turn-goes"
    )


class ChapterOut(RecordAnswer, record=Chapter, exclude=("body",)):
    markdown: str = Field(description="The chapter's text in Markdown")
    previous: str | None
    next: str | None
    source: Source = Field(description="The rule text the chapter was checked against")
    rights: str


class SearchQuery(Params):
    q: str = Field(
        min_length=1, max_length=200, description="Words to find in chapters, glossary, FAQ and ban-listed card names"
    )
    limit: int = Field(10, ge=1, le=50, description="At most this many results (1 to 50)")


class Reason(LazyModel):
    kind: str
    field: str
    value: str
    points: float


HitKind = Literal["chapter", "term", "faq", "card"]


class SearchHit(LazyModel):
    kind: HitKind
    id: str = Field(description="Chapter slug (with #section), term, FAQ id or card name")
    title: str
    snippet: str
    link: str = Field(description="The route that returns the item")
    score: float
    reasons: list[Reason]


class SearchResult(LazyModel):
    query: str
    count: int
    results: list[SearchHit]


class GlossaryQuery(Params):
    q: str | None = Field(None, min_length=1, max_length=100, description="A term or alias; omit to list all terms")


class TermOut(RecordAnswer, record=CardTerm):
    chapter_title: str


class GlossaryResult(LazyModel):
    query: str | None
    count: int
    terms: list[TermOut]


class Change(LazyModel):
    card: str
    before: int = Field(description="Copies allowed under the previous list (3 = unrestricted)")
    now: int = Field(description="Copies allowed under this list (3 = unrestricted)")


class BanListOut(RecordAnswer, record=BanList, exclude=("released",)):
    game: str
    as_of: date = Field(description="The day (Asia/Taipei) the list in force was chosen for")
    previous_effective: date | None
    upcoming_effective: date | None = Field(
        description="An announced list that takes effect later, if the store has one"
    )
    next_expected: date = Field(
        description="The next quarterly date (1 Jan, Apr, Jul, Oct) after today on which a newer list may take effect"
    )
    missing_since: date | None = Field(
        None,
        description="The quarterly date, on or before today, on which a newer list was due and the store has none "
        "(null when the store's newest list is not overdue)",
    )
    may_be_outdated: bool = Field(description="missing_since is set: a newer list may be in force than the one shown")
    warning: str | None = Field(None, description="Why the list below may no longer be the one in force")
    counts: dict[str, int]
    changes_from_previous: list[Change]
    note: str
    rights: str


class FaqOut(RecordAnswer, record=FaqItem):
    chapter_title: str
    link: str


class FaqResult(LazyModel):
    count: int
    faq: list[FaqOut]


class CardQuery(Params):
    name: str = Field(
        min_length=1,
        max_length=120,
        description="Card name in English as Konami's AE list prints it (case and punctuation ignored), or its "
        "Japanese name where the page prints one",
    )


class CardStatus(LazyModel):
    effective: date = Field(description="The list's effective date")
    status: Literal["forbidden", "limited", "semi-limited", "unlimited"]
    copies: int = Field(ge=0, le=3, description="Copies allowed in a deck under this list")
    listed_as: str | None = Field(
        description="The list that prints the card (forbidden, limited, semi_limited, released); null when unlisted"
    )
    also_listed: list[str] = Field(
        default_factory=list, description="Other lists of the same month that also print it (a merged duplicate)"
    )
    remarks: str | None = Field(None, description="Konami's change marker, when the page gives one")


class CardOut(LazyModel):
    game: str
    format: str
    query: str
    name: str = Field(description="The card's name as Konami's AE list prints it")
    japanese_name: str | None
    card_type: str | None
    as_of: date = Field(description="The day (Asia/Taipei) the list in force was chosen for")
    in_force: CardStatus = Field(description="Under the list in force on as_of")
    previous: CardStatus | None = Field(description="Under the list before it")
    upcoming: CardStatus | None = Field(description="Under an announced later list, if the store has one")
    history: list[CardStatus] = Field(description="Under every stored list, oldest first")
    next_expected: date
    missing_since: date | None
    may_be_outdated: bool
    warning: str | None
    note: str
    source: Source
    rights: str
