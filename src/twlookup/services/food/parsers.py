"""Reading places to eat out of OpenStreetMap data: Overpass API JSON and `.osm.pbf` extracts.

Kept per place: name (name:zh-Hant / name:zh / name), position (a way's centre), the mapped
category, amenity, cuisine, opening_hours and the OSM id. Only amenity=restaurant, fast_food,
cafe, food_court, ice_cream with a name are read. The data is ODbL 1.0 (© OpenStreetMap contributors).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from twlookup.services.food.records import Category, Shop

AMENITIES = ("restaurant", "fast_food", "cafe", "food_court", "ice_cream")
OSM_SOURCE = "https://www.openstreetmap.org/copyright"
OSM_TITLE = "OpenStreetMap（© OpenStreetMap contributors）"
ODBL = "ODbL-1.0, © OpenStreetMap contributors (https://www.openstreetmap.org/copyright)"
FALLBACK_CATEGORY = "snacks"  # a restaurant whose cuisine maps to nothing is filed under 台式小吃


def category_for(tags: Mapping[str, str], categories: Sequence[Category]) -> str:
    """The first category listing one of the place's cuisines, else one listing its amenity,
    else vegetarian for diet:vegetarian=only/yes, else the fallback."""
    cuisines = [c.strip().lower() for c in tags.get("cuisine", "").split(";") if c.strip()]
    for cuisine in cuisines:
        for category in categories:
            if cuisine in category.cuisines:
                return category.id
    amenity = tags.get("amenity", "")
    for category in categories:
        if amenity in category.amenities:
            return category.id
    if tags.get("diet:vegetarian") in ("only", "yes") or tags.get("diet:vegan") in ("only", "yes"):
        return "vegetarian"
    return FALLBACK_CATEGORY


def shop_from(
    kind: str,
    ident: int,
    lat: float,
    lon: float,
    tags: Mapping[str, str],
    categories: Sequence[Category],
    checked: date,
) -> Shop | None:
    if tags.get("amenity") not in AMENITIES:
        return None
    name = tags.get("name:zh-Hant") or tags.get("name:zh-TW") or tags.get("name:zh") or tags.get("name")
    if not name:
        return None
    return Shop(
        id=f"{kind}/{ident}",
        name=name[:200],
        lat=round(lat, 7),
        lon=round(lon, 7),
        category=category_for(tags, categories),
        amenity=tags.get("amenity"),
        cuisine=tags.get("cuisine", None) and tags["cuisine"][:200],
        opening_hours=tags.get("opening_hours", None) and tags["opening_hours"][:500],
        source=f"https://www.openstreetmap.org/{kind}/{ident}",
        source_title=OSM_TITLE,
        checked=checked,
        licence="ODbL-1.0",
        sample=False,
    )


def parse_overpass(raw: bytes, categories: Sequence[Category], checked: date) -> list[Shop]:
    """Overpass API JSON (`[out:json]`, ways and relations with `out center;`). Raises ValueError
    naming what is wrong with the file."""
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("elements"), list):
        raise ValueError("expected an Overpass JSON object with an 'elements' list")
    remark = doc.get("remark")
    if isinstance(remark, str) and "error" in remark.lower():
        # the server stopped part-way (a timeout or out of memory): the elements are incomplete
        raise ValueError(f"the Overpass server did not finish the query: {remark[:300]}")
    shops: dict[str, Shop] = {}
    for element in doc["elements"]:
        if not isinstance(element, dict):
            continue
        kind, ident, tags = element.get("type"), element.get("id"), element.get("tags") or {}
        if kind not in ("node", "way", "relation") or not isinstance(ident, int):
            continue
        where: dict[str, Any] = element if kind == "node" else (element.get("center") or {})
        lat, lon = where.get("lat"), where.get("lon")
        if not isinstance(lat, int | float) or not isinstance(lon, int | float):
            continue  # a way without `out center` has no position
        shop = shop_from(kind, ident, float(lat), float(lon), tags, categories, checked)
        if shop is not None:
            shops[shop.id] = shop
    return list(shops.values())


OSM_BASE = re.compile(rb'"timestamp_osm_base"\s*:\s*"(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})Z"')


def overpass_timestamp(raw: bytes) -> tuple[date, str] | None:
    """The date and time of the OSM data an Overpass answer reflects (`osm3s.timestamp_osm_base`,
    UTC), read from the head of the file without parsing all of it; None when it carries none."""
    match = OSM_BASE.search(raw[:4096])
    if match is None:
        return None
    return date.fromisoformat(match.group(1).decode()), f"{match.group(1).decode()}T{match.group(2).decode()}Z"


def read_pbf(path: Path, categories: Sequence[Category], checked: date) -> list[Shop]:
    """Places to eat in an `.osm.pbf` extract, read with pyosmium. A way's position is the mean of
    its nodes' locations (closed ways: the first node, repeated at the end, counted once)."""
    import osmium
    import osmium.osm

    shops: list[Shop] = []
    processor = osmium.FileProcessor(str(path)).with_locations().with_filter(osmium.filter.KeyFilter("amenity"))
    for obj in processor:
        tags = {t.k: t.v for t in obj.tags}
        if tags.get("amenity") not in AMENITIES:
            continue
        if isinstance(obj, osmium.osm.Node):
            if not obj.location.valid():
                continue
            lat, lon = obj.location.lat, obj.location.lon
            kind = "node"
        elif isinstance(obj, osmium.osm.Way):
            points = [(n.location.lat, n.location.lon) for n in obj.nodes if n.location.valid()]
            if len(points) > 1 and points[0] == points[-1]:
                points = points[:-1]
            if not points:
                continue
            lat = sum(p[0] for p in points) / len(points)
            lon = sum(p[1] for p in points) / len(points)
            kind = "way"
        else:
            continue
        shop = shop_from(kind, obj.id, lat, lon, tags, categories, checked)
        if shop is not None:
            shops.append(shop)
    return shops


def unique(shops: Iterable[Shop]) -> list[Shop]:
    return list({s.id: s for s in shops}.values())
