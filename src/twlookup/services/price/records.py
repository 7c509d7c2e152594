"""The price service's records: a category (data/price/categories.yaml), a product and one
product's prices at one market on one trading day (the feed, or the shipped sample). Each is
declared once here; the store's tables mirror them and answers are built from them."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from twlookup.platform.records import Record, SourcedRecord


class CategoryFacts(Record):
    slug: str
    code: str = Field(description="種類代碼 of the feed")
    name_zh: str
    name_en: str


class Category(CategoryFacts, SourcedRecord):
    """A product kind of the feed (種類代碼), e.g. vegetables N04."""


class ProductFacts(Record):
    id: str = Field(description="Crop code (作物代號)")
    name: str = Field(description="Crop name as the feed writes it (作物名稱)")
    category: str


class Product(ProductFacts, SourcedRecord):
    """A crop as the feed names it."""


class Prices(Record):
    """A market's prices of one product on one trading day, NT$/kg, and the volume traded."""

    upper: float = Field(description="上價, NT$/kg")
    middle: float = Field(description="中價, NT$/kg")
    lower: float = Field(description="下價, NT$/kg")
    average: float = Field(description="平均價, NT$/kg")
    volume: float = Field(description="交易量, kg")


class Trade(Prices):
    product_id: str
    market_code: str
    market_name: str
    day: date


class Observation(Trade):
    """One product's prices at one market on one trading day, as the store holds it."""

    sample: bool = False
