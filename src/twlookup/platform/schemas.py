"""Response pieces every service uses: provenance of a record, the not-advice notice; and the
parameter types services share (a date written YYYY-MM-DD, a non-blank text)."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, WithJsonSchema
from pydantic_core import PydanticCustomError

from twlookup.platform import clock
from twlookup.platform.clock import TAIPEI as TAIPEI  # re-exported: services import it from here


class LazyModel(BaseModel):
    """Base of this package's models (answers, parameters, records): pydantic builds a model's
    validator and serializer when it is first used (a request, a page, OpenAPI, a seed), not
    when its module is imported. A process uses few of the some 650 models, and building them
    all at import was about a fifth of a start's CPU time."""

    model_config = ConfigDict(defer_build=True)


class Source(LazyModel):
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


# The days a date parameter may name: enough for any date these services answer about, and a bound
# that keeps a typo (0202-01-01, 20277-01-01) from reaching the logic.
FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2099, 12, 31)
DATE_FORM = f"a date written YYYY-MM-DD, from {FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}"
_DAY_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}")


def _refuse(parameter: str, value: str, why: str) -> PydanticCustomError:
    return PydanticCustomError(
        "date_form",
        "{parameter} must be {form}; {value} {why}",
        {"parameter": parameter, "form": DATE_FORM, "value": value, "why": why},
    )


def _parameter_date(value: Any, info: ValidationInfo) -> date:
    """A date parameter's value as a `date`; a wrong one is refused with one text that names the
    parameter, the form it takes and what was wrong with the value."""
    name = info.field_name or "date"
    if isinstance(value, date) and not isinstance(value, datetime):
        day = value
    elif not isinstance(value, str) or not _DAY_TEXT.fullmatch(value):
        shown = repr(value)
        raise _refuse(name, shown if len(shown) <= 40 else shown[:39] + "…", "is not written that way")
    else:
        try:
            day = date.fromisoformat(value)
        except ValueError:
            raise _refuse(name, value, "is not a day of the calendar") from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise _refuse(name, day.isoformat(), "is outside that range")
    return day


# The one date parameter type: `start: IsoDate = Field(description=...)`. Its JSON schema says the
# form (a string, format date, a 20xx year); a wrong value is a 422 naming the parameter.
IsoDate = Annotated[
    date,
    BeforeValidator(_parameter_date),
    WithJsonSchema({"type": "string", "format": "date", "pattern": r"^20\d{2}-\d{2}-\d{2}$"}),
]


# A text parameter with something besides whitespace in it, as a JSON Schema `pattern` (unanchored:
# one such character anywhere). Spelled out rather than `\S`, whose meaning differs between
# ECMAScript (OpenAPI clients), Rust (pydantic) and Python (`str.strip`): these are the characters
# any of the three counts as whitespace.
WHITESPACE_CHARS = "".join(
    chr(c)
    for c in (9, 10, 11, 12, 13, 32, *range(0x1C, 0x20), 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B))
    + (0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF)
)
_ESCAPED = "".join(f"\\u{ord(c):04x}" for c in WHITESPACE_CHARS)
NON_BLANK = f"[^{_ESCAPED}]"
BLANK = f"[{_ESCAPED}]"  # one whitespace character, by the same reading (for patterns that allow padding)
