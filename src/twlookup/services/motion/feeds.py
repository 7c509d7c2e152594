"""The motion service's live feeds: browser support from web-features' released data.json, and the
animation libraries' npm registry documents.

- motion.support: the latest GitHub release's data.json of web-platform-dx/web-features; the
  redirect names the release (…/releases/download/v3.40.0/data.json), and the file is imported
  as web-features-v3.40.0-data.json so that the version is kept. A release older than the one
  imported is not imported.
- motion.libraries: one registry.npmjs.org/<name>/latest document per library the store lists with
  an npm source, imported together as the JSON list the importer reads (notes are kept).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date
from typing import Any
from urllib.parse import quote

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.platform.feeds import Fetched, Part, PartsContext, Stamp, declared_feed
from twlookup.platform.feeds.download import Fetcher
from twlookup.services.motion.data import import_libraries, import_support
from twlookup.services.motion.parsers import VERSIONED_NAME
from twlookup.services.motion.tables import LibraryRow, SupportRow

RELEASE_TAG = re.compile(r"/releases/download/v?(\d+\.\d+\.\d+)/")
NPM_PAGE = "https://www.npmjs.com/package/"
NPM_LATEST = "https://registry.npmjs.org/{name}/latest"


def support_stamp(raw: bytes, filename: str) -> Stamp:
    match = VERSIONED_NAME.search(filename)
    if not match:
        return Stamp(part="web-features")
    version = match.group(1)
    return Stamp(part="web-features", key=tuple(int(n) for n in version.split(".")), label=f"v{version}")


def _release(fetcher: Fetcher, part: Part) -> Fetched:
    answer = fetcher.get(part.url)
    match = RELEASE_TAG.search(answer.url)
    name = f"web-features-v{match.group(1)}-data.json" if match else "data.json"
    return Fetched(body=answer.body, filename=name, url=answer.url)


def _held(table: Any) -> Callable[[Session], date | None]:
    def held(session: Session) -> date | None:
        """The newest day a record of this kind was checked against its source."""
        return session.scalar(select(func.max(table.checked)))

    return held


def support_holds(session: Session) -> str | None:
    rows = list(session.scalars(select(SupportRow)))
    if not rows:
        return None
    versions = sorted({r.data_version for r in rows if r.data_version})
    return (
        f"{len(rows)} features from web-features {', '.join(versions) or '(version not recorded)'}, "
        f"checked {max(r.checked for r in rows).isoformat()}"
    )


def libraries_holds(session: Session) -> str | None:
    rows = list(session.scalars(select(LibraryRow)))
    if not rows:
        return None
    return f"{len(rows)} libraries with their npm versions, newest check {max(r.checked for r in rows).isoformat()}"


SUPPORT = declared_feed(
    "motion",
    "support",
    importer=import_support,
    stamp=support_stamp,
    fetch={"web-features": _release},
    held=_held(SupportRow),
    holds=support_holds,
)


def _libraries(names: list[str]) -> Callable[[Fetcher, Part], Fetched]:
    def fetch(fetcher: Fetcher, part: Part) -> Fetched:
        docs = []
        for name in names:
            answer = fetcher.get(NPM_LATEST.format(name=quote(name, safe="@")))
            try:
                doc = json.loads(answer.body)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise ValueError(f"{name}: not JSON ({exc})") from None
            if not isinstance(doc, dict) or doc.get("name") != name:
                raise ValueError(f"{name}: the registry answered a document of another package")
            docs.append(doc)
        return Fetched(body=json.dumps(docs).encode(), filename="npm-latest.json", url=part.url)

    return fetch


def libraries_parts(ctx: PartsContext) -> list[Part]:
    rows = ctx.session.scalars(select(LibraryRow))
    names = sorted(r.name for r in rows if r.source.startswith(NPM_PAGE))
    if not names:
        return []
    return [Part("npm", NPM_LATEST.format(name="<name>"), "npm-latest.json", fetch=_libraries(names))]


LIBRARIES = declared_feed(
    "motion",
    "libraries",
    importer=import_libraries,
    parts=libraries_parts,
    held=_held(LibraryRow),
    holds=libraries_holds,
)
