"""Parameters and results of the price service's operations. Prices are NT$ per kg."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import NON_BLANK, LazyModel, Source
from twlookup.services.price.records import Category, Observation, Product
from twlookup.services.price.records import SummaryFigures as SummaryOut

CategorySlug = Literal["vegetables", "fruits"]
CATEGORY_SLUGS = ("vegetables", "fruits")
ProductId = Field(
    pattern=r"^[A-Za-z0-9]{1,20}$",
    description="Crop code (作物代號) of the feed, e.g. LA1 (甘藍-初秋); case-insensitive",
)

DEFINITIONS = {
    "price": "A product's price on a trading day is the lowest average price (平均價, NT$/kg) among the markets that traded it that day.",
    "as_of": "The latest trading day in the store.",
    "window": "The summary covers the 90 calendar days ending on as_of (both ends included), over the days the product traded.",
    "min_max_mean": "Lowest, highest and arithmetic mean of the daily prices in the window.",
    "low_date": "The most recent day whose price equals the minimum.",
    "current": "The price on the product's latest trading day in the window.",
    "above_low": "Distance from the low: current minus min in NT$; above_low_percent is that distance as a percentage of min.",
    "drop": "A drop: the product traded on as_of at a price below its previous trading day's price in the window; amount = previous - current, percent = amount / previous x 100.",
}


class CategoryOut(RecordAnswer, record=Category):
    product_count: int
    sample: bool = Field(
        description="True when the prices of any product counted (in the 90-day window) are sample data, "
        "not published prices"
    )
    sample_products: int = Field(description="How many of the products counted have sample prices")
    prices_sources: list[Source] = Field(
        description="Where the prices of the products counted come from; a sample source says sample: true"
    )
    source: Source = Field(description="The category itself (the feed's product kind)")


class Categories(LazyModel):
    as_of: dt.date | None = Field(description="Latest trading day in the store")
    currency: Literal["TWD"] = "TWD"
    unit: Literal["kg"] = "kg"
    count: int
    categories: list[CategoryOut]
    sample: bool = Field(
        description="True when the prices of any product counted are sample data, not published prices"
    )


class ProductBrief(RecordAnswer, record=Product):
    price: float | None = Field(description="Current lowest average price, NT$/kg (None: no trade in the last 90 days)")
    price_date: dt.date | None = Field(description="Trading day of that price")
    market: str | None = Field(description="Market where that lowest price was recorded")
    sample: bool


class MarketPrice(RecordAnswer, record=Observation, exclude=("product_id", "market_name", "day", "sample")):
    market: str
    date: dt.date


class SearchQuery(Params):
    q: str = Field(
        min_length=1,
        max_length=50,
        pattern=NON_BLANK,  # not `\S`, which ECMAScript and Rust read differently (platform/schemas.py)
        description="Text in the crop name or code, e.g. 甘藍 or LA",
    )
    cat: CategorySlug | None = Field(None, description="Only products of this category")


class SearchResult(LazyModel):
    as_of: dt.date | None
    q: str
    cat: str | None
    count: int = Field(description="Products that match")
    limit: int = Field(description="At most this many are listed")
    truncated: bool
    products: list[ProductBrief]
    sample: bool


class ProductQuery(Params):
    id: str = ProductId


class ProductDetail(LazyModel):
    as_of: dt.date | None
    currency: Literal["TWD"] = "TWD"
    unit: Literal["kg"] = "kg"
    product: ProductBrief
    markets: list[MarketPrice] = Field(
        description="Each market's prices on the product's latest trading day, cheapest first"
    )
    summary: SummaryOut | None = Field(description="90-day summary; None when the product did not trade in the window")
    definitions: dict[str, str]
    sample: bool


class CategoryQuery(Params):
    slug: CategorySlug = Field(description="Category slug")


class CategoryPage(LazyModel):
    as_of: dt.date | None
    currency: Literal["TWD"] = "TWD"
    unit: Literal["kg"] = "kg"
    category: CategoryOut
    products: list[ProductBrief]
    sample: bool


class DealsQuery(Params):
    cat: CategorySlug | None = Field(None, description="Only drops in this category")


class DropOut(RecordAnswer, record=Product):
    date: dt.date
    price: float
    market: str
    previous_date: dt.date
    previous_price: float
    drop_amount: float = Field(description="previous_price - price, NT$/kg")
    drop_percent: float = Field(description="drop_amount / previous_price x 100")
    sample: bool


class Deals(LazyModel):
    as_of: dt.date | None = Field(description="The trading day whose drops are listed")
    cat: str | None
    currency: Literal["TWD"] = "TWD"
    unit: Literal["kg"] = "kg"
    count: int
    drops: list[DropOut] = Field(description="Largest percentage drop first")
    definition: str
    sample: bool


class HistoryDay(LazyModel):
    date: dt.date
    price: float = Field(description="Lowest average price among the markets that day")
    market: str
    markets: list[MarketPrice]


class History(LazyModel):
    currency: Literal["TWD"] = "TWD"
    unit: Literal["kg"] = "kg"
    product: ProductBrief
    count: int
    days: list[HistoryDay] = Field(description="Every stored trading day, oldest first")
    sample: bool


class ExportQuery(Params):
    slug: CategorySlug = Field(description="Category slug")


class ExportItem(LazyModel):
    product: ProductBrief
    summary: SummaryOut | None
    markets: list[MarketPrice]


class Export(LazyModel):
    as_of: dt.date | None
    currency: Literal["TWD"] = "TWD"
    unit: Literal["kg"] = "kg"
    category: CategoryOut
    count: int
    products: list[ExportItem]
    definitions: dict[str, str]
    sample: bool
