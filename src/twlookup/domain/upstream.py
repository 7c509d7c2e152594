"""An upstream a service reads: who publishes it, in which format, on which terms.

An upstream is declared once, beside the parser that reads its format (a service's `parsers`), so
the licence the parsed records carry and the feed that imports the files say the same thing. The
feed declaration (a service's `feeds.py`) names only what the feed adds: its service and name, its
importer, and either why it is a file feed only (`manual`) or how it is refreshed (`parts`,
`every`, `stamp`, ...), all as `twlookup.platform.feeds.Feed` takes them:

    PTT_PAGE = Upstream(title="PTT article pages (Taiwan), one board article per file", publisher=...,
                        format=..., licence=PTT_LICENCE, page="https://www.ptt.cc/bbs/index.html")
    PTT = PTT_PAGE.feed("opinions", "ptt", import_ptt, manual=EDITOR_SAVES, ingest_hint="M.1.A.123.html")
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from twlookup.platform.feeds import Feed
from twlookup.platform.feeds.declare import Importer


@dataclass(frozen=True)
class Upstream:
    """What every feed of this upstream states the same way (`Feed`'s fields of the same names)."""

    title: str  # the data, in words, as feed listings show it
    publisher: str
    format: str
    licence: str
    page: str  # the publisher's page about the data
    changes: str = "continuously"  # how often the publisher changes it, in words

    def feed(self, service: str, name: str, importer: Importer, **how: Any) -> Feed:
        """The feed `service.name` importing this upstream's files with `importer`; `how` holds the
        rest of its `Feed` fields (a file feed: `manual`, `ingest_hint`; a refreshed one: `parts`,
        `every`, `stamp`, `stale_after`, ...)."""
        return Feed(service=service, name=name, importer=importer, **dataclasses.asdict(self), **how)
