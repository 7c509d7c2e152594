"""The movie service's live feed: films and series with a publication date in the coming 13 months,
from Wikidata's SPARQL endpoint (movie.wikidata).

The query asks for items of the film and series classes the knowledge-base lookup prefers (ids
checked as noted in operations.DOMAIN) with a publication date (P577) from 60 days before today
to 400 days after, each date with its place of publication (P291), and the item's country of
origin as an ISO code (P495, P297), original broadcaster (P449) and Taiwan Chinese label;
parsers.titles reads the answer.
"""

from __future__ import annotations

from datetime import date, timedelta

from twlookup.domain.release_import import wikidata_feed
from twlookup.services.movie.parsers import CLASSES, titles

BEFORE, AHEAD = timedelta(days=60), timedelta(days=400)

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


WIKIDATA = wikidata_feed("movie", "films and series", query, titles)
