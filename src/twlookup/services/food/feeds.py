"""The food service's feeds: OpenStreetMap places to eat.

- `food.overpass`: an Overpass API query for Taiwan's named restaurants, cafés, fast food, food
  courts and ice cream (`twlookup refresh food.overpass`, weekly on the scheduler), or a saved
  answer of the operator's own query (`twlookup ingest food.overpass FILE`).
- `food.pbf`: a regional `.osm.pbf` extract the operator downloads (file feed only).

Either import replaces every shop in the store, the sample shops included.
"""

from __future__ import annotations

import dataclasses
from urllib.parse import urlencode

from twlookup.platform.feeds import Fetched, Part, Stamp, declared_feed, static_parts
from twlookup.platform.feeds.download import Fetcher
from twlookup.services.food import parsers
from twlookup.services.food.data import import_overpass, import_pbf

# The main public instance (https://wiki.openstreetmap.org/wiki/Overpass_API#Public_Overpass_API_instances);
# its usage policy allows a query like this one a week many times over.
OVERPASS_SERVER = "https://overpass-api.de/api/interpreter"
# `out center;` (body verbosity): nodes with their lat/lon, ways and relations with a centre.
# (`out tags` would drop the nodes' coordinates, and most shops are nodes.)
OVERPASS_QUERY = (
    "[out:json][timeout:600];"
    'area["ISO3166-1"="TW"][admin_level=2]->.tw;'
    'nwr["amenity"~"^(restaurant|fast_food|cafe|food_court|ice_cream)$"]["name"](area.tw);'
    "out center;"
)
OVERPASS_URL = f"{OVERPASS_SERVER}?{urlencode({'data': OVERPASS_QUERY})}"
PART = "taiwan"
# The server may work up to the query's own [timeout:600] before it sends the answer, so this one
# download is allowed that long and a little more (the feeds' usual bound is a minute).
DOWNLOAD_SECONDS = 660.0


def _overpass(fetcher: Fetcher, part: Part) -> Fetched:
    bounds = dataclasses.replace(fetcher.bounds, timeout=max(fetcher.bounds.timeout, DOWNLOAD_SECONDS))
    with Fetcher(bounds, max_bytes=fetcher.max_bytes, sleep=fetcher.sleep) as patient:
        answer = patient.get(part.url)
    return Fetched(body=answer.body, filename=part.filename, url=answer.url)


def overpass_stamp(raw: bytes, _name: str) -> Stamp:
    """An Overpass answer is as new as the OSM data it reflects (`osm3s.timestamp_osm_base`): a
    saved answer older than the last import does not replace it."""
    found = parsers.overpass_timestamp(raw)
    if found is None:
        return Stamp(part=PART)
    day, label = found
    return Stamp(part=PART, key=(label,), label=label, data_date=day)


OVERPASS = declared_feed(
    "food",
    "overpass",
    importer=import_overpass,
    stamp=overpass_stamp,
    parts=static_parts(Part(PART, OVERPASS_URL, "overpass-taiwan.json", fetch=_overpass)),  # the query's URL
)
PBF = declared_feed("food", "pbf", importer=import_pbf)

FEEDS = (OVERPASS, PBF)
