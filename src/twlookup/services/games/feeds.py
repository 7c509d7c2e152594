"""The games service's live feed: video games with a publication date in the coming 13 months, from
Wikidata's SPARQL endpoint (games.wikidata).

The query asks for items that are a video game (Q7889, checked as noted in operations.DOMAIN) with
a publication date (P577) from 60 days before today to 400 days after, each date with its place
of publication (P291), and the item's platforms (P400), developer (P178), publisher (P123) and
Taiwan Chinese label; parsers.games reads the answer.
"""

from __future__ import annotations

from datetime import date

from twlookup.domain.release_import import sparql_query, wikidata_feed
from twlookup.services.games.parsers import games


def query(today: date) -> str:
    return sparql_query(
        "?platformLabel ?developerLabel ?publisherLabel",
        "  ?item wdt:P31 wd:Q7889 .",
        "  OPTIONAL { ?item wdt:P400 ?platform . }\n"
        "  OPTIONAL { ?item wdt:P178 ?developer . }\n"
        "  OPTIONAL { ?item wdt:P123 ?publisher . }",
        today,
    )


WIKIDATA = wikidata_feed("games", query, games)
