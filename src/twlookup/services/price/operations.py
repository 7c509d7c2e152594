"""The price service's operations: thin adapters from parameters to logic and results."""

from __future__ import annotations

from datetime import date

from twlookup.platform.errors import NotFound
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import Source
from twlookup.platform.service import Service
from twlookup.services.price import logic
from twlookup.services.price.data import CATALOG, history
from twlookup.services.price.feeds import DAILY
from twlookup.services.price.logic import markdown
from twlookup.services.price.records import Category, Observation, Product
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
from twlookup.services.price.tables import ObservationRow

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
SERVICE.feed(DAILY)  # the Ministry of Agriculture's FarmTransData (twlookup refresh price.daily)
add_status_route(SERVICE)


def _category_out(catalog: logic.Catalog, c: Category) -> CategoryOut:
    products = catalog.in_category(c.slug)
    sample = [p for p in products if catalog.is_sample(p)]
    sources: dict[tuple[str, bool], Source] = {}
    for p in products:  # a product's prices come from its record's source (the feed, or the sample)
        ref = p.source_ref.model_copy(update={"sample": catalog.is_sample(p)})
        sources.setdefault((ref.url, ref.sample), ref)
    return as_answer(
        c,
        CategoryOut,
        product_count=len(products),
        sample=bool(sample),
        sample_products=len(sample),
        prices_sources=list(sources.values()),
    )


def _market(o: Observation) -> MarketPrice:
    return as_answer(o, MarketPrice, market=o.market_name, date=o.day)


def _brief(catalog: logic.Catalog, p: Product) -> ProductBrief:
    series = catalog.series.get(p.id)
    last = series[-1] if series else None
    return as_answer(
        p,
        ProductBrief,
        price=logic.money(last.price) if last else None,
        price_date=last.day if last else None,
        market=last.market_name if last else None,
        sample=p.sample or bool(last and last.sample),
    )


def _summary(s: logic.Summary | None) -> SummaryOut | None:
    if s is None:
        return None
    return SummaryOut(**s.model_dump(exclude={"sample"}))


def _product(catalog: logic.Catalog, ident: str) -> Product:
    product = catalog.products.get(ident.upper())
    if product is None:
        raise NotFound("product", ident, "Find crop codes with /api/search?q=... or /api/category/{slug}.")
    return product


@SERVICE.operation("GET", "/api/categories", tool="list_categories", markdown=markdown.categories)
def categories() -> Categories:
    """Categories (vegetables, fruits) with the number of products in each."""
    catalog = CATALOG.get()
    out = [_category_out(catalog, c) for c in catalog.categories.values()]
    return Categories(as_of=catalog.as_of, count=len(out), categories=out, sample=any(c.sample for c in out))


@SERVICE.operation("GET", "/api/search", tool="search_products", markdown=markdown.search)
def search(p: SearchQuery) -> SearchResult:
    """Products whose crop name or code contains q (at most 50 listed), with their current lowest price."""
    catalog = CATALOG.get()
    hits = catalog.search(p.q, p.cat)
    listed = [_brief(catalog, h) for h in hits[: logic.SEARCH_LIMIT]]
    return SearchResult(
        as_of=catalog.as_of,
        q=p.q,
        cat=p.cat,
        count=len(hits),
        limit=logic.SEARCH_LIMIT,
        truncated=len(hits) > logic.SEARCH_LIMIT,
        products=listed,
        sample=any(b.sample for b in listed),
    )


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
        as_of=catalog.as_of,
        product=brief,
        markets=[_market(o) for o in markets],
        summary=_summary(summary),
        definitions=DEFINITIONS,
        sample=brief.sample or bool(summary and summary.sample) or any(o.sample for o in markets),
    )


@SERVICE.operation("GET", "/api/category/{slug}", markdown=markdown.category)
def category(p: CategoryQuery) -> CategoryPage:
    """Current lowest prices of all products in a category."""
    catalog = CATALOG.get()
    briefs = [_brief(catalog, item) for item in catalog.in_category(p.slug)]
    return CategoryPage(
        as_of=catalog.as_of,
        category=_category_out(catalog, catalog.categories[p.slug]),
        products=briefs,
        sample=any(b.sample for b in briefs),
    )


@SERVICE.operation("GET", "/api/deals", tool="list_price_drops", markdown=markdown.deals)
def deals(p: DealsQuery) -> Deals:
    """Today's price drops (on the latest trading day), largest percentage first; cat narrows to a category."""
    catalog = CATALOG.get()
    drops = []
    for d in catalog.drops(p.cat):
        item = catalog.products[d.product_id]
        drops.append(
            as_answer(
                item,
                DropOut,
                date=d.day,
                price=d.price,
                market=d.market_name,
                previous_date=d.previous_day,
                previous_price=d.previous_price,
                drop_amount=d.amount,
                drop_percent=d.percent,
                sample=d.sample,
            )
        )
    return Deals(
        as_of=catalog.as_of,
        cat=p.cat,
        count=len(drops),
        drops=drops,
        definition=DEFINITIONS["drop"],
        # also when nothing dropped: "no drop" is read off the products that traded on as_of and their previous day
        sample=any(d.sample for d in drops) or catalog.compared_sample(p.cat),
    )


def _known_product(p: ProductQuery) -> None:
    _product(CATALOG.get(), p.id)  # an unknown crop code is a 404 before payment is asked for


@SERVICE.operation(
    "GET",
    "/api/pro/history/{id}",
    price="$0.01",
    check=_known_product,
    example={"id": "LA1"},
    blocking=True,
    rests_on=(DAILY, ObservationRow),  # not sold on the shipped sample or on a feed gone stale
)
def pro_history(p: ProductQuery) -> History:
    """The product's full daily price history: every stored trading day with each market's prices."""
    catalog = CATALOG.get()
    item = _product(catalog, p.id)
    rows = history(item.id)
    by_day: dict[date, list[Observation]] = {}
    for o in rows:
        by_day.setdefault(o.day, []).append(o)
    days = []
    for d in logic.daily_prices(rows):
        markets = sorted(by_day[d.day], key=lambda o: (o.average, o.market_code))
        days.append(
            HistoryDay(
                date=d.day, price=logic.money(d.price), market=d.market_name, markets=[_market(o) for o in markets]
            )
        )
    brief = _brief(catalog, item)
    return History(product=brief, count=len(days), days=days, sample=brief.sample or any(o.sample for o in rows))


@SERVICE.operation(
    "GET", "/api/pro/export/{slug}", price="$0.05", example={"slug": "vegetables"}, rests_on=(DAILY, ObservationRow)
)
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
        as_of=catalog.as_of,
        category=_category_out(catalog, catalog.categories[p.slug]),
        count=len(items),
        products=items,
        definitions=DEFINITIONS,
        sample=any(i.product.sample for i in items),
    )


def llms_txt(base: str) -> str:
    """/llms.txt: the service and all its categories, as plain text, linked from `base` (the
    service's absolute URL as the client reaches it)."""
    catalog = CATALOG.get()
    return markdown.llms_txt(categories(), catalog.as_of, base)


SERVICE.text_route("/llms.txt", llms_txt)
