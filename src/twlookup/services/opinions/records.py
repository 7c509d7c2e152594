"""The opinions service's records, declared once (tables.py mirrors them).

Nothing here is written by the site and presented as someone's opinion: a `Thread` is a real
outside discussion (title as its community shows it, a summary written here and labelled as
such, the link, the community's score and comment count where the copy read shows them, the
licence); a `Post` is a Taiwan
post the site received from a named author, published CC BY 4.0 with the author's own
declaration of whether a human wrote it.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Literal

from pydantic import Field, field_validator

from twlookup.platform.records import Record, SourcedRecord

SLUG = r"^[a-z0-9]+(-[a-z0-9]+)*$"
SITE = "https://twlookup.dev/opinions"  # where the site publishes the posts it receives
SITE_LICENCE = "CC BY 4.0"
Community = Literal["hackernews", "stackexchange", "github", "v2ex", "ptt", "dcard", "mobile01"]
Stance = Literal["recommend", "not-recommend", "mixed", "unrated"]


class Topic(Record):
    """A product topic defined by the site (a name and the words that find its discussions)."""

    slug: str = Field(pattern=SLUG, max_length=60)
    name: str = Field(max_length=120)
    name_zh: str = Field(max_length=120)
    keywords: list[str] = Field(min_length=1)
    description: str


class Thread(SourcedRecord):
    """One outside discussion. `source` is the page the score and comment count were read from."""

    id: str = Field(max_length=120, description="community:item id, e.g. hn:1003052")
    community: Community
    site: str = Field(
        max_length=120,
        description="news.ycombinator.com, the Stack Exchange site host, github.com/OWNER/REPO, or v2ex.com",
    )
    title: str = Field(max_length=500, description="The title as the community shows it")
    url: str = Field(max_length=500, description="The thread on its community")
    created: datetime
    created_note: str | None = Field(None, description="How the date was established when it is not exact")
    score: int | None = Field(
        description="Points (HN) or votes (Stack Exchange) when read; null where the community has no score or the "
        "copy read does not show it (GitHub issues, V2EX)"
    )
    comments: int | None = Field(
        ge=0,
        description="Comments (HN), answers (Stack Exchange) when read; null where the copy read does not show a count",
    )
    summary: str | None = Field(
        None, description="Written by this site, not by the community; null until someone has read the thread"
    )
    stance: Stance = Field("unrated", description="This site's reading of the thread's overall verdict")
    pros: list[str] = Field(
        default_factory=list, description="Points in favour raised in the thread, in this site's words"
    )
    cons: list[str] = Field(
        default_factory=list, description="Points against raised in the thread, in this site's words"
    )
    topics: list[str] = Field(default_factory=list)
    author: str | None = Field(
        None,
        max_length=80,
        description="The author's handle as the community shows it (PTT id, Dcard nickname or school)",
    )
    quote: str | None = Field(
        None,
        max_length=2000,
        description="The opening of the post in its author's own words, as the community shows it (imported from "
        "the post itself; the credibility's text checks run on this, never on this site's summary)",
    )

    @field_validator("created")
    @classmethod
    def _naive_utc(cls, value: datetime) -> datetime:
        """Kept as naive UTC so every store (SQLite, PostgreSQL) holds the same instant."""
        if value.tzinfo is not None:
            value = value.astimezone(UTC).replace(tzinfo=None)
        return value


class Post(Record):
    """A Taiwan post received from its author, published under CC BY 4.0."""

    id: int = Field(ge=1)
    topic: str = Field(max_length=60)
    author: str = Field(min_length=1, max_length=80)
    title: str = Field(min_length=1, max_length=200)
    body: str = Field(min_length=20, max_length=20_000)
    products: list[str] = Field(default_factory=list)
    stance: Stance = "unrated"
    human_written: bool = Field(description="As declared by the author")
    published: date
    licence: str = Field(SITE_LICENCE, max_length=40)

    @property
    def attribution(self) -> str:
        """The credit the post's licence asks for: title, author, where and when published, licence."""
        return f"「{self.title}」by {self.author}, published on twlookup opinions ({self.published.isoformat()}), {self.licence}"

    @property
    def page(self) -> SourcedRecord:
        """The post's page on this site as a sourced record: what an answer cites for it."""
        return SourcedRecord(
            source=f"{SITE}/api/posts/{self.id}",
            source_title=self.attribution,
            checked=self.published,
            licence=self.licence,
        )
