"""Release dates imported from Wikidata's SPARQL endpoint (movie.wikidata, games.wikidata).

A service's feed asks the query service (https://query.wikidata.org/sparql) for the items of its
classes with a publication date (P577) in a window around today, each date with its place of
publication qualifier (P291) where Wikidata has one. The answer is SPARQL 1.1 Query Results JSON
(application/sparql-results+json): ``{"head": {"vars": [...]}, "results": {"bindings": [...]}}``,
one binding per (item, date statement), each value ``{"type": "uri"|"literal", "value": ...}``.

Per item, the date that applies in Taiwan is the one qualified with Taiwan (Q865) where there is
one; the origin date is the earliest date with no place, else the earliest date of any other place.
A date is kept at the precision Wikidata gives it (day, month, year: `wikibase:timePrecision` 11,
10, 9), written as the trackers write announced dates (see release_dates).

Imported items live in one table (`release_import`), replaced whole by each import of a service's
feed; the service's catalogue adds them after its curated records, and a curated record wins over
an imported one with the same name (`merge`). Answers say which is which (`record_origin`).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from twlookup.domain.release_dates import fold
from twlookup.domain.release_tables import ImportedRelease
from twlookup.domain.release_tracker import Catalogue, TrackedItem, TrackedRecord
from twlookup.platform import clock
from twlookup.platform.feeds import Feed, Fetched, Part, PartsContext, Stamp, declared_feed
from twlookup.platform.records import load_records, to_row
from twlookup.platform.store.seed import replace_rows

if TYPE_CHECKING:
    from twlookup.platform.store.record_tables import DerivedRow

ENDPOINT = "https://query.wikidata.org/sparql"
ENTITY = "http://www.wikidata.org/entity/"
TAIWAN = "Q865"
LICENCE = "CC0 1.0 (Wikidata)"
PRECISION = {"11": "day", "10": "month", "9": "year"}
FILE_NAME = re.compile(r"wikidata-(?P<service>[a-z]+)-(?P<day>\d{4}-\d{2}-\d{2})\.json$")
ItemT = TypeVar("ItemT", bound=TrackedItem)
RecordT = TypeVar("RecordT", bound=TrackedRecord)


# ---------------------------------------------------------------- the answer


def bindings(raw: bytes) -> list[dict[str, str]]:
    """The rows of a SPARQL JSON answer, each variable to its value; ValueError naming what is wrong."""
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"not SPARQL JSON results: {exc}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("head", {}).get("vars"), list):
        raise ValueError("not SPARQL JSON results: no head.vars")
    rows = doc.get("results", {}).get("bindings") if isinstance(doc.get("results"), dict) else None
    if not isinstance(rows, list):
        raise ValueError("not SPARQL JSON results: no results.bindings")
    out = []
    for row in rows:
        if not isinstance(row, dict):
            raise ValueError("not SPARQL JSON results: a binding is not an object")
        out.append({k: v["value"] for k, v in row.items() if isinstance(v, dict) and isinstance(v.get("value"), str)})
    return out


def qid(uri: str | None) -> str | None:
    if uri and uri.startswith(ENTITY) and re.fullmatch(r"Q\d+", uri[len(ENTITY) :]):
        return uri[len(ENTITY) :]
    return None


def when_text(value: str, precision: str | None) -> str | None:
    """A Wikidata time at its precision as an announced date (2026-12-18, 2026-12, 2026), or None
    for what the trackers cannot use (a coarser precision, a year before 1000)."""
    match = re.match(r"^(\d{4})-(\d{2})-(\d{2})T", value)
    kind = PRECISION.get(precision or "11")
    if not match or kind is None:
        return None
    y, m, d = match.groups()
    if kind == "year":
        return y
    if kind == "month":
        return f"{y}-{m}"
    try:
        return date(int(y), int(m), int(d)).isoformat()
    except ValueError:
        return None


@dataclass
class Publication:
    """One item of the answer: its labels, the Taiwan date and the origin date, and the other
    bound values (the first one seen of each)."""

    qid: str
    label: str
    label_zh: str | None = None
    taiwan: str | None = None
    origin: str | None = None
    origin_place: str | None = None
    values: dict[str, set[str]] | None = None


def _earlier(a: str | None, b: str) -> bool:
    return a is None or b < a


def publications(rows: Iterable[Mapping[str, str]]) -> list[Publication]:
    """Items of the answer by Wikidata id, each with its Taiwan date and origin date chosen. Rows
    need `item`, `itemLabel` and `date`; `precision`, `place` and `zh` are read where bound, and
    every other variable is kept in `values`."""
    items: dict[str, Publication] = {}
    unplaced: dict[str, bool] = {}
    for row in rows:
        ident = qid(row.get("item"))
        text = when_text(row.get("date", ""), row.get("precision"))
        label = row.get("itemLabel", "").strip()
        if ident is None or text is None or not label or label == ident:  # no English label: not usable
            continue
        pub = items.setdefault(ident, Publication(ident, label, values={}))
        if row.get("zh") and not pub.label_zh:
            pub.label_zh = row["zh"].strip()
        place = qid(row.get("place"))
        if place == TAIWAN:
            if _earlier(pub.taiwan, text):
                pub.taiwan = text
        elif place is None:
            if not unplaced.get(ident) or _earlier(pub.origin, text):
                pub.origin, pub.origin_place = text, None
            unplaced[ident] = True
        elif not unplaced.get(ident) and _earlier(pub.origin, text):
            pub.origin, pub.origin_place = text, place
        for key, value in row.items():
            if key not in ("item", "itemLabel", "date", "precision", "place", "zh"):
                assert pub.values is not None
                pub.values.setdefault(key, set()).add(value)
    for pub in items.values():
        if pub.origin is None:  # only a Taiwan date: it is the origin's too as far as Wikidata says
            pub.origin = pub.taiwan
    return sorted(items.values(), key=lambda p: (p.origin or "", p.qid))


def slug(label: str, ident: str) -> str:
    text = unicodedata.normalize("NFKD", label).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:60].strip("-")
    return text if len(text) >= 2 else ident.lower()


def entity_page(ident: str) -> str:
    return f"https://www.wikidata.org/wiki/{ident}"


def source_title(pub: Publication) -> str:
    where = "in Taiwan (P291 Q865)" if pub.taiwan else "with no Taiwan date"
    return f"Wikidata {pub.qid}: {pub.label}, publication date (P577) {where}"


def imported_fields(pub: Publication, day: date) -> dict[str, Any]:
    """What every tracker's imported record takes from its Wikidata item: id, names, provenance
    (the item's page, CC0, the day of the import) and `record_origin: imported`."""
    return {
        "id": slug(pub.label, pub.qid),
        "name": pub.label,
        "name_zh": pub.label_zh,
        "source": entity_page(pub.qid),
        "source_title": source_title(pub),
        "checked": day,
        "licence": LICENCE,
        "record_origin": "imported",
    }


# ---------------------------------------------------------------- the query

BEFORE, AHEAD = timedelta(days=60), timedelta(days=400)


def sparql_query(variables: str, items: str, optional: str, today: date) -> str:
    """A tracker's query: the items `items` chooses (SPARQL triples binding ?item), each with its
    publication dates (P577) from 60 days before today to 400 after, their precision and place of
    publication (P291) where given, the English and Taiwan Chinese labels, and the service's own
    `optional` patterns binding `variables`."""
    first, last = (today - BEFORE).isoformat(), (today + AHEAD).isoformat()
    return f"""SELECT ?item ?itemLabel ?zh ?date ?precision ?place {variables} WHERE {{
{items}
  ?item p:P577 ?statement .
  ?statement psv:P577 ?value .
  ?value wikibase:timeValue ?date ;
         wikibase:timePrecision ?precision .
  FILTER(?date >= "{first}T00:00:00Z"^^xsd:dateTime && ?date <= "{last}T00:00:00Z"^^xsd:dateTime)
  OPTIONAL {{ ?statement pq:P291 ?place . }}
{optional}
  OPTIONAL {{ ?item rdfs:label ?zh . FILTER(LANG(?zh) = "zh-tw") }}
  SERVICE wikibase:label {{ bd:serviceParam wikibase:language "en". }}
}}
LIMIT 10000"""


# ---------------------------------------------------------------- the store


def store_imported(session: Session, service: str, records: Iterable[tuple[str, TrackedItem]], imported: date) -> int:
    """Replace the service's imported items with `records` ((Wikidata id, record) pairs); ids are
    made unique by adding the Wikidata id to a repeated one."""
    session.execute(delete(ImportedRelease).where(ImportedRelease.service == service))
    seen: set[str] = set()
    count = 0
    for ident, record in records:
        values = record.model_dump(mode="json")
        if values["id"] in seen:
            values["id"] = f"{values['id'][:60]}-{ident.lower()}"
        seen.add(values["id"])
        session.add(ImportedRelease(service=service, id=values["id"], qid=ident, imported=imported, record=values))
        count += 1
    session.flush()
    return count


def load_imported(session: Session, service: str, build: Callable[[dict[str, Any]], ItemT]) -> list[ItemT]:
    rows = session.scalars(
        select(ImportedRelease).where(ImportedRelease.service == service).order_by(ImportedRelease.id)
    )
    return [build({**row.record, "record_origin": "imported"}) for row in rows]


def seed_curated(session: Session, path: Path, record: type[RecordT], key: str, table: Any) -> int:
    """A tracker's data file (its list under `key`, each item a `record`) replacing `table`'s rows."""
    items = load_records(path, record, key)
    return replace_rows(session, table, [to_row(item, table) for item in items])


def load_catalogue(
    session: Session, table: type[DerivedRow], record: type[RecordT], service: str | None = None
) -> Catalogue[RecordT]:
    """A tracker's catalogue: its curated records, then (a service with a Wikidata feed) the items the
    feed imported that no curated record has."""
    curated = [record.model_validate(row) for row in session.scalars(select(table))]
    imported = load_imported(session, service, record.model_validate) if service else []
    return Catalogue(merge(curated, imported))


def merge(curated: Iterable[ItemT], imported: Iterable[ItemT]) -> list[ItemT]:
    """The curated records, then each imported one whose id and names no curated record has: a
    curated record wins over an imported one for the same title."""
    out = list(curated)
    taken = {fold(name) for item in out for name in item.names()}
    for item in imported:
        names = {fold(name) for name in (item.id, item.name, item.name_zh) if name}
        if not names & taken:
            out.append(item)
            taken |= names
    return out


# ---------------------------------------------------------------- the feed


def file_name(service: str, day: date) -> str:
    return f"wikidata-{service}-{day.isoformat()}.json"


def day_of(filename: str) -> date | None:
    match = FILE_NAME.search(filename)
    return date.fromisoformat(match["day"]) if match else None


def stamp_for(service: str) -> Callable[[bytes, str], Stamp]:
    """A file's part and day: the day it was asked for, from its name (wikidata-<service>-<day>.json)."""

    def stamp(_raw: bytes, filename: str) -> Stamp:
        day = day_of(filename)
        if day is None:
            return Stamp(part="sparql")
        return Stamp(part="sparql", key=(day.isoformat(),), label=day.isoformat(), data_date=day)

    return stamp


def sparql_part(service: str, query: str, day: date) -> Part:
    """The one request of a refresh: the query, asked by GET with format=json."""

    def fetch(fetcher: Any, part: Part) -> Fetched:
        answer = fetcher.get(ENDPOINT, params={"query": query, "format": "json"})
        bindings(answer.body)  # an answer that is not SPARQL JSON fails the refresh, not the import
        return Fetched(body=answer.body, filename=part.filename, url=answer.url)

    return Part("sparql", ENDPOINT, file_name(service, day), fetch=fetch)


def imported_day(path: Path, fallback: date) -> date:
    return day_of(path.name) or fallback


def wikidata_feed(
    service: str,
    query: Callable[[date], str],
    records: Callable[[bytes, date], Iterable[tuple[str, TrackedItem]]],
) -> Feed:
    """The `<service>.wikidata` feed of a release tracker: `query(today)` asked daily of the SPARQL
    endpoint, `records(answer, day)` the items it imports (replacing the service's imported ones);
    what the feed states is the `wikidata` table of the service's feeds.toml."""

    def importer(session: Session, path: Path) -> int:
        day = imported_day(path, clock.today())
        return store_imported(session, service, records(path.read_bytes(), day), day)

    def parts(ctx: PartsContext) -> list[Part]:
        return [sparql_part(service, query(ctx.today), ctx.today)]

    return declared_feed(service, "wikidata", importer=importer, stamp=stamp_for(service), parts=parts)
