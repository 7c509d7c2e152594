"""The price service through HTTP and MCP on the shipped sample history: every endpoint, its
Markdown page, /llms.txt, the limits, every error path, no CORS, and sample flags everywhere."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta

import httpx
import pytest
from conftest import assert_problem
from mcp import Client

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.schemas import NON_BLANK
from twlookup.services.price.logic import markdown
from twlookup.services.price.records import Observation, Product

pytestmark = pytest.mark.asyncio

BASE = "/price/api"
SAMPLE = json.loads((DEFAULT_DATA / "price" / "sample_observations.json").read_text(encoding="utf-8"))
AS_OF = date(2026, 11, 21)  # the sample's last trading day


def roc(text: str) -> date:
    y, m, d = (int(x) for x in text.split("."))
    return date(y + 1911, m, d)


def expected_series(code: str) -> dict[date, tuple[float, str]]:
    """Straight from the sample file: per day, the lowest 平均價 (ties: lower market code) and its market."""
    per_day: dict[date, list[tuple[float, str, str]]] = {}
    for r in SAMPLE:
        if r["作物代號"] == code:
            per_day.setdefault(roc(r["交易日期"]), []).append((r["平均價"], r["市場代號"], r["市場名稱"]))
    return {d: (min(v)[0], min(v)[2]) for d, v in sorted(per_day.items())}


def assert_sample_source(source: dict) -> None:
    assert (
        source["sample"] is True
        and source["url"].startswith("https://data.moa.gov.tw/")
        and source["checked"] == "2026-11-22"
    )


async def test_categories(client):
    r = await client.get(f"{BASE}/categories")
    body = r.json()
    assert r.status_code == 200 and body["as_of"] == "2026-11-21" and body["currency"] == "TWD" and body["unit"] == "kg"
    counts = {c["slug"]: (c["code"], c["product_count"]) for c in body["categories"]}
    codes = {r["種類代碼"]: set() for r in SAMPLE}
    for rec in SAMPLE:
        codes[rec["種類代碼"]].add(rec["作物代號"])
    assert (
        counts
        == {"vegetables": ("N04", len(codes["N04"])), "fruits": ("N05", len(codes["N05"]))}
        == {"vegetables": ("N04", 7), "fruits": ("N05", 5)}
    )
    assert body["sample"] is True
    for c in body["categories"]:  # every shipped price is sample: each count says so, and where they come from
        assert c["sample"] is True and c["sample_products"] == c["product_count"]
        assert [(s["url"], s["sample"]) for s in c["prices_sources"]] == [
            ("https://data.moa.gov.tw/Service/OpenData/FromM/FarmTransData.aspx", True)
        ]
        assert c["source"]["sample"] is False  # the category itself is the feed's, not a sample
    md = (await client.get(f"{BASE}/categories.md")).text
    assert "**Sample data**" in md and "| With sample prices |" in md and "| 7 | 7 |" in md
    assert body["categories"][0]["source"]["url"] == "https://data.gov.tw/dataset/8066"
    assert "Open Government Data License" in body["categories"][0]["source"]["licence"]


async def test_search(client):
    body = (await client.get(f"{BASE}/search", params={"q": "甘藍"})).json()
    assert [p["id"] for p in body["products"]] == ["LA1", "LA2"] and body["count"] == 2 and body["truncated"] is False
    assert body["limit"] == 50 and body["sample"] is True
    la1 = body["products"][0]
    price, market = list(expected_series("LA1").values())[-1]
    assert (la1["price"], la1["market"], la1["price_date"]) == (price, market, "2026-11-21")
    assert_sample_source(la1["source"])
    fruits = (await client.get(f"{BASE}/search", params={"q": "-", "cat": "fruits"})).json()
    assert {p["category"] for p in fruits["products"]} == {"fruits"} and fruits["count"] == 4  # names with a variety
    by_code = (await client.get(f"{BASE}/search", params={"q": "fd1"})).json()
    assert [p["name"] for p in by_code["products"]] == ["花胡瓜"]
    none = (await client.get(f"{BASE}/search", params={"q": "榴槤"})).json()
    assert none["count"] == 0 and none["products"] == [] and none["sample"] is False


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({}, "q"),
        ({"q": ""}, "q"),
        ({"q": "   "}, "q"),
        ({"q": "x" * 51}, "q"),
        ({"q": "a", "cat": "meat"}, "cat"),
        ({"q": "a", "limit": "5"}, "limit"),
    ],
)
async def test_search_rejects_bad_params(client, params, parameter):
    problem = assert_problem(await client.get(f"{BASE}/search", params=params), 422, parameter)
    if parameter == "cat":
        assert problem["errors"][0]["allowed"] == ["vegetables", "fruits"]


@pytest.mark.parametrize("blank", ["\x85", "\ufeff", "\u3000 \t"])
async def test_search_text_blank_by_any_reading_is_refused_as_the_schema_says(client, blank):
    """`q` is declared with the platform's spelled-out non-blank pattern, not `\\S`: ECMAScript (the
    OpenAPI clients, schemathesis) and Rust (pydantic) disagree on U+0085 and U+FEFF, so a client
    could send, as valid by the document, what the server refused (schemathesis found U+0085)."""
    spec = (await client.get("/price/openapi.json")).json()
    (q,) = [p for p in spec["paths"]["/api/search"]["get"]["parameters"] if p["name"] == "q"]
    assert q["schema"]["pattern"] == NON_BLANK
    assert re.search(NON_BLANK, blank) is None  # by the document: not valid
    assert_problem(await client.get(f"{BASE}/search", params={"q": blank}), 422, "q")


async def test_product_summary_matches_the_data(client):
    r = await client.get(f"{BASE}/product/la1")  # codes are case-insensitive
    body = r.json()
    assert r.status_code == 200 and body["as_of"] == "2026-11-21" and body["sample"] is True
    series = expected_series("LA1")
    start = AS_OF - timedelta(days=89)
    window = {d: v for d, v in series.items() if start <= d <= AS_OF}
    prices = [p for p, _ in window.values()]
    low = min(prices)
    s = body["summary"]
    assert (s["start"], s["end"], s["days_observed"]) == (start.isoformat(), "2026-11-21", len(window))
    assert (s["min"], s["max"], s["mean"]) == (low, max(prices), round(sum(prices) / len(prices), 2))
    assert s["low_date"] == max(d for d, (p, _) in window.items() if p == low).isoformat()
    assert s["current"] == prices[-1] and s["above_low"] == round(prices[-1] - low, 2)
    assert s["above_low_percent"] == round((prices[-1] - low) / low * 100, 2)
    assert len(series) > len(window)  # the sample history is longer than the window
    markets = body["markets"]
    assert [m["average"] for m in markets] == sorted(m["average"] for m in markets) and markets[0]["average"] == prices[
        -1
    ]
    assert body["product"]["price"] == prices[-1] and set(body["definitions"]) >= {
        "window",
        "low_date",
        "above_low",
        "drop",
    }


@pytest.mark.parametrize(("ident", "status"), [("NOPE1", 404), ("LA-1", 422), ("x" * 21, 422)])
async def test_product_errors(client, ident, status):
    problem = assert_problem(await client.get(f"{BASE}/product/{ident}"), status, None if status == 404 else "id")
    if status == 404:
        assert problem["id"] == ident and ident in problem["detail"]


async def test_category(client):
    body = (await client.get(f"{BASE}/category/fruits")).json()
    assert body["category"]["slug"] == "fruits" and body["category"]["product_count"] == len(body["products"]) == 5
    assert [p["id"] for p in body["products"]] == sorted(p["id"] for p in body["products"])
    assert all(p["price_date"] == "2026-11-21" and p["sample"] for p in body["products"]) and body["sample"] is True
    problem = assert_problem(await client.get(f"{BASE}/category/meat"), 422, "slug")
    assert problem["errors"][0]["allowed"] == ["vegetables", "fruits"]


async def test_deals(client):
    body = (await client.get(f"{BASE}/deals")).json()
    expected = []
    for code in sorted({r["作物代號"] for r in SAMPLE}):
        days = list(expected_series(code).items())
        (_prev_day, (prev, _)), (last_day, (now, _)) = days[-2], days[-1]
        if last_day == AS_OF and now < prev:
            expected.append((code, prev, now, round(prev - now, 2), round((prev - now) / prev * 100, 2)))
    expected.sort(key=lambda e: (-e[4], e[0]))
    got = [(d["id"], d["previous_price"], d["price"], d["drop_amount"], d["drop_percent"]) for d in body["drops"]]
    assert got == expected and body["count"] == len(expected) > 0
    assert body["as_of"] == "2026-11-21" and body["sample"] is True and "previous" in body["definition"]
    fruits = (await client.get(f"{BASE}/deals", params={"cat": "fruits"})).json()
    assert [d["id"] for d in fruits["drops"]] == [d["id"] for d in body["drops"] if d["category"] == "fruits"]
    assert_problem(await client.get(f"{BASE}/deals", params={"cat": "flowers"}), 422, "cat")


async def test_deals_without_drops_on_sample_data_still_say_sample(client, serve_reference):
    """A sample-only store where nothing dropped: the empty answer is still read off the sample history."""
    from twlookup.services.price import logic, operations

    product = Product(
        id="LA1",
        name="甘藍-初秋",
        category="vegetables",
        source="https://example.org",
        source_title=None,
        checked=AS_OF,
        licence=None,
        sample=True,
    )
    rose = [
        Observation(
            product_id="LA1",
            market_code="109",
            market_name="台北一",
            day=AS_OF - timedelta(days=1),
            upper=0,
            middle=0,
            lower=0,
            average=10.0,
            volume=1,
            sample=True,
        ),
        Observation(
            product_id="LA1",
            market_code="109",
            market_name="台北一",
            day=AS_OF,
            upper=0,
            middle=0,
            lower=0,
            average=11.0,
            volume=1,
            sample=True,
        ),
    ]
    catalog = logic.Catalog(operations.CATALOG.get().categories, {"LA1": product}, AS_OF, {"LA1": rose})
    serve_reference(operations.CATALOG, catalog)
    body = (await client.get(f"{BASE}/deals")).json()
    assert body["count"] == 0 and body["sample"] is True
    assert markdown.SAMPLE_NOTE in (await client.get(f"{BASE}/deals.md")).text
    assert (await client.get(f"{BASE}/deals", params={"cat": "fruits"})).json()["sample"] is False  # no sample fruit


async def test_markdown_pages(client):
    pages = {
        f"{BASE}/categories.md": "# Price categories",
        f"{BASE}/search.md?q=%E7%94%98%E8%97%8D": "# Products matching “甘藍”",
        f"{BASE}/product/LA1.md": "# 甘藍-初秋 (LA1)",
        f"{BASE}/category/vegetables.md": "# Vegetables (蔬菜)",
        f"{BASE}/deals.md?cat=fruits": "# Price drops in fruits on 2026-11-21",
    }
    for url, title in pages.items():
        r = await client.get(url)
        assert r.status_code == 200, url
        assert r.headers["content-type"] == "text/markdown; charset=utf-8"
        assert r.text.startswith(title + "\n") and markdown.SAMPLE_NOTE in r.text, url
    product = (await client.get(f"{BASE}/product/LA1.md")).text
    summary = (await client.get(f"{BASE}/product/LA1")).json()["summary"]
    assert f"- Min: NT$ {summary['min']:.2f} (last on {summary['low_date']})" in product
    assert "[vegetables](../category/vegetables.md)" in product
    assert "[LA1](../product/LA1.md)" in (await client.get(f"{BASE}/category/vegetables.md")).text


@pytest.mark.parametrize(
    ("url", "status"),
    [
        (f"{BASE}/product/NOPE1.md", 404),
        (f"{BASE}/product/LA-1.md", 422),
        (f"{BASE}/search.md", 422),
        (f"{BASE}/category/meat.md", 422),
        (f"{BASE}/deals.md?cat=x", 422),
        (f"{BASE}/nothing.md", 404),
    ],
)
async def test_markdown_errors_are_problems(client, url, status):
    assert_problem(await client.get(url), status)


async def test_paid_routes_have_no_markdown_page_and_ask_for_payment(for_sale):
    client = for_sale  # a store whose prices are real and fresh: the seeded sample is not sold
    r = await client.get(f"{BASE}/pro/history/LA1")
    assert r.status_code == 402 and r.json()["accepts"][0]["network"] == "eip155:84532"  # testnet, per the spec
    assert r.json()["accepts"][0]["amount"] == "10000"  # $0.01 in USDC's 6 decimals
    assert (await client.get(f"{BASE}/pro/export/fruits")).json()["accepts"][0]["amount"] == "50000"
    assert_problem(
        await client.get(f"{BASE}/pro/history/LA1.md"), 422, "id"
    )  # not a page: an invalid id, before payment
    assert_problem(await client.get(f"{BASE}/pro/export/meat"), 422, "slug")
    r = await client.get(f"{BASE}/pro/history/NOPE1")  # an unknown product is found before payment
    assert r.status_code == 404 and "NOPE1" in r.json()["detail"] and "payment-required" not in r.headers


async def test_llms_txt(client):
    r = await client.get("/price/llms.txt")
    assert r.status_code == 200 and r.headers["content-type"] == "text/plain; charset=utf-8"
    base = "http://testserver/price"  # the URL the client used (platform/public_origin.py)
    assert (
        f"- Vegetables (蔬菜, feed code N04): 7 products, 7 with sample prices: {base}/api/category/vegetables.md"
        in r.text
    )
    assert f"- Fruits (水果, feed code N05): 5 products, 5 with sample prices: {base}/api/category/fruits.md" in r.text
    assert f"MCP: POST {base}/mcp " in r.text
    assert "Sample data" in r.text and "Latest trading day: 2026-11-21." in r.text


async def test_no_cors(client):
    r = await client.get(f"{BASE}/categories", headers={"Origin": "https://example.com"})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
    pre = await client.options(
        f"{BASE}/categories", headers={"Origin": "https://example.com", "Access-Control-Request-Method": "GET"}
    )
    assert "access-control-allow-origin" not in pre.headers


async def test_openapi_lists_the_pages(client):
    doc = (await client.get("/price/openapi.json")).json()
    assert {
        "/api/product/{id}.md",
        "/api/categories.md",
        "/api/search.md",
        "/api/category/{slug}.md",
        "/api/deals.md",
        "/llms.txt",
    } <= set(doc["paths"])
    assert doc["paths"]["/api/product/{id}"]["get"]["x-mcp-tool"] == "get_product_price"
    assert doc["paths"]["/api/pro/history/{id}"]["get"]["x-price-usd"] == "$0.01"
    assert doc["paths"]["/api/pro/export/{slug}"]["get"]["x-price-usd"] == "$0.05"
    assert "/api/pro/history/{id}.md" not in doc["paths"]


async def test_mcp_tools_through_the_official_client(live_url):
    async with Client(f"{live_url}/price/mcp") as mcp:
        tools = {t.name for t in (await mcp.list_tools()).tools if not t.name.startswith("pro_")}
        assert tools == {"search_products", "get_product_price", "list_price_drops", "list_categories"}
        result = await mcp.call_tool("get_product_price", {"id": "LA1"})
        assert not result.is_error and result.structured_content["product"]["id"] == "LA1"
        assert result.structured_content["sample"] is True
        found = await mcp.call_tool("search_products", {"q": "香蕉"})
        assert [p["id"] for p in found.structured_content["products"]] == ["A1"]
        cats = await mcp.call_tool("list_categories", {})
        assert [c["slug"] for c in cats.structured_content["categories"]] == ["vegetables", "fruits"]
        drops = await mcp.call_tool("list_price_drops", {"cat": "vegetables"})
        assert all(d["category"] == "vegetables" for d in drops.structured_content["drops"])
        missing = await mcp.call_tool("get_product_price", {"id": "NOPE1"})
        assert missing.is_error
    async with httpx.AsyncClient() as http:
        problem = (await http.get(f"{live_url}/price/api/product/NOPE1")).json()
    # the same problem; the tool's text names the tool where REST names the path
    assert missing.structured_content["status"] == problem["status"] == 404
    assert missing.content[0].text == problem["detail"].replace("/api/search?q=...", "the search_products tool")
