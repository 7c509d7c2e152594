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
from datetime import date, timedelta
from functools import partial
from typing import Any
from urllib.parse import quote

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.platform.feeds import Feed, Fetched, Part, PartsContext, Stamp, static_parts
from twlookup.platform.feeds.download import Fetcher
from twlookup.services.motion.data import import_libraries, import_support
from twlookup.services.motion.parsers import VERSIONED_NAME
from twlookup.services.motion.tables import LibraryRow, SupportRow

RELEASE_DATA = "https://github.com/web-platform-dx/web-features/releases/latest/download/data.json"
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


# both feeds are judged by the time since their last good check, stale after 30 days
_motion_feed = partial(Feed, service="motion", stale_after=timedelta(days=30), stale_by="check")


SUPPORT = _motion_feed(
    name="support",
    title="web-features data.json (Baseline status and first supporting browser versions)",
    publisher="W3C WebDX Community Group (web-platform-dx/web-features)",
    format="JSON {features: {<id>: {name, status: {baseline, baseline_low_date, support}}}}",
    licence="Apache-2.0 (web-features; compat data from MDN browser-compat-data, CC0-1.0)",
    page="https://github.com/web-platform-dx/web-features/releases",
    changes="whenever the project publishes a release",
    importer=import_support,
    stamp=support_stamp,
    parts=static_parts(Part("web-features", RELEASE_DATA, "data.json", fetch=_release)),
    urls=(RELEASE_DATA,),
    every=timedelta(days=1),
    ingest_hint="package/data.json  (with package.json beside it, or named web-features-vX.Y.Z-data.json)",
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


LIBRARIES = _motion_feed(
    name="libraries",
    title="npm registry documents of the animation libraries (version, licence, size)",
    publisher="npm registry (registry.npmjs.org)",
    format="JSON version document per package (name, version, license, dist)",
    licence="registry metadata; each package states its own licence",
    page="https://docs.npmjs.com/cli/v10/using-npm/registry",
    changes="whenever a library publishes a version",
    importer=import_libraries,
    parts=libraries_parts,
    urls=(NPM_LATEST,),
    every=timedelta(days=7),
    default_part="npm",
    ingest_hint="latest.json  (a JSON list of registry.npmjs.org/<name>/latest documents)",
    held=_held(LibraryRow),
    holds=libraries_holds,
)
