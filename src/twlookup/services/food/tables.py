"""The food service's tables, each derived from its record in records.py (`record_table`)."""

from __future__ import annotations

from sqlalchemy import Integer, String
from sqlalchemy.orm import mapped_column

from twlookup.platform.store.record_tables import record_table
from twlookup.services.food.records import Category, Deity, Poem, Shop, Sponsor

# The three tables seeded in the data file's order keep it in `position`.
DeityRow = record_table(
    Deity,
    "food_deity",
    extra={"position": mapped_column(Integer, nullable=False)},
    override={"custom_source_kind": mapped_column(String(20), nullable=True)},  # stored wider than its values
)
CategoryRow = record_table(Category, "food_category", extra={"position": mapped_column(Integer, nullable=False)})
PoemRow = record_table(
    Poem,
    "food_poem",
    key="number",
    override={"ganzhi": mapped_column(String(4), nullable=False)},  # stored wider than two characters
)
ShopRow = record_table(Shop, "food_shop", index=("lat", "category"))
SponsorRow = record_table(Sponsor, "food_sponsor", extra={"position": mapped_column(Integer, nullable=False)})
