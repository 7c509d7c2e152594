"""Where a SQLite store lives, read from its URL without importing SQLAlchemy (`twlookup serve`
asks before it imports the store's code: platform/data_prefetch.py)."""

from __future__ import annotations

from pathlib import Path


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite store; None for any other store, in-memory SQLite included."""
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        return Path(url.removeprefix("sqlite:///"))
    return None
