"""What a live feed is: its official source, how often it changes, its licence, and how the platform
tells an older file from a newer one.

A feed is one importer of a service (`twlookup ingest SERVICE.FEED FILE`) plus where its publisher
puts the file (`twlookup refresh SERVICE.FEED`). A feed may have several parts, one per file the
publisher keeps (stock closes: the TWSE file and the TPEx file; lottery draws: one per game): the
platform keeps state, conditional-request validators and the "older file" rule per part.

A feed without `parts` is a file feed only: it has no fixed official URL to refresh from (for
example a search response an editor chose), and says why in `manual`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy.orm import Session

from twlookup.platform.feeds.fetched import Fetched

if TYPE_CHECKING:
    from twlookup.platform.feeds.download import Fetcher

Importer = Callable[[Session, Path], int]  # parse one file into the store (in the caller's transaction)


@dataclass(frozen=True)
class Stamp:
    """Which part of a feed a file is, and how new its data is.

    `key` orders files of one part (a newer file has a greater key; None: the format carries no
    order, so any file is accepted); `label` is the same in words ("2026-11-23", "v3.40.0");
    `data_date` is the day the data is for, from which its age is counted."""

    part: str
    key: tuple[Any, ...] | None = None
    label: str | None = None
    data_date: date | None = None


# A part whose file takes more than one request (pages, months, one query per record) fetches itself.
CompositeFetch = Callable[["Fetcher", "Part"], Fetched]


@dataclass(frozen=True)
class Part:
    """One file the publisher keeps: a key (stable), its URL, and the file name given to the importer.
    `publisher_name`: the name the publisher gives the download (Content-Disposition) is used
    instead, where it sends one (the bank's board carries its posting time in it). `fetch` is for
    a file assembled from several requests; those are not conditional (no single validator)."""

    key: str
    url: str
    filename: str
    fetch: CompositeFetch | None = None
    publisher_name: bool = False


@dataclass(frozen=True)
class PartsContext:
    """What a feed may use to list its parts: today in Taiwan, and the store (read only)."""

    today: date
    session: Session


PartsFn = Callable[[PartsContext], list[Part]]


@dataclass(frozen=True)
class Feed:
    service: str
    name: str  # the feed's name within its service, e.g. "invoice"
    title: str
    publisher: str
    format: str
    licence: str
    page: str  # the publisher's page about the data (the dataset page, or the file's own URL)
    changes: str  # how often the publisher changes it, in words
    importer: Importer
    stamp: Callable[[bytes, str], Stamp] | None = None
    parts: PartsFn | None = None  # None: a file feed only (see `manual`)
    urls: tuple[str, ...] = ()  # the official URLs in words, for the README and /api/status
    every: timedelta | None = None  # refresh cadence (None for file feeds)
    stale_after: timedelta = timedelta(days=7)
    stale_by: Literal["data", "check"] = "data"  # data: age of the data; check: time since the last good check
    history: bool = False  # records are keyed by their own dates: `ingest --allow-older` may add older files
    max_bytes: int | None = None  # a larger cap than the setting, for a publisher's big file
    manual: str | None = None  # file feeds: why there is nothing to refresh from
    held: Callable[[Session], date | None] | None = None  # newest data date the store holds, imported or shipped
    holds: Callable[[Session], str | None] | None = None  # what the store holds for this feed, in words
    ingest_hint: str = "FILE"
    default_part: str = "file"  # the part a file is when the format does not say (no `stamp`)
    side_parts: tuple[str, ...] = ()  # prefixes of parts not counted in the feed's data age (one-off history files)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def full_name(self) -> str:
        return f"{self.service}.{self.name}"

    @property
    def refreshable(self) -> bool:
        return self.parts is not None


def static_parts(*parts: Part) -> PartsFn:
    """Parts that do not depend on the day or the store."""
    listed = list(parts)
    return lambda _ctx: listed
