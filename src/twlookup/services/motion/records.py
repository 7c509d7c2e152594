"""The motion service's records: each kind declared once. The data files are validated against them
when seeding, the store's tables derive from them (tables.py) and the answers show them."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from twlookup.platform.records import SourcedRecord

Browser = Literal["chrome", "chrome_android", "edge", "firefox", "firefox_android", "safari", "safari_ios"]


class EasingRecord(SourcedRecord):
    """A named easing curve: a CSS keyword (the spec's control points) or a named cubic-bezier()."""

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$", max_length=40)
    kind: Literal["keyword", "named"]
    x1: float = Field(ge=0, le=1)
    y1: float
    x2: float = Field(ge=0, le=1)
    y2: float


class SupportRecord(SourcedRecord):
    """Browser support of one web feature, from a web-features release."""

    id: str = Field(max_length=120, description="web-features feature id")
    name: str = Field(max_length=200)
    baseline: Literal["high", "low", "none"]
    baseline_low_date: date | None = None
    baseline_high_date: date | None = None
    support: dict[str, str] = Field(description="First supporting version per browser (web-features)")
    data_version: str = Field(max_length=40, description="web-features release the row was read from")


class LibraryRecord(SourcedRecord):
    """An animation library as the npm registry describes its latest version."""

    id: str = Field(max_length=120)
    name: str = Field(max_length=214, description="npm package name")  # npm's own limit on a name
    version: str = Field(max_length=100)
    package_licence: str = Field(description="licence field of the package's registry metadata")
    unpacked_bytes: int | None = None
    tarball_bytes: int | None = None
    released: date | None = None
    note: str


class A11yRecord(SourcedRecord):
    """An item of the animation accessibility checklist."""

    id: str = Field(max_length=120)
    criterion: str = Field(max_length=60, description="WCAG 2.2 success criterion number, or the media feature")
    level: Literal["A", "AA", "AAA", "-"]
    title: str = Field(max_length=200)
    rule: str
    check: str
