"""The games service's live feed: video games with a publication date in the coming 13 months, from
Wikidata's SPARQL endpoint (games.wikidata).

The query asks for items that are a video game (Q7889, checked as noted in operations.DOMAIN) with
a publication date (P577) from 60 days before today to 400 days after, each date with its place
of publication (P291), and the item's platforms (P400), developer (P178), publisher (P123) and
Taiwan Chinese label. The release is the Taiwan (Q865) date where Wikidata has one, else the
origin's (the earliest date with no place). Platforms are read from their English labels onto the
five this service tracks; an item on none of them is left out. A curated record of
data/games/games.yaml wins over an imported item with the same name (domain.release_import.merge).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from twlookup.domain.release_import import (
    LICENCE,
    bindings,
    entity_page,
    publications,
    slug,
    source_title,
    wikidata_feed,
)
from twlookup.services.games.schemas import Game, Platform

BEFORE, AHEAD = timedelta(days=60), timedelta(days=400)
# English labels of Wikidata's platform items, onto the platforms tracked here (an exact label,
# or a prefix ending in a space)
PLATFORMS: dict[str, Platform] = {
    "PlayStation 5": "ps5",
    "Xbox Series X and Series S": "xbox",
    "Xbox Series ": "xbox",
    "Nintendo Switch 2": "switch2",
    "Microsoft Windows": "pc",
    "Windows ": "pc",
    "Linux": "pc",
    "macOS": "pc",
    "Android": "mobile",
    "iOS": "mobile",
    "iPadOS": "mobile",
}
ORDER: tuple[Platform, ...] = ("ps5", "xbox", "pc", "switch2", "mobile")

QUERY = """SELECT ?item ?itemLabel ?zh ?date ?precision ?place ?platformLabel ?developerLabel ?publisherLabel WHERE {{
  ?item wdt:P31 wd:Q7889 ;
        p:P577 ?statement .
  ?statement psv:P577 ?value .
  ?value wikibase:timeValue ?date ;
         wikibase:timePrecision ?precision .
  FILTER(?date >= "{first}T00:00:00Z"^^xsd:dateTime && ?date <= "{last}T00:00:00Z"^^xsd:dateTime)
  OPTIONAL {{ ?statement pq:P291 ?place . }}
  OPTIONAL {{ ?item wdt:P400 ?platform . }}
  OPTIONAL {{ ?item wdt:P178 ?developer . }}
  OPTIONAL {{ ?item wdt:P123 ?publisher . }}
  OPTIONAL {{ ?item rdfs:label ?zh . FILTER(LANG(?zh) = "zh-tw") }}
  SERVICE wikibase:label {{ bd:serviceParam wikibase:language "en". }}
}}
LIMIT 10000"""


def query(today: date) -> str:
    return QUERY.format(first=(today - BEFORE).isoformat(), last=(today + AHEAD).isoformat())


def platform(label: str) -> Platform | None:
    for name, code in PLATFORMS.items():
        if label == name or (name.endswith(" ") and label.startswith(name)):
            return code
    return None


def _label(values: dict[str, set[str]], key: str) -> str | None:
    found = sorted(v for v in values.get(key, ()) if not (v.startswith("Q") and v[1:].isdigit()))
    return ", ".join(found)[:200] if found else None


def games(raw: bytes, imported: date) -> list[tuple[str, Game]]:
    """(Wikidata id, game) for each usable item of a SPARQL JSON answer."""
    out = []
    for pub in publications(bindings(raw)):
        values: dict[str, Any] = pub.values or {}
        found = {p for label in values.get("platformLabel", ()) if (p := platform(label))}
        release = pub.taiwan or pub.origin
        if not found or release is None:
            continue
        game = Game(
            id=slug(pub.label, pub.qid),
            name=pub.label,
            name_zh=pub.label_zh,
            platforms=[p for p in ORDER if p in found],
            release=release,
            developer=_label(values, "developerLabel"),
            publisher=_label(values, "publisherLabel"),
            note=None if pub.taiwan else "Wikidata gives no Taiwan date: the origin's date",
            source=entity_page(pub.qid),
            source_title=source_title(pub),
            checked=imported,
            licence=LICENCE,
            record_origin="imported",
        )
        out.append((pub.qid, game))
    return out


WIKIDATA = wikidata_feed("games", "video games", query, games)
