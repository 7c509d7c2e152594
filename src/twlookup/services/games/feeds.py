"""The games service's live feed: video games with a publication date in the coming 13 months, from
Wikidata's SPARQL endpoint (games.wikidata).

The query asks for items that are a video game (Q7889, checked as noted in operations.DOMAIN) with
a publication date (P577) from 60 days before today to 400 days after, each date with its place
of publication (P291), and the item's platforms (P400), developer (P178), publisher (P123) and
Taiwan Chinese label; parsers.games reads the answer.
"""

from __future__ import annotations

from datetime import date, timedelta

from twlookup.domain.release_import import wikidata_feed
from twlookup.services.games.parsers import games

BEFORE, AHEAD = timedelta(days=60), timedelta(days=400)

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


WIKIDATA = wikidata_feed("games", "video games", query, games)
