"""Parameters and results of the share service's operations."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator
from pydantic_core import PydanticCustomError

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import NON_BLANK, WHITESPACE_CHARS, LazyModel
from twlookup.services.share.logic import FORMULA, Period
from twlookup.services.share.records import Comment, Share

PlatformId = Literal[
    "youtube", "tiktok", "instagram", "facebook", "x", "threads", "twitch", "vimeo", "dailymotion", "bilibili"
]
CategoryId = Literal[
    "music", "gaming", "food", "travel", "news", "comedy", "education", "tech", "sports", "life", "pets", "other"
]
ShareId = Field(ge=1, le=2**31 - 1, description="A share's id")


def _json_integer(value: Any) -> Any:
    """A JSON integer as JSON Schema counts them: 3 or 3.0 (a number with a zero fraction, as
    some clients write every number); not true, not "3", not 3.5."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PydanticCustomError("int_type", "must be a JSON integer")
    return value


# In a JSON body the id is a JSON integer: true, "3" or 3.5 is refused (422), 3.0 is 3.
BodyShareId = Annotated[
    int, Field(ge=1, le=2**31 - 1, description="A share's id (a JSON integer)"), BeforeValidator(_json_integer)
]
COPYRIGHT = "分享只含連結、標題、分享者的說明與本站的互動數；影片與貼文的著作權屬於原作者。"


class RankingsQuery(Params):
    period: Period = Field(
        "week", description="Rolling window ending now: day (24 h), week (7 d), month (30 d), year (365 d)"
    )
    platform: PlatformId | None = Field(None, description="Only this platform")
    category: CategoryId | None = Field(None, description="Only this category")


class NewQuery(Params):
    platform: PlatformId | None = Field(None, description="Only this platform")
    limit: int = Field(20, ge=1, le=50, description="How many (1 to 50)")


class SearchQuery(Params):
    q: str = Field(
        min_length=1,
        max_length=100,
        pattern=NON_BLANK,
        description="Words to find in titles and descriptions (1 to 100 characters, not only spaces)",
    )

    @field_validator("q")
    @classmethod
    def _trimmed(cls, value: str) -> str:
        return value.strip(WHITESPACE_CHARS)


class ShareQuery(Params):
    id: int = ShareId


class TrendQuery(Params):
    period: Period = Field("week", description="Rolling window ending now: day, week, month or year")


class SubmitBody(Params):
    url: str = Field(min_length=10, max_length=500, description="Link to the video or post on a supported platform")
    description: str = Field(
        min_length=2, max_length=500, description="Why you share it, in your words (2 to 500 characters)"
    )
    category: CategoryId
    title: str | None = Field(
        None, min_length=1, max_length=200, description="Title, used when the platform gives none by oEmbed"
    )


class VoteBody(Params):
    id: BodyShareId


class CommentBody(Params):
    id: BodyShareId
    body: str = Field(min_length=2, max_length=500, description="The comment (2 to 500 characters)")

    @field_validator("body")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if len(value.strip()) < 2:
            raise ValueError("must have at least 2 characters besides spaces")
        return value.strip()


class ClickBody(Params):
    id: BodyShareId


# ------------------------------------------------------------------ results


class ShareOut(RecordAnswer, record=Share, exclude=("key", "submission_id")):
    pass


class Ranked(ShareOut):
    rank: int
    score: float


class Rankings(LazyModel):
    as_of: datetime
    period: str
    since: datetime
    platform: str | None
    category: str | None
    formula: str = FORMULA
    count: int
    shares: list[Ranked]
    sample: bool
    note: str | None = Field(None, description="When nothing is listed: why, and how to contribute a share")
    notice: str = COPYRIGHT


class ShareList(LazyModel):
    count: int
    shares: list[ShareOut]
    sample: bool
    note: str | None = Field(None, description="When nothing is listed: why, and how to contribute a share")
    notice: str = COPYRIGHT


class CommentOut(RecordAnswer, record=Comment, exclude=("share_id", "submission_id")):
    pass


class ShareDetail(LazyModel):
    share: ShareOut
    comments: list[CommentOut] = Field(description="Public (approved) comments, oldest first")
    notice: str = COPYRIGHT


class Stats(LazyModel):
    as_of: datetime
    shares: int
    by_platform: dict[str, int]
    by_category: dict[str, int]
    votes: int
    comments: int
    clicks: int
    waiting_for_review: int = Field(description="Submissions not yet reviewed (not public, not counted above)")
    sample: bool
    note: str | None = Field(None, description="When no share is public yet: how to contribute one")


class Trend(LazyModel):
    as_of: datetime
    period: str
    since: datetime
    formula: str = FORMULA
    count: int
    top: list[Ranked] = Field(description="Top 100 by score")
    platforms: dict[str, int] = Field(description="How many of the top are from each platform")
    categories: dict[str, int]
    sample: bool


class ExportItem(ShareOut):
    comment_list: list[CommentOut]


class Export(LazyModel):
    generated: datetime
    count: int
    shares: list[ExportItem]
    sample: bool
    notice: str = COPYRIGHT


class MarkdownPack(LazyModel):
    generated: datetime
    count: int
    markdown: str = Field(description="The whole public site as one Markdown document")
    sample: bool


class ClickOut(LazyModel):
    id: int
    counted: bool = Field(description="False when this client's click on this share was already counted today")
    clicks: int
