"""The OSM importers: Overpass API JSON and an .osm.pbf extract (written here with pyosmium)
become shops with their OSM ids, ODbL licence and mapped category, replacing the sample shops."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import osmium
import pytest

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.seed import ingest
from twlookup.services.food import parsers
from twlookup.services.food.data import _categories, catalogue, import_overpass, import_pbf, seed_food
from twlookup.services.food.tables import ShopRow

FIXTURES = Path(__file__).parent / "fixtures"
CATEGORIES = _categories(DEFAULT_DATA / "food")
CHECKED = date(2026, 11, 23)


def test_overpass_json_in_the_real_format():
    shops = {s.id: s for s in parsers.parse_overpass((FIXTURES / "overpass.json").read_bytes(), CATEGORIES, CHECKED)}
    # node 1004 has no name, node 1005 is a bakery (shop=*), way 2002 has no centre: left out
    assert sorted(shops) == ["node/1001", "node/1002", "node/1003", "way/2001"]
    noodle = shops["node/1001"]
    assert (noodle.category, noodle.opening_hours, noodle.licence, noodle.sample) == (
        "noodles",
        "Mo-Su 11:00-21:00",
        "ODbL-1.0",
        False,
    )
    assert noodle.source == "https://www.openstreetmap.org/node/1001"
    assert shops["node/1002"].name == "咖啡乙" and shops["node/1002"].category == "cafe"  # name:zh wins; amenity=cafe
    assert shops["node/1003"].category == "vegetarian"  # diet:vegetarian=only
    assert (shops["way/2001"].lat, shops["way/2001"].category) == (25.0475, "fastfood")
    with pytest.raises(ValueError, match="elements"):
        parsers.parse_overpass(b'{"version": 0.6}', CATEGORIES, CHECKED)
    with pytest.raises(ValueError, match="not JSON"):
        parsers.parse_overpass(b"<osm/>", CATEGORIES, CHECKED)


def write_pbf(path: Path) -> None:
    with osmium.SimpleWriter(str(path)) as writer:
        writer.add_node(
            osmium.osm.mutable.Node(
                id=11,
                location=(121.5170, 25.0460),
                tags={
                    "amenity": "restaurant",
                    "name": "水餃店",
                    "cuisine": "dumpling",
                    "opening_hours": "Mo-Su 10:00-20:00",
                },
            )
        )
        writer.add_node(osmium.osm.mutable.Node(id=12, location=(121.5180, 25.0470), tags={}))
        writer.add_node(osmium.osm.mutable.Node(id=13, location=(121.5190, 25.0470), tags={}))
        writer.add_node(osmium.osm.mutable.Node(id=14, location=(121.5190, 25.0480), tags={}))
        writer.add_node(osmium.osm.mutable.Node(id=15, location=(121.5120, 25.0400), tags={"amenity": "bench"}))
        writer.add_way(
            osmium.osm.mutable.Way(id=21, nodes=[12, 13, 14, 12], tags={"amenity": "ice_cream", "name": "冰店"})
        )


def test_pbf_extract(tmp_path):
    path = tmp_path / "extract.osm.pbf"
    write_pbf(path)
    shops = {s.id: s for s in parsers.read_pbf(path, CATEGORIES, CHECKED)}
    assert sorted(shops) == ["node/11", "way/21"]
    assert shops["node/11"].category == "dumplings" and shops["node/11"].lat == pytest.approx(25.046)
    # the way's position is the mean of its three distinct nodes
    assert (
        shops["way/21"].lat == pytest.approx((25.0470 + 25.0470 + 25.0480) / 3)
        and shops["way/21"].category == "dessert"
    )


def test_import_replaces_the_sample_shops_and_a_reseed_keeps_them(db_url, tmp_path):
    try:
        assert ingest(import_overpass, FIXTURES / "overpass.json") == 4
        cat = catalogue()
        assert sorted(s.id for s in cat.shops) == ["node/1001", "node/1002", "node/1003", "way/2001"] and not cat.sample
        with store_engine.session() as s, s.begin():  # a re-seed does not bring the sample shops back
            seed_food(s, DEFAULT_DATA)
            assert s.query(ShopRow).filter(ShopRow.sample.is_(True)).count() == 0
        path = tmp_path / "extract.osm.pbf"
        write_pbf(path)
        assert ingest(import_pbf, path) == 2
        assert sorted(s.id for s in catalogue().shops) == ["node/11", "way/21"]
        bad = tmp_path / "bad.osm.pbf"
        bad.write_bytes(b"not a pbf")
        with pytest.raises(ValueError):
            ingest(import_pbf, bad)
        empty = tmp_path / "empty.json"
        empty.write_text('{"elements": []}')
        with pytest.raises(ValueError, match="no named places"):
            ingest(import_overpass, empty)
    finally:  # back to the shipped sample shops for the other tests
        with store_engine.session() as s, s.begin():
            s.query(ShopRow).delete()
            seed_food(s, DEFAULT_DATA)
        from twlookup.platform.store.reference import Reference

        Reference.reset_all()
    assert catalogue().sample
