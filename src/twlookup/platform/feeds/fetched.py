"""What a download gives: the file's bytes and the name the importer is given (the fetcher,
`download.py`, makes it; a declared feed, `declare.py`, hands it to its importer)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fetched:
    """A downloaded file: its bytes and the name the importer is given."""

    body: bytes
    filename: str
    etag: str | None = None
    last_modified: str | None = None
    url: str | None = None  # where it came from, after redirects
