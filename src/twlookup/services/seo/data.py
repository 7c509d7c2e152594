"""Seeding the seo tables from data/seo/, the importers of the IP-range files and of ai.robots.txt's
list, and the cached catalogue."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.platform.records import load_records, read_data_file, to_row
from twlookup.platform.schemas import today_taipei
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.seo import parsers
from twlookup.services.seo.records import AiAgent, Crawler, Engine, IpRangeFile, MarketShare
from twlookup.services.seo.tables import CrawlerRow, EngineRow, IpRangeRow, ShareRow


def seed_seo(session: Session, data_dir: Path) -> int:
    folder = data_dir / "seo"
    crawlers = load_records(folder / "crawlers.yaml", Crawler, "crawlers", label="token")
    engines = load_records(folder / "engines.yaml", Engine, "engines")
    shares = load_records(folder / "share.yaml", MarketShare, "shares", label="region")
    files = load_records(folder / "ipranges.yaml", IpRangeFile, "files")
    known = {f.id for f in files}
    for c in crawlers:
        missing = set(c.ip_ranges) - known
        if missing:
            raise ValueError(
                f"{folder / 'crawlers.yaml'}: crawler {c.token!r} names unknown IP-range files {sorted(missing)}"
            )
    curated = {c.token.lower() for c in crawlers}
    # ai.robots.txt's list: an imported copy (the feed seo.airobots) is kept over the shipped snapshot.
    imported_list = [r for r in list_rows(session) if r.source == parsers.RAW_URL]
    listed = (
        [r for r in imported_list if r.token.lower() not in curated]
        if imported_list
        else [to_row(c, CrawlerRow) for c in shipped(folder, curated)]
    )
    count = replace_rows(session, CrawlerRow, [to_row(c, CrawlerRow) for c in crawlers] + listed)
    count += replace_rows(session, EngineRow, [to_row(e, EngineRow) for e in engines])
    count += replace_rows(session, ShareRow, [to_row(s, ShareRow) for s in shares])
    # An imported (real) range file is never overwritten by the shipped sample.
    imported: set[str] = set(session.scalars(select(IpRangeRow.id).where(IpRangeRow.sample.is_(False))))
    rows = [to_row(f, IpRangeRow) for f in files if f.id not in imported]
    rows += list(session.scalars(select(IpRangeRow).where(IpRangeRow.sample.is_(False))))
    count += replace_rows(session, IpRangeRow, rows)
    return count


# Operators' own file names that differ from the range-file ids here.
FILE_ALIASES = {"common-crawlers": "googlebot", "searchbot": "oai-searchbot"}


def import_ip_ranges(session: Session, path: Path) -> int:
    """`twlookup ingest seo.ipranges googlebot.json`: an operator's published range file; the file
    name (without .json) names the range file it replaces (Google's common-crawlers.json and OpenAI's
    searchbot.json are taken under their operators' names too)."""
    file_id = path.name.removesuffix(".json")
    file_id = FILE_ALIASES.get(file_id, file_id)
    row = session.get(IpRangeRow, file_id)
    if row is None:
        known = ", ".join(session.scalars(select(IpRangeRow.id).order_by(IpRangeRow.id)))
        raise ValueError(f"{path}: no IP-range file {file_id!r}; name the file after one of: {known}")
    try:
        doc = parsers.ip_range_doc(path.read_bytes())
        prefixes = parsers.ip_range_prefixes(doc)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    row.prefixes = prefixes
    row.creation_time = str(doc.get("creationTime")) if doc.get("creationTime") else None
    row.sample = False
    row.checked = today_taipei()
    return len(prefixes)


def shipped(folder: Path, curated: set[str]) -> list[Crawler]:
    """The snapshot in data/seo/ai-robots.yaml as catalogue crawlers."""
    path = folder / "ai-robots.yaml"
    doc = read_data_file(path)
    agents = load_records(path, AiAgent, "agents", label="token")
    return parsers.crawlers_from_agents(agents, curated, doc["source"], doc["source_title"], doc["checked"])


def list_rows(session: Session) -> list[Any]:
    return list(session.scalars(select(CrawlerRow).where(CrawlerRow.docs == parsers.LIST_DOCS)))


def list_snapshots(session: Session) -> list[tuple[str, date, int]]:
    """What the status route tells of the list-derived crawlers, without loading them: each
    snapshot's title and checked day with its number of crawlers, ordered by their first crawler
    token (one snapshot in practice: an import replaces the whole list)."""
    rows = session.execute(
        select(
            CrawlerRow.source_title,
            CrawlerRow.checked,
            func.count().label("crawlers"),
            func.min(CrawlerRow.token).label("first"),
        )
        .where(CrawlerRow.docs == parsers.LIST_DOCS)
        .group_by(CrawlerRow.source_title, CrawlerRow.checked)
    )
    return [(r.source_title, r.checked, r.crawlers) for r in sorted(rows, key=lambda r: r.first)]


def import_ai_robots(session: Session, path: Path) -> int:
    """`twlookup ingest seo.airobots robots.json` (or `refresh`): the list replaces the catalogue's
    list-derived crawlers; the curated ones stay."""
    try:
        agents = parsers.agents_from_robots_json(parsers.ai_robots_json(path.read_bytes()))
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    named: list[str] = list(session.scalars(select(CrawlerRow.token).where(CrawlerRow.docs != parsers.LIST_DOCS)))
    curated = {t.lower() for t in named}
    today = today_taipei()
    crawlers = parsers.crawlers_from_agents(
        agents,
        curated,
        parsers.RAW_URL,
        f"ai.robots.txt robots.json (main branch, imported {today.isoformat()})",
        today,
    )
    for row in list_rows(session):
        session.delete(row)
    session.flush()
    session.add_all(to_row(c, CrawlerRow) for c in crawlers)
    session.flush()
    return len(crawlers)


@dataclass(frozen=True)
class Catalog:
    crawlers: list[Crawler]
    ranges: list[IpRangeFile]
    engines: dict[str, Engine]
    shares: list[MarketShare]
    networks: list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, IpRangeFile]]

    def crawler(self, token: str) -> Crawler | None:
        return next((c for c in self.crawlers if c.token.lower() == token.lower()), None)

    def tokens(self, *types: str) -> list[str]:
        return [c.token for c in self.crawlers if c.type in types]


def _load(session: Session) -> Catalog:
    order = {"search": 0, "ai_search": 1, "train": 2, "user": 3}
    crawlers = sorted(
        (Crawler.model_validate(r) for r in session.scalars(select(CrawlerRow))), key=lambda c: (order[c.type], c.token)
    )
    ranges = [IpRangeFile.model_validate(r) for r in session.scalars(select(IpRangeRow).order_by(IpRangeRow.id))]
    engines = {e.id: e for e in (Engine.model_validate(r) for r in session.scalars(select(EngineRow)))}
    ordered: dict[str, Engine] = {k: engines[k] for k in ("google", "bing", "duckduckgo", "yahoo") if k in engines}
    shares = [MarketShare.model_validate(r) for r in session.scalars(select(ShareRow).order_by(ShareRow.region))]
    networks = [(ipaddress.ip_network(p), f) for f in ranges for p in f.prefixes]
    return Catalog(crawlers, ranges, ordered, shares, networks)


CATALOG: Reference[Catalog] = Reference(_load)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_seo,)
