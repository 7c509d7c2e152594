"""A feed declared from its description: the facts in `data/<service>/feeds.toml`, the behaviour in code.

A service's `feeds.toml` holds one table per feed, named by the feed, with what the feed states
(title, publisher, format, licence, page, changes, urls, cadence, staleness, the fixed parts'
URLs and file names); the service's `feeds.py` adds only what runs (importer, stamp, held, holds,
a parts function, a part's own fetch):

    INVOICE = declared_feed("life", "invoice", importer=import_invoice, stamp=invoice_stamp, held=invoice_held)

A table with a key it does not know, without a key it needs, with a value of the wrong type or a
duration that is not a whole number of hours or days ("6h", "64d") fails at import, naming the
file, the feed and the key.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Mapping
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from twlookup.bundled import data_dir
from twlookup.platform.feeds.declare import CompositeFetch, Feed, Importer, Part, PartsFn, Stamp, static_parts

FILE = "feeds.toml"
REQUIRED = {"title": str, "publisher": str, "format": str, "licence": str, "page": str, "changes": str}
OPTIONAL: dict[str, Any] = {
    "urls": list,
    "every": timedelta,
    "stale_after": timedelta,
    "stale_by": str,
    "history": bool,
    "max_bytes": int,
    "manual": str,
    "ingest_hint": str,
    "default_part": str,
    "side_parts": list,
    "parts": list,
}
PART_KEYS = {"key": str, "url": str, "filename": str, "publisher_name": bool}
STALE_BY = ("data", "check")
DURATION = re.compile(r"([1-9][0-9]*)([hd])")
UNITS = {"h": "hours", "d": "days"}


class FeedDescriptionError(ValueError):
    """A feeds.toml that does not describe a feed the way `declared_feed` reads it."""


def duration(text: str) -> timedelta:
    """'6h' -> 6 hours, '64d' -> 64 days; anything else (minutes, '1.5d', '0h', spaces) is refused."""
    match = DURATION.fullmatch(text)
    if not match:
        raise ValueError(f"{text!r} is not a duration like 6h or 64d (a whole number of hours or days)")
    return timedelta(**{UNITS[match.group(2)]: int(match.group(1))})


def declared_feed(
    service: str,
    name: str,
    *,
    importer: Importer,
    stamp: Callable[[bytes, str], Stamp] | None = None,
    parts: PartsFn | None = None,
    fetch: Mapping[str, CompositeFetch] | None = None,
    held: Callable[[Session], date | None] | None = None,
    holds: Callable[[Session], str | None] | None = None,
    data: Path | None = None,
) -> Feed:
    """The feed `service.name`: its facts from the `name` table of `data/<service>/feeds.toml`, its
    behaviour from the arguments. `parts` lists parts that depend on the day or the store; fixed parts
    are the table's `parts` instead, and `fetch` gives a fixed part (by key) that takes more than one
    request the function that fetches it."""
    path = (data or data_dir()) / service / FILE
    tables = _tables(path)
    where = f"{path}: feed {name!r}"
    if name not in tables:
        raise FeedDescriptionError(f"{where}: no [{name}] table")
    facts = _facts(tables[name], where)
    fixed = facts.pop("parts", None)
    if fixed is not None and parts is not None:
        raise FeedDescriptionError(f"{where}: key 'parts': fixed here and listed by a function in code; keep one")
    fetch = dict(fetch or {})
    if fixed is not None:
        parts = static_parts(*(_part(row, i, where, fetch) for i, row in enumerate(fixed)))
    if fetch:
        raise FeedDescriptionError(f"{where}: a fetch for {', '.join(sorted(fetch))}, which is no fixed part of it")
    return Feed(
        service=service,
        name=name,
        importer=importer,
        stamp=stamp,
        parts=parts,
        held=held,
        holds=holds,
        **facts,
    )


@functools.cache
def _tables(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as file:
            tables = tomllib.load(file)
    except FileNotFoundError:
        raise FeedDescriptionError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise FeedDescriptionError(f"{path}: not TOML ({exc})") from None
    for name, table in tables.items():
        if not isinstance(table, dict):
            raise FeedDescriptionError(f"{path}: {name!r} is not a table")
    return tables


def _facts(table: dict[str, Any], where: str) -> dict[str, Any]:
    unknown = sorted(set(table) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise FeedDescriptionError(f"{where}: unknown key {unknown[0]!r}")
    missing = [key for key in REQUIRED if key not in table]
    if missing:
        raise FeedDescriptionError(f"{where}: missing key {missing[0]!r}")
    facts: dict[str, Any] = {}
    for key, value in table.items():
        kind = REQUIRED.get(key) or OPTIONAL[key]
        if kind is timedelta:
            if not isinstance(value, str):
                raise FeedDescriptionError(f"{where}: key {key!r}: {value!r} is not a duration like 6h or 64d")
            try:
                facts[key] = duration(value)
            except ValueError as exc:
                raise FeedDescriptionError(f"{where}: key {key!r}: {exc}") from None
            continue
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise FeedDescriptionError(f"{where}: key {key!r}: expected {kind.__name__}, got {value!r}")
        if key in ("urls", "side_parts"):
            if not all(isinstance(v, str) for v in value):
                raise FeedDescriptionError(f"{where}: key {key!r}: expected a list of strings")
            value = tuple(value)
        if key == "stale_by" and value not in STALE_BY:
            raise FeedDescriptionError(f"{where}: key 'stale_by': {value!r} is neither 'data' nor 'check'")
        facts[key] = value
    return facts


def _part(row: Any, index: int, where: str, fetch: dict[str, CompositeFetch]) -> Part:
    at = f"{where}: parts[{index}]"
    if not isinstance(row, dict):
        raise FeedDescriptionError(f"{at}: expected a table with key, url and filename")
    unknown = sorted(set(row) - set(PART_KEYS))
    if unknown:
        raise FeedDescriptionError(f"{at}: unknown key {unknown[0]!r}")
    for key, kind in PART_KEYS.items():
        if key == "publisher_name" and key not in row:
            continue
        if key not in row:
            raise FeedDescriptionError(f"{at}: missing key {key!r}")
        if not isinstance(row[key], kind):
            raise FeedDescriptionError(f"{at}: key {key!r}: expected {kind.__name__}, got {row[key]!r}")
    return Part(
        row["key"],
        row["url"],
        row["filename"],
        fetch=fetch.pop(row["key"], None),
        publisher_name=row.get("publisher_name", False),
    )
