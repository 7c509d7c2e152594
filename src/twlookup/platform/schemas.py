"""Response pieces every service uses: provenance of a record, the not-advice notice."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field

from twlookup.platform import clock
from twlookup.platform.clock import TAIPEI as TAIPEI  # re-exported: services import it from here


class Source(BaseModel):
    """Where a fact comes from and when it was last checked against that source."""

    url: str = Field(description="The official page or publication the fact was read from")
    title: str | None = Field(None, description="Title of that page or publication")
    checked: date = Field(description="Date the fact was last checked against the source")
    licence: str | None = Field(None, description="Licence of the content, where one applies")
    sample: bool = Field(False, description="True when the data is an illustrative snapshot, not a live feed")


def today_taipei() -> date:
    """Today's date in Taiwan, which is what dates in these services are relative to (the one
    clock, `platform/clock.py`: TWLOOKUP_TODAY fixes it)."""
    return clock.today()


# A text parameter with something besides whitespace in it, as a JSON Schema `pattern` (unanchored:
# one such character anywhere). Spelled out rather than `\S`, whose meaning differs between
# ECMAScript (OpenAPI clients), Rust (pydantic) and Python (`str.strip`): these are the characters
# any of the three counts as whitespace.
WHITESPACE_CHARS = "".join(
    chr(c)
    for c in (9, 10, 11, 12, 13, 32, *range(0x1C, 0x20), 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B))
    + (0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF)
)
NON_BLANK = "[^" + "".join(f"\\u{ord(c):04x}" for c in WHITESPACE_CHARS) + "]"
