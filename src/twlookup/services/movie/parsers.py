"""The movie service's live feed: films and series with a publication date in the coming 13 months,
from Wikidata's SPARQL endpoint (movie.wikidata).

The query asks for items of the film and series classes the knowledge-base lookup prefers (ids
checked as noted in operations.DOMAIN) with a publication date (P577) from 60 days before today
to 400 days after, each date with its place of publication (P291), and the item's country of
origin as an ISO code (P495, P297), original broadcaster (P449) and Taiwan Chinese label. The
Taiwan (Q865) date becomes `taiwan_release` where it differs from the origin's. An item without
an English label or a country of origin is left out. A curated record of data/movie/titles.yaml
wins over an imported item with the same name (domain.release_import.merge).
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
from twlookup.services.movie.schemas import Title, TitleType

BEFORE, AHEAD = timedelta(days=60), timedelta(days=400)
# class -> title type; the more specific type wins where an item has several classes
CLASSES: dict[str, TitleType] = {
    "Q11424": "film",  # film
    "Q24869": "film",  # feature film
    "Q202866": "anime-film",  # animated film (the spec has no other animation type)
    "Q20650540": "anime-film",  # anime film
    "Q5398426": "series",  # television series
    "Q1259759": "series",  # miniseries
    "Q63952888": "anime-series",  # anime television series
}
RANK: dict[TitleType, int] = {"anime-series": 0, "anime-film": 1, "series": 2, "film": 3}

QUERY = """SELECT ?item ?itemLabel ?zh ?date ?precision ?place ?class ?iso ?networkLabel WHERE {{
  VALUES ?class {{ {classes} }}
  ?item wdt:P31 ?class ;
        p:P577 ?statement .
  ?statement psv:P577 ?value .
  ?value wikibase:timeValue ?date ;
         wikibase:timePrecision ?precision .
  FILTER(?date >= "{first}T00:00:00Z"^^xsd:dateTime && ?date <= "{last}T00:00:00Z"^^xsd:dateTime)
  OPTIONAL {{ ?statement pq:P291 ?place . }}
  OPTIONAL {{ ?item wdt:P495 ?country . ?country wdt:P297 ?iso . }}
  OPTIONAL {{ ?item wdt:P449 ?network . }}
  OPTIONAL {{ ?item rdfs:label ?zh . FILTER(LANG(?zh) = "zh-tw") }}
  SERVICE wikibase:label {{ bd:serviceParam wikibase:language "en". }}
}}
LIMIT 10000"""


def query(today: date) -> str:
    classes = " ".join(f"wd:{c}" for c in CLASSES)
    return QUERY.format(classes=classes, first=(today - BEFORE).isoformat(), last=(today + AHEAD).isoformat())


def _first(values: dict[str, set[str]], key: str) -> str | None:
    found = sorted(values.get(key, ()))
    return found[0] if found else None


def titles(raw: bytes, imported: date) -> list[tuple[str, Title]]:
    """(Wikidata id, title) for each usable item of a SPARQL JSON answer."""
    out = []
    for pub in publications(bindings(raw)):
        values: dict[str, Any] = pub.values or {}
        types = sorted(
            (CLASSES[c.rsplit("/", 1)[-1]] for c in values.get("class", ()) if c.rsplit("/", 1)[-1] in CLASSES),
            key=RANK.__getitem__,
        )
        iso = _first(values, "iso")
        if not types or iso is None or len(iso) != 2 or not iso.isalpha() or pub.origin is None:
            continue
        kind = types[0]
        network = _first(values, "networkLabel")
        platform = network if network and not network.startswith("Q") else ("cinema" if "film" in kind else None)
        title = Title(
            id=slug(pub.label, pub.qid),
            name=pub.label,
            name_zh=pub.label_zh,
            type=kind,
            platform=(platform or "not stated in Wikidata")[:60],
            origin=iso.upper(),
            release=pub.origin,
            taiwan_release=pub.taiwan if pub.taiwan != pub.origin else None,
            source=entity_page(pub.qid),
            source_title=source_title(pub),
            checked=imported,
            licence=LICENCE,
            record_origin="imported",
        )
        out.append((pub.qid, title))
    return out


WIKIDATA = wikidata_feed("movie", "films and series", query, titles)
