"""The price service's records: a category (data/price/categories.yaml), a product and one
product's prices at one market on one trading day (the feed, or the shipped sample). Each is
declared once here; the store's tables are derived from them and answers are built from them."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from twlookup.platform.records import Record, SourcedRecord


class Category(SourcedRecord):
    """A product kind of the feed (種類代碼), e.g. vegetables N04."""

    slug: str = Field(max_length=30)
    code: str = Field(max_length=10, description="種類代碼 of the feed")
    name_zh: str = Field(max_length=50)
    name_en: str = Field(max_length=50)


class Product(SourcedRecord):
    """A crop as the feed names it."""

    id: str = Field(max_length=20, description="Crop code (作物代號)")
    name: str = Field(max_length=100, description="Crop name as the feed writes it (作物名稱)")
    category: str = Field(max_length=30)


class Prices(Record):
    """A market's prices of one product on one trading day, NT$/kg, and the volume traded."""

    upper: float = Field(description="上價, NT$/kg")
    middle: float = Field(description="中價, NT$/kg")
    lower: float = Field(description="下價, NT$/kg")
    average: float = Field(description="平均價, NT$/kg")
    volume: float = Field(description="交易量, kg")


class Trade(Prices):
    product_id: str = Field(max_length=20)
    market_code: str = Field(max_length=10)
    market_name: str = Field(max_length=50)
    day: date


class Observation(Trade):
    """One product's prices at one market on one trading day, as the logic reads it (the store's row
    also keeps the download it came from: tables.ObservationRow)."""

    sample: bool = False


# One product's prices over a range of days, as answers give them (computed in logic, not stored; no
# docstring: it would become the answer schema's description).
class SummaryFigures(Record):
    start: date
    end: date
    days_observed: int
    min: float
    max: float
    mean: float
    low_date: date
    current: float
    current_date: date
    above_low: float = Field(description="current - min, NT$/kg")
    above_low_percent: float = Field(description="(current - min) / min x 100")
