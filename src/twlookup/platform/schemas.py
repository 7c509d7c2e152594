"""Response pieces every service uses: provenance of a record, the not-advice notice."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field

TAIPEI = ZoneInfo("Asia/Taipei")


class Source(BaseModel):
    """Where a fact comes from and when it was last checked against that source."""

    url: str = Field(description="The official page or publication the fact was read from")
    title: str | None = Field(None, description="Title of that page or publication")
    checked: date = Field(description="Date the fact was last checked against the source")
    licence: str | None = Field(None, description="Licence of the content, where one applies")
    sample: bool = Field(False, description="True when the data is an illustrative snapshot, not a live feed")


def today_taipei() -> date:
    """Today's date in Taiwan, which is what dates in these services are relative to."""
    return datetime.now(TAIPEI).date()
