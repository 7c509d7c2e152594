"""The price service's pages as Markdown (served at `<path>.md`) and /llms.txt as plain text.

Links are relative, so they work under /price/ and at the root of a service host alike.
"""

from __future__ import annotations

from datetime import date

from twlookup.services.price.schemas import (
    DEFINITIONS,
    Categories,
    CategoryPage,
    Deals,
    ProductBrief,
    ProductDetail,
    SearchResult,
)

SAMPLE_NOTE = "> **Sample data**: these numbers are an illustrative snapshot, not published prices.\n"
FEED_NOTE = (
    "Prices are NT$ per kg at Taiwan's wholesale fruit and vegetable markets, from the Ministry of "
    "Agriculture's daily feed 農產品交易行情 (Open Government Data License, version 1.0)."
)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _money(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _head(title: str, as_of: date | None, sample: bool) -> list[str]:
    lines = [f"# {title}", ""]
    if sample:
        lines += [SAMPLE_NOTE]
    lines += [f"Latest trading day: {as_of or 'none yet'}. {FEED_NOTE}", ""]
    return lines


def _products_table(products: list[ProductBrief], link_prefix: str) -> list[str]:
    if not products:
        return ["No products.", ""]
    lines = ["| Code | Product | Lowest NT$/kg | Date | Market |", "|---|---|---|---|---|"]
    for p in products:
        lines.append(
            f"| [{_cell(p.id)}]({link_prefix}{p.id}.md) | {_cell(p.name)} | {_money(p.price)} | {p.price_date or '-'} | {_cell(p.market or '-')} |"
        )
    return lines + [""]


def categories(result: Categories) -> str:
    lines = _head("Price categories", result.as_of, result.sample)
    lines += ["| Category | 名稱 | Feed code | Products | With sample prices |", "|---|---|---|---|---|"]
    for c in result.categories:
        lines.append(
            f"| [{c.name_en}](category/{c.slug}.md) | {c.name_zh} | {c.code} | {c.product_count} | {c.sample_products} |"
        )
    return "\n".join(lines) + "\n"


def search(result: SearchResult) -> str:
    scope = f" in {result.cat}" if result.cat else ""
    lines = _head(f"Products matching “{result.q}”{scope}", result.as_of, result.sample)
    shown = f"{len(result.products)} of {result.count}" if result.truncated else str(result.count)
    lines += [f"{shown} products (at most {result.limit} are listed).", ""]
    lines += _products_table(result.products, "product/")
    return "\n".join(lines)


def product(result: ProductDetail) -> str:
    p = result.product
    lines = _head(f"{p.name} ({p.id})", result.as_of, result.sample)
    lines += [f"Category: [{p.category}](../category/{p.category}.md)", ""]
    if p.price is None:
        lines += ["No trade in the last 90 days.", ""]
    else:
        lines += [f"**Current lowest price: NT$ {_money(p.price)}/kg** at {p.market} on {p.price_date}.", ""]
    if result.markets:
        lines += ["## Markets on the latest trading day", ""]
        lines += ["| Market | Upper | Middle | Lower | Average | Volume (kg) |", "|---|---|---|---|---|---|"]
        for m in result.markets:
            lines.append(
                f"| {_cell(m.market)} | {_money(m.upper)} | {_money(m.middle)} | {_money(m.lower)} | {_money(m.average)} | {m.volume:g} |"
            )
        lines.append("")
    s = result.summary
    if s is not None:
        lines += [f"## 90-day summary ({s.start} to {s.end}, {s.days_observed} trading days)", ""]
        lines += [
            f"- Min: NT$ {_money(s.min)} (last on {s.low_date})",
            f"- Max: NT$ {_money(s.max)}",
            f"- Mean: NT$ {_money(s.mean)}",
            f"- Current: NT$ {_money(s.current)} on {s.current_date}",
            f"- Distance from the low: NT$ {_money(s.above_low)} ({s.above_low_percent:.2f}% above the min)",
            "",
        ]
    lines += ["## Definitions", ""] + [f"- **{name}**: {text}" for name, text in result.definitions.items()]
    return "\n".join(lines) + "\n"


def category(result: CategoryPage) -> str:
    c = result.category
    lines = _head(f"{c.name_en} ({c.name_zh})", result.as_of, result.sample)
    lines += [f"{c.product_count} products. {DEFINITIONS['price']}", ""]
    lines += _products_table(result.products, "../product/")
    return "\n".join(lines)


def deals(result: Deals) -> str:
    scope = f" in {result.cat}" if result.cat else ""
    lines = _head(f"Price drops{scope} on {result.as_of or 'no trading day yet'}", result.as_of, result.sample)
    lines += [result.definition, ""]
    if not result.drops:
        return "\n".join(lines + ["No drops on this day.", ""])
    lines += ["| Product | Now NT$/kg | Before | Drop | Market |", "|---|---|---|---|---|"]
    for d in result.drops:
        lines.append(
            f"| [{_cell(d.name)} ({d.id})](product/{d.id}.md) | {_money(d.price)} | {_money(d.previous_price)} on {d.previous_date} "
            f"| -{_money(d.drop_amount)} (-{d.drop_percent:.2f}%) | {_cell(d.market)} |"
        )
    return "\n".join(lines) + "\n"


def llms_txt(result: Categories, as_of: date | None, base: str) -> str:
    """llms.txt (llmstxt.org): an H1, a summary, and sections of links, each link absolute."""
    lines = [
        "# twlookup price",
        "",
        "Daily wholesale prices of vegetables and fruits in Taiwan, NT$ per kg.",
        FEED_NOTE,
    ]
    if result.sample:
        lines.append("Sample data: the shipped history is an illustrative snapshot, not published prices.")
    lines += [f"Latest trading day: {as_of or 'none yet'}.", "", "## Categories", ""]
    for c in result.categories:
        lines.append(
            f"- {c.name_en} ({c.name_zh}, feed code {c.code}): {c.product_count} products"
            + (f", {c.sample_products} with sample prices" if c.sample else "")
            + f": {base}/api/category/{c.slug}.md"
        )
    lines += [
        "",
        "## Pages",
        "",
        "Every page is JSON at its path and Markdown at the same path + .md:",
        f"- {base}/api/categories.md",
        f"- {base}/api/search.md?q=TEXT&cat=CATEGORY",
        f"- {base}/api/product/CODE.md",
        f"- {base}/api/category/SLUG.md",
        f"- {base}/api/deals.md?cat=CATEGORY",
        f"MCP: POST {base}/mcp (tools search_products, get_product_price, list_price_drops, list_categories).",
        "",
    ]
    return "\n".join(lines)
