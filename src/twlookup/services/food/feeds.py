"""The food service's feeds: OpenStreetMap shops, imported from files the operator makes.

Both are file feeds (`twlookup ingest`), with nothing to refresh from: the shops come from a query
or an extract the operator chooses (area, tags, server), not from one file a publisher keeps.
"""

from __future__ import annotations

from twlookup.platform.feeds import Feed
from twlookup.services.food.data import import_overpass, import_pbf

ODBL = "ODbL-1.0, © OpenStreetMap contributors (https://www.openstreetmap.org/copyright)"

OVERPASS = Feed(
    service="food",
    name="overpass",
    title="OpenStreetMap restaurants and cafés through an Overpass API query",
    publisher="OpenStreetMap contributors",
    format="Overpass API JSON (ways with `out center;`)",
    licence=ODBL,
    page="https://wiki.openstreetmap.org/wiki/Overpass_API",
    changes="continuously (OpenStreetMap is edited all the time)",
    importer=import_overpass,
    manual="the shops come from an Overpass query the operator writes and runs on a server of their choice",
    ingest_hint="taiwan-food.json",
)

PBF = Feed(
    service="food",
    name="pbf",
    title="OpenStreetMap restaurants and cafés from a regional .osm.pbf extract",
    publisher="OpenStreetMap contributors",
    format="OSM PBF extract, read with pyosmium",
    licence=ODBL,
    page="https://wiki.openstreetmap.org/wiki/Planet.osm",
    changes="continuously (extract providers rebuild their files regularly)",
    importer=import_pbf,
    manual="a regional extract the operator downloads from an extract provider of their choice",
    ingest_hint="taiwan-latest.osm.pbf",
)

FEEDS = (OVERPASS, PBF)
