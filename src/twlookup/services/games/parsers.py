"""Reading the games feed's upstream format: a Wikidata SPARQL JSON answer (feeds.QUERY) into
`Game` records.

The release is the Taiwan (Q865) date where Wikidata has one, else the origin's (the earliest date
with no place). Platforms are read from their English labels onto the five this service tracks; an
item on none of them is left out. A curated record of data/games/games.yaml wins over an imported
item with the same name (domain.release_import.merge).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from twlookup.domain.release_import import bindings, imported_fields, publications
from twlookup.services.games.records import Game, Platform

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
            **imported_fields(pub, imported),
            platforms=[p for p in ORDER if p in found],
            release=release,
            developer=_label(values, "developerLabel"),
            publisher=_label(values, "publisherLabel"),
            note=None if pub.taiwan else "Wikidata gives no Taiwan date: the origin's date",
        )
        out.append((pub.qid, game))
    return out
