"""The seo service's live feeds: the crawler operators' published IP-range files, and
ai.robots.txt's list of AI crawlers (`seo.airobots`; the formats are read in parsers.py).

Each operator's file is one part of the feed, named by its id (googlebot, bingbot, ...), fetched
from the `source` URL its row in data/seo/ipranges.yaml names, and imported under that id. The
files carry a `creationTime`: a file older than the one imported is not imported.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.feeds import Part, PartsContext, Stamp, declared_feed
from twlookup.services.seo import parsers
from twlookup.services.seo.data import FILE_ALIASES, import_ai_robots, import_ip_ranges, list_snapshots
from twlookup.services.seo.tables import IpRangeRow


def ipranges_stamp(raw: bytes, filename: str) -> Stamp:
    part = filename.removesuffix(".json")
    part = FILE_ALIASES.get(part, part)  # Google's common-crawlers.json is the googlebot list, and so on
    created = parsers.ip_range_doc(raw).get("creationTime")
    if not created:
        return Stamp(part=part)
    text = str(created).strip()
    try:  # "2024-03-13T15:46:04.000000", sometimes with a zone or more digits
        when = datetime.fromisoformat(re.sub(r"(\.\d{6})\d+", r"\1", text).replace("Z", "+00:00"))
    except ValueError:
        return Stamp(part=part, label=text[:100])
    naive = when.replace(tzinfo=None) if when.tzinfo is None else when.astimezone(tz=None).replace(tzinfo=None)
    return Stamp(part=part, key=(naive.isoformat(),), label=text[:100], data_date=when.date())


def ipranges_held(session: Session) -> date | None:
    """The oldest range file's creationTime (the day its data is for), else the day it was checked."""
    rows = list(session.scalars(select(IpRangeRow)))
    days = [_creation_day(r.creation_time) or r.checked for r in rows]
    return min(days) if days else None


def ipranges_holds(session: Session) -> str | None:
    rows = list(session.scalars(select(IpRangeRow).order_by(IpRangeRow.id)))
    if not rows:
        return None
    samples = [r.id for r in rows if r.sample]
    created = sorted(d for r in rows if (d := _creation_day(r.creation_time)))
    return (
        f"{len(rows)} range files, {sum(len(r.prefixes) for r in rows)} prefixes"
        + (f", created {created[0].isoformat()} to {created[-1].isoformat()}" if created else "")
        + (f"; samples, not the operators' full files: {', '.join(samples)}" if samples else "; none is a sample")
        + f"; checked {min(r.checked for r in rows).isoformat()} to {max(r.checked for r in rows).isoformat()}"
    )


def _creation_day(text: str | None) -> date | None:
    try:
        return datetime.fromisoformat(text[:10]).date() if text else None
    except ValueError:
        return None


def ipranges_parts(ctx: PartsContext) -> list[Part]:
    rows: list[tuple[str, str]] = [
        (r.id, r.source) for r in ctx.session.execute(select(IpRangeRow.id, IpRangeRow.source).order_by(IpRangeRow.id))
    ]
    return [Part(file_id, source, f"{file_id}.json") for file_id, source in rows if source.startswith("https://")]


IPRANGES = declared_feed(
    "seo",
    "ipranges",
    importer=import_ip_ranges,
    stamp=ipranges_stamp,
    parts=ipranges_parts,
    held=ipranges_held,
    holds=ipranges_holds,
)


def airobots_stamp(raw: bytes, filename: str) -> Stamp:
    """robots.json carries no date or version: any good file is taken (the list only grows or is corrected)."""
    doc = parsers.ai_robots_json(raw)
    names = len(doc) if isinstance(doc, dict) else 0
    return Stamp(part="robots.json", label=f"{names} names")


def airobots_held(session: Session) -> date | None:
    """The day the list held is as of: the snapshot's commit day, or the day it was imported."""
    days = [d for title, _, _ in list_snapshots(session) if (d := parsers.list_day(title))]
    return min(days) if days else None


def airobots_holds(session: Session) -> str | None:
    snapshots = list_snapshots(session)
    if not snapshots:
        return None
    title, checked, _ = snapshots[0]
    return (
        f"{sum(n for _, _, n in snapshots)} AI crawlers from {title} (checked {checked.isoformat()}), besides the "
        "curated crawlers of data/seo/crawlers.yaml"
    )


AIROBOTS = declared_feed(
    "seo", "airobots", importer=import_ai_robots, stamp=airobots_stamp, held=airobots_held, holds=airobots_holds
)
