"""Parameters and results of the opinions service's operations."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel
from twlookup.services.opinions.logic.aicheck import MAX_CHARS, AiLabel
from twlookup.services.opinions.logic.credibility import Label
from twlookup.services.opinions.records import Post, Thread, Topic

AI_NOTE = (
    "A hint from documented heuristic signals, never a verdict: heuristic checks are weak and it can be wrong both "
    "ways (see error_rate)."
)
Flag = Field(
    None, ge=0, le=1, description="1: only discussion from before 2022-11-30, when AI chat assistants became public"
)


class Part(LazyModel):
    name: str
    points: float
    max_points: float
    why: str


class Credibility(LazyModel):
    value: float = Field(description="0 to 1, the sum of the parts")
    label: Label
    parts: list[Part]
    rule: str


class Item(RecordAnswer, record=Thread, exclude=("site", "url", "created", "created_note", "pros", "cons")):
    """A discussion (a `Thread`, whose fields it shows) or a Taiwan post, in one shape."""

    kind: Literal["discussion", "taiwan-post"]
    id: str = Field(description="The discussion's community:item id (e.g. hn:1003052), or the post's number")
    summary: str | None = Field(
        description="Discussion: written by this site, not the community. Post: the post's opening."
    )
    summary_by: str
    link: str
    date: datetime = Field(description="When the discussion or post was created (discussions in UTC)")
    community: str = Field(description="The community (with the site for Stack Exchange and GitHub), or twlookup")
    stance: str = Field(
        description="recommend, not-recommend, mixed or unrated (this site's reading for discussions; the author's for posts)"
    )
    licence: str
    credibility: Credibility


class OpinionsQuery(Params):
    q: str = Field(min_length=1, max_length=200, description="Product or topic words, Chinese or English")
    before: int | None = Flag


class OpinionsResult(LazyModel):
    query: str
    as_of: date
    before_cutoff: bool
    count: int
    items: list[Item]
    note: str | None


class SearchQuery(Params):
    q: str = Field(min_length=1, max_length=200, description="Words to search the foreign discussions for")
    before: int | None = Flag


class TopicBrief(RecordAnswer, record=Topic, exclude=("keywords",)):
    discussions: int
    posts: int


class TopicList(LazyModel):
    count: int
    topics: list[TopicBrief]


class TopicQuery(Params):
    slug: str = Field(min_length=1, max_length=60, pattern=r"^[a-z0-9-]+$", description="Topic slug, e.g. e-readers")


class TopicOut(LazyModel):
    topic: TopicBrief
    keywords: list[str]
    as_of: date
    items: list[Item]
    note: str | None = Field(description="Says so when the topic has no stored discussion or post")


class PostsQuery(Params):
    topic: str | None = Field(
        None, min_length=1, max_length=60, pattern=r"^[a-z0-9-]+$", description="Only posts on this topic"
    )
    human_only: int | None = Field(
        None, ge=0, le=1, description="1: only posts whose authors declared them human-written"
    )


class AiCheckBrief(LazyModel):
    score: float
    label: str


class PostOut(RecordAnswer, record=Post):
    attribution: str
    ai_check: AiCheckBrief
    credibility: Credibility


class PostList(LazyModel):
    count: int
    posts: list[PostOut]
    note: str | None


class PostQuery(Params):
    id: int = Field(ge=1, le=2_000_000_000, description="Post id")


class AiCheckBody(Params):
    text: str = Field(min_length=1, max_length=MAX_CHARS, description=f"Text to check (1 to {MAX_CHARS} characters)")


class PhraseMatch(LazyModel):
    phrase: str
    text: str
    start: int = Field(description="Character offset in the text sent")
    end: int
    weight: float
    source: str


class ErrorRate(LazyModel):
    measured_on: str
    human_texts: int
    ai_texts: int
    false_positive_rate: float = Field(description="Share of the human texts labelled likely-ai")
    human_uncertain_rate: float = Field(description="Share of the human texts labelled uncertain")
    false_negative_rate: float = Field(description="Share of the AI texts labelled likely-human")
    in_sample: bool = Field(description="True: the check was tuned on these texts, so the rates are optimistic")
    limits: list[str]


class AiCheckResult(LazyModel):
    score: float = Field(ge=0, le=1)
    label: AiLabel
    note: str
    checked_text: str = Field(description="What was checked: the text sent, as sent")
    error_rate: ErrorRate
    signals: dict[str, float | int | None]
    matches: list[PhraseMatch]
    method: str


class DigestQuery(Params):
    q: str = Field(min_length=1, max_length=200, description="Product or topic words")
    before: int | None = Flag


class Digest(LazyModel):
    query: str
    as_of: date
    items: int
    recommend: int
    not_recommend: int
    mixed: int
    recommend_ratio: float | None = Field(description="Recommending among items that take a side; null when none do")
    pros: list[str] = Field(description="In this site's words, each from a linked discussion or a post")
    cons: list[str]
    high_credibility: list[Item]
    note: str


class ExportPost(RecordAnswer, record=Post, exclude=("stance",)):
    attribution: str


class Export(LazyModel):
    as_of: date
    licence: str
    count: int
    posts: list[ExportPost]
