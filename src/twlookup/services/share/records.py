"""The share service's records: a public share and a public comment. Only approved submissions
(platform/review.py) and shipped sample shares become records."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from twlookup.platform.records import Record


class Share(Record):
    """One video or post shared: its canonical link, the submitter's words and the site's counts."""

    id: int
    key: str = Field(max_length=120, description="Canonical id, e.g. youtube:dQw4w9WgXcQ")
    platform: str = Field(max_length=20)
    url: str = Field(max_length=500)
    title: str | None = Field(None, max_length=300)
    title_from: str = Field(max_length=20, description="oembed (the platform's own title), submitter, sample or none")
    description: str | None = None
    category: str = Field(max_length=20)
    votes: int = 0
    comments: int = 0
    clicks: int = 0
    published_at: datetime
    submission_id: int | None = Field(None, description="The review submission it was approved from")
    sample: bool = Field(False, description="True: a sample share shipped with the site, not a real one")


class Comment(Record):
    """One public (approved) comment on a share."""

    id: int
    share_id: int
    body: str
    published_at: datetime
    submission_id: int | None = None
