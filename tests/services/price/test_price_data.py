"""The shipped price data: categories match the service's slugs, the sample file is in the feed's
format and marked sample everywhere it lands, and every seeded record carries provenance."""

from __future__ import annotations

from sqlalchemy import text

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.seed import load_yaml
from twlookup.services.price.parsers import parse_feed
from twlookup.services.price.schemas import CATEGORY_SLUGS

FOLDER = DEFAULT_DATA / "price"


def test_categories_are_the_feed_kinds():
    doc = load_yaml(FOLDER / "categories.yaml")
    assert tuple(c["slug"] for c in doc["categories"]) == CATEGORY_SLUGS
    assert {c["code"] for c in doc["categories"]} == {"N04", "N05"}
    assert doc["source"].startswith("https://data.gov.tw/") and doc["licence"] and doc["checked"]


def test_sample_file_parses_and_is_described():
    sample = load_yaml(FOLDER / "sample.yaml")
    rows = parse_feed((FOLDER / sample["file"]).read_bytes())
    assert len({r.product_id for r in rows}) == 12 and {r.type_code for r in rows} == {"N04", "N05"}
    assert all(r.day.weekday() != 0 for r in rows)  # no trading on Mondays in the sample
    assert "not published" in sample["source_title"]


def test_seeded_price_rows_carry_provenance_and_the_sample_flag(db_url):
    engine = store_engine.configure(db_url)
    with engine.connect() as conn:
        for table in ("price_category", "price_product", "price_observation"):
            missing = conn.execute(
                text(f"select count(*) from {table} where source is null or source = '' or checked is null")
            ).scalar()
            assert missing == 0, table
        for table in ("price_product", "price_observation"):
            assert conn.execute(text(f"select count(*) from {table} where sample = false")).scalar() == 0, table
