"""The price service's operations: thin adapters from parameters to logic and results."""

from __future__ import annotations

from datetime import date

from twlookup.platform.errors import NotFound
from twlookup.platform.schemas import Source
from twlookup.platform.service import Service
from twlookup.services.price import logic, markdown
from twlookup.services.price.data import CATALOG, history, import_daily, seed_price
from twlookup.services.price.schemas import (
    DEFINITIONS,
    Categories,
    CategoryOut,
    CategoryPage,
    CategoryQuery,
    Deals,
    DealsQuery,
    DropOut,
    Export,
    ExportItem,
    ExportQuery,
    History,
    HistoryDay,
    MarketPrice,
    ProductBrief,
    ProductDetail,
    ProductQuery,
    SearchQuery,
    SearchResult,
    SummaryOut,
)

SERVICE = Service(
    name="price",
    title="NT$ wholesale prices of vegetables and fruits, updated daily",
    description=(
        "Daily wholesale market prices of vegetables and fruits in Taiwan, in NT$ per kg, from the "
        "Ministry of Agriculture's 農產品交易行情 feed: categories, search, each product's current lowest "
        "price with a 90-day summary, and today's price drops. Every page is also Markdown at <path>.md."
    ),
    network="testnet",
)
SERVICE.seeder(seed_price)
SERVICE.importer("daily")(import_daily)


def _source(p: logic.Product) -> Source:
    return Source(url=p.source, title=p.source_title, checked=p.checked, licence=p.licence, sample=p.sample)


def _category_out(catalog: logic.Catalog, c: logic.Category) -> CategoryOut:
    return CategoryOut(
        slug=c.slug, code=c.code, name_zh=c.name_zh, name_en=c.name_en,
        product_count=len(catalog.in_category(c.slug)),
        source=Source(url=c.source, title=c.source_title, checked=c.checked, licence=c.licence),
    )  # fmt: skip


def _market(o: logic.Observation) -> MarketPrice:
    return MarketPrice(
        market_code=o.market_code, market=o.market_name, date=o.day,
        upper=o.upper, middle=o.middle, lower=o.lower, average=o.average, volume=o.volume,
    )  # fmt: skip


def _brief(catalog: logic.Catalog, p: logic.Product) -> ProductBrief:
    series = catalog.series.get(p.id)
    last = series[-1] if series else None
    return ProductBrief(
        id=p.id, name=p.name, category=p.category,
        price=logic.money(last.price) if last else None,
        price_date=last.day if last else None,
        market=last.market_name if last else None,
        sample=p.sample or bool(last and last.sample),
        source=_source(p),
    )  # fmt: skip


def _summary(s: logic.Summary | None) -> SummaryOut | None:
    if s is None:
        return None
    return SummaryOut(
        start=s.start, end=s.end, days_observed=s.days_observed, min=s.min, max=s.max, mean=s.mean,
        low_date=s.low_date, current=s.current, current_date=s.current_date,
        above_low=s.above_low, above_low_percent=s.above_low_percent,
    )  # fmt: skip


def _product(catalog: logic.Catalog, ident: str) -> logic.Product:
    product = catalog.products.get(ident.upper())
    if product is None:
        raise NotFound("product", ident, "Find crop codes with /api/search?q=... or /api/category/{slug}.")
    return product


@SERVICE.operation("GET", "/api/categories", tool="list_categories", markdown=markdown.categories)
def categories() -> Categories:
    """Categories (vegetables, fruits) with the number of products in each."""
    catalog = CATALOG.get()
    out = [_category_out(catalog, c) for c in catalog.categories.values()]
    return Categories(
        as_of=catalog.as_of, count=len(out), categories=out, sample=any(p.sample for p in catalog.products.values())
    )


@SERVICE.operation("GET", "/api/search", tool="search_products", markdown=markdown.search)
def search(p: SearchQuery) -> SearchResult:
    """Products whose crop name or code contains q (at most 50 listed), with their current lowest price."""
    catalog = CATALOG.get()
    hits = catalog.search(p.q, p.cat)
    listed = [_brief(catalog, h) for h in hits[: logic.SEARCH_LIMIT]]
    return SearchResult(
        as_of=catalog.as_of, q=p.q, cat=p.cat, count=len(hits), limit=logic.SEARCH_LIMIT,
        truncated=len(hits) > logic.SEARCH_LIMIT, products=listed, sample=any(b.sample for b in listed),
    )  # fmt: skip


@SERVICE.operation("GET", "/api/product/{id}", tool="get_product_price", markdown=markdown.product)
def product(p: ProductQuery) -> ProductDetail:
    """A product's current lowest price, each market's latest prices, and its 90-day summary
    (min, max, mean, date of the low, distance from the low)."""
    catalog = CATALOG.get()
    item = _product(catalog, p.id)
    brief = _brief(catalog, item)
    summary = catalog.summary(item.id)
    markets = catalog.latest_markets(item.id)
    return ProductDetail(
        as_of=catalog.as_of, product=brief, markets=[_market(o) for o in markets], summary=_summary(summary),
        definitions=DEFINITIONS,
        sample=brief.sample or bool(summary and summary.sample) or any(o.sample for o in markets),
    )  # fmt: skip


@SERVICE.operation("GET", "/api/category/{slug}", markdown=markdown.category)
def category(p: CategoryQuery) -> CategoryPage:
    """Current lowest prices of all products in a category."""
    catalog = CATALOG.get()
    briefs = [_brief(catalog, item) for item in catalog.in_category(p.slug)]
    return CategoryPage(
        as_of=catalog.as_of, category=_category_out(catalog, catalog.categories[p.slug]), products=briefs,
        sample=any(b.sample for b in briefs),
    )  # fmt: skip


@SERVICE.operation("GET", "/api/deals", tool="list_price_drops", markdown=markdown.deals)
def deals(p: DealsQuery) -> Deals:
    """Today's price drops (on the latest trading day), largest percentage first; cat narrows to a category."""
    catalog = CATALOG.get()
    drops = []
    for d in catalog.drops(p.cat):
        item = catalog.products[d.product_id]
        drops.append(
            DropOut(
                id=item.id, name=item.name, category=item.category, date=d.day, price=d.price, market=d.market_name,
                previous_date=d.previous_day, previous_price=d.previous_price, drop_amount=d.amount,
                drop_percent=d.percent, sample=d.sample, source=_source(item),
            )  # fmt: skip
        )
    return Deals(
        as_of=catalog.as_of, cat=p.cat, count=len(drops), drops=drops, definition=DEFINITIONS["drop"],
        # also when nothing dropped: "no drop" is read off the products that traded on as_of and their previous day
        sample=any(d.sample for d in drops) or catalog.compared_sample(p.cat),
    )  # fmt: skip


@SERVICE.operation("GET", "/api/pro/history/{id}", price="$0.01")
def pro_history(p: ProductQuery) -> History:
    """The product's full daily price history: every stored trading day with each market's prices."""
    catalog = CATALOG.get()
    item = _product(catalog, p.id)
    rows = history(item.id)
    by_day: dict[date, list[logic.Observation]] = {}
    for o in rows:
        by_day.setdefault(o.day, []).append(o)
    days = []
    for d in logic.daily_prices(rows):
        markets = sorted(by_day[d.day], key=lambda o: (o.average, o.market_code))
        days.append(HistoryDay(date=d.day, price=logic.money(d.price), market=d.market_name, markets=[_market(o) for o in markets]))
    brief = _brief(catalog, item)
    return History(product=brief, count=len(days), days=days, sample=brief.sample or any(o.sample for o in rows))


@SERVICE.operation("GET", "/api/pro/export/{slug}", price="$0.05")
def pro_export(p: ExportQuery) -> Export:
    """The whole category: every product's current prices per market and its 90-day statistics."""
    catalog = CATALOG.get()
    items = []
    for item in catalog.in_category(p.slug):
        items.append(
            ExportItem(
                product=_brief(catalog, item),
                summary=_summary(catalog.summary(item.id)),
                markets=[_market(o) for o in catalog.latest_markets(item.id)],
            )
        )
    return Export(
        as_of=catalog.as_of, category=_category_out(catalog, catalog.categories[p.slug]), count=len(items),
        products=items, definitions=DEFINITIONS, sample=any(i.product.sample for i in items),
    )  # fmt: skip


def llms_txt() -> str:
    """/llms.txt: the service and all its categories, as plain text."""
    catalog = CATALOG.get()
    return markdown.llms_txt(categories(), catalog.as_of)


SERVICE.text_route("/llms.txt", llms_txt)
