"""Store tables of the price service, derived from its records: categories, products and daily
price observations (each observation row keeps the provenance of the download it came from)."""

from __future__ import annotations

from sqlalchemy import Integer
from sqlalchemy.orm import mapped_column

from twlookup.platform.store.record_tables import record_table
from twlookup.services.price.records import Category, Observation, Product

CategoryRow = record_table(
    Category, "price_category", key="slug", unique=("code",), extra={"position": mapped_column(Integer, nullable=False)}
)
ProductRow = record_table(Product, "price_product", index=("category",))
ObservationRow = record_table(
    Observation, "price_observation", key=("product_id", "market_code", "day"), index=("day",), provenance=True
)
