"""The motion service's records: each kind declared once, validated when seeding."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from twlookup.platform.records import SourcedRecord

Browser = Literal["chrome", "chrome_android", "edge", "firefox", "firefox_android", "safari", "safari_ios"]


class EasingRecord(SourcedRecord):
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    kind: Literal["keyword", "named"]
    x1: float = Field(ge=0, le=1)
    y1: float
    x2: float = Field(ge=0, le=1)
    y2: float


class SupportRecord(SourcedRecord):
    id: str
    name: str
    baseline: Literal["high", "low", "none"]
    baseline_low_date: date | None = None
    baseline_high_date: date | None = None
    support: dict[str, str] = Field(description="First supporting version per browser (web-features)")
    data_version: str = Field(description="web-features release the row was read from")


class LibraryRecord(SourcedRecord):
    id: str
    name: str = Field(description="npm package name")
    version: str
    package_licence: str = Field(description="licence field of the package's registry metadata")
    unpacked_bytes: int | None = None
    tarball_bytes: int | None = None
    released: date | None = None
    note: str


class A11yRecord(SourcedRecord):
    id: str
    criterion: str = Field(description="WCAG 2.2 success criterion number, or the media feature")
    level: Literal["A", "AA", "AAA", "-"]
    title: str
    rule: str
    check: str
