"""The movie service's live feed: films and series with a publication date in the coming 13 months,
from Wikidata's SPARQL endpoint (movie.wikidata).

The query asks for items of the film and series classes the knowledge-base lookup prefers (ids
checked as noted in operations.DOMAIN) with a publication date (P577) from 60 days before today
to 400 days after, each date with its place of publication (P291), and the item's country of
origin as an ISO code (P495, P297), original broadcaster (P449) and Taiwan Chinese label;
parsers.titles reads the answer.
"""

from __future__ import annotations

from datetime import date

from twlookup.domain.release_import import sparql_query, wikidata_feed
from twlookup.services.movie.parsers import CLASSES, titles


def query(today: date) -> str:
    classes = " ".join(f"wd:{c}" for c in CLASSES)
    return sparql_query(
        "?class ?iso ?networkLabel",
        f"  VALUES ?class {{ {classes} }}\n  ?item wdt:P31 ?class .",
        "  OPTIONAL { ?item wdt:P495 ?country . ?country wdt:P297 ?iso . }\n  OPTIONAL { ?item wdt:P449 ?network . }",
        today,
    )


WIKIDATA = wikidata_feed("movie", query, titles)
