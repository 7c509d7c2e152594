"""The cardgame guide's records, declared once (tables.py mirrors them)."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from twlookup.platform.records import Record, SourcedRecord

SLUG = r"^[a-z0-9]+(-[a-z0-9]+)*$"


class Chapter(SourcedRecord):
    """A chapter written for this guide, in Markdown; `source` is the rule text it was checked against."""

    slug: str = Field(pattern=SLUG, max_length=60)
    order: int = Field(ge=1)
    title: str = Field(max_length=200)
    summary: str
    body: str = Field(min_length=200)


class CardTerm(Record):
    """A glossary term of the game, defined in this guide's own words, pointing to a chapter."""

    term: str = Field(max_length=80)
    aliases: list[str] = Field(default_factory=list)
    definition: str = Field(min_length=15)
    chapter: str = Field(max_length=60, description="Slug of the chapter that explains it")


class FaqItem(Record):
    id: str = Field(pattern=SLUG, max_length=80)
    question: str
    answer: str
    chapter: str = Field(max_length=60, description="Slug of the chapter the answer rests on")
    rule: str | None = Field(None, description="The rule or list the answer rests on, when it is not only the chapter")


class BanCard(Record):
    name: str = Field(description="Card name as the rules owner's list prints it")
    card_type: str | None = None
    japanese_name: str | None = Field(
        None, description="The card's Japanese name, where the same page's OCG lists print it beside the English name"
    )
    remarks: str | None = Field(
        None, description="Konami's change marker for the card on this list, e.g. Semi-Limited-to-limited"
    )
    also_listed: list[str] = Field(
        default_factory=list,
        description="Other lists of the same month on which the page also prints this card (a duplicate entry, "
        "merged here: the card is kept once, on the strictest list it appears on)",
    )


class BanList(SourcedRecord):
    """One dated Forbidden & Limited list, as the rules owner published it."""

    effective: date
    format: str = Field(max_length=20)
    forbidden: list[BanCard]
    limited: list[BanCard]
    semi_limited: list[BanCard]
    released: list[BanCard] = Field(default_factory=list, description="Cards the list returns to three copies")
