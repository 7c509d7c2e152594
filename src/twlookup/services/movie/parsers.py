"""Reading the movie feed's upstream format: a Wikidata SPARQL JSON answer (feeds.QUERY) into
`Title` records.

An item's type is read from its classes (the more specific wins); the Taiwan (Q865) date becomes
`taiwan_release` where it differs from the origin's. An item without an English label or a country
of origin is left out. A curated record of data/movie/titles.yaml wins over an imported item with
the same name (domain.release_import.merge).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from twlookup.domain.release_import import bindings, imported_fields, publications
from twlookup.services.movie.records import Title, TitleType

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
            **imported_fields(pub, imported),
            type=kind,
            platform=(platform or "not stated in Wikidata")[:60],
            origin=iso.upper(),
            release=pub.origin,
            taiwan_release=pub.taiwan if pub.taiwan != pub.origin else None,
        )
        out.append((pub.qid, title))
    return out
