"""The shape the release trackers share (sports, movie, games): sourced items with names that
match forgivingly, delay records, and the catalogue that finds an item by id or by any name.

Each service declares its own item record (an event, a title, a game) on `TrackedRecord` in its
records.py; this module knows none of them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from datetime import date
from typing import Generic, Literal, TypeVar

from pydantic import Field

from twlookup.domain.release_dates import WhenText, fold
from twlookup.platform.records import Record, SourcedRecord

RecordOrigin = Literal["curated", "imported"]  # a data file's record, or one a feed imported


class Delay(Record):
    """One change of an announced date: from `old` to `new` (announced dates, see release_dates),
    the day it was announced and where."""

    old: WhenText = Field(description="Date or window announced before the change")
    new: WhenText = Field(description="Date or window announced by the change")
    announced: date = Field(description="Day the change was announced")
    source: str = Field(description="Announcement or report of the change")
    source_title: str | None = None
    note: str | None = None


class TrackedItem(Record):
    """The fields every tracked item has (an id, an English and a Chinese name, other names): what
    the catalogue matches names on."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{1,79}$", max_length=80, description="Stable id, e.g. gta-6")
    name: str = Field(min_length=1, max_length=300, description="Name in English (or the original name)")
    name_zh: str | None = Field(None, max_length=300, description="Name in Traditional Chinese as used in Taiwan")
    aliases: list[str] = Field(default_factory=list, description="Other names it is searched by")
    note: str | None = None

    def names(self) -> list[str]:
        return [self.id, self.name, *([self.name_zh] if self.name_zh else []), *self.aliases]


class TrackedRecord(TrackedItem, SourcedRecord):
    """A tracked item as a service stores it, with its provenance: a service declares its record
    (`Game(TrackedRecord)` with its own fields) in records.py, its table with `record_table` and its
    answer as a `RecordAnswer` of it."""


ItemT = TypeVar("ItemT", bound=TrackedItem)
MatchedAs = Literal["id", "name", "alias", "partial"]


class Catalogue(Generic[ItemT]):
    """Items by id, found by id or any name (case, full-width characters, spaces and punctuation
    do not matter), with suggestions for a name that matches nothing."""

    def __init__(self, items: Iterable[ItemT]) -> None:
        self.items: dict[str, ItemT] = {item.id: item for item in items}
        self._names: dict[str, tuple[ItemT, MatchedAs]] = {}
        for item in self.items.values():
            for i, name in enumerate(item.names()):
                how: MatchedAs = "id" if i == 0 else ("name" if name in (item.name, item.name_zh) else "alias")
                self._names.setdefault(fold(name), (item, how))

    def __len__(self) -> int:
        return len(self.items)

    def resolve(self, query: str) -> tuple[ItemT, MatchedAs] | None:
        key = fold(query)
        if not key:
            return None
        if key in self._names:
            return self._names[key]
        # a query that is a distinctive part of exactly one item's name ("doomsday", "GTA VI")
        partial = self.partial_matches(query)
        if len(partial) == 1:
            return partial[0], "partial"
        return None

    def partial_matches(self, query: str) -> list[ItemT]:
        """Items one of whose names contains the query (3 characters or more), in catalogue order."""
        key = fold(query)
        if len(key) < 3:
            return []
        found = {item.id for name, (item, _) in self._names.items() if key in name}
        return [item for ident, item in self.items.items() if ident in found]

    def suggestions(self, query: str, n: int = 3) -> list[str]:
        key = fold(query)
        close = difflib.get_close_matches(key, list(self._names), n=n * 2, cutoff=0.6)
        out: list[str] = []
        for name in close:
            ident = self._names[name][0].id
            if ident not in out:
                out.append(ident)
        return out[:n]
