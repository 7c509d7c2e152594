"""Nothing sample, empty or stale is sold (platform/payments/sale.py): on a fresh install the paid
routes that rest on sample rows, an empty table or a stale feed answer a 503 problem naming the
feed and its age, with Retry-After, before any 402, and every listing says so; a genuine import of
fresh data reopens the sale, and the passing of days closes it again without any store change."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from conftest import assert_problem

from twlookup import cli
from twlookup.app import create_app
from twlookup.platform import clock
from twlookup.platform.feeds import Feed, Part, static_parts
from twlookup.platform.operations import NoParams, build_operation
from twlookup.platform.payments import sale
from twlookup.platform.schemas import Source
from twlookup.platform.service import Service
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.feed_tables import FeedStateRow
from twlookup.services.opinions.tables import PostRow
from twlookup.settings import Settings, get_settings

pytestmark = pytest.mark.asyncio

SERVICES = Path(__file__).resolve().parents[1] / "services"
FIVE = {
    # the route -> what its problem must name
    "/price/api/pro/export/vegetables": ("price.daily", "price_observation holds 2280 sample rows"),
    "/share/api/pro/export": ("share_share holds no rows",),
    "/opinions/api/pro/export": ("opinions_post holds no rows",),
    "/life/api/pro/fuel/history?product=diesel": ("life.fuel data is of 2025-12-29", "days old", "16 days"),
    "/stocks/api/pro/export": ("stocks.closes", "stocks_close holds 250 sample rows"),
}


@pytest.fixture
def today(monkeypatch: pytest.MonkeyPatch):
    """Fix today for the test (TWLOOKUP_TODAY's clock), given back afterwards."""

    def fix(day: date) -> None:
        monkeypatch.setattr(clock, "_fixed", day)

    fix(date(2026, 11, 26))
    return fix


@pytest.fixture
async def own(settings, monkeypatch, fresh_store) -> AsyncIterator[httpx.AsyncClient]:
    """A store of this test's own, read again at every request (data_check_seconds 0), served by an app."""
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", fresh_store)
    get_settings.cache_clear()  # `twlookup ingest` reads the store from the environment
    app = create_app(settings.model_copy(update={"database_url": fresh_store, "data_check_seconds": 0}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        yield c
    get_settings.cache_clear()
    store_engine.configure(settings.database_url)


def ingest(feed: str, path: Path) -> None:
    assert cli.main(["ingest", feed, str(path)]) == 0


@pytest.mark.parametrize("path", list(FIVE))
async def test_the_five_answer_503_before_any_challenge(client, path):
    for headers in ({}, {"PAYMENT-SIGNATURE": "e30="}):  # a payment sent anyway is not looked at
        r = await client.get(path, headers=headers)
        body = assert_problem(r, 503)
        assert body["type"].endswith("/not-for-sale") and "payment-required" not in r.headers
        assert int(r.headers["retry-after"]) >= 60
        assert "Nothing was charged" in body["detail"]
        for words in FIVE[path]:
            assert words in body["detail"], (words, body["detail"])
        assert body["not_for_sale"] and all(x["reason"] in body["detail"] for x in body["not_for_sale"])


async def test_the_feed_and_its_age_are_named_in_the_body(client):
    body = (await client.get("/life/api/pro/fuel/history", params={"product": "95"})).json()
    # seeded fuel data is of 2025-12-29; 2026-11-26 is 332 days later; the feed's cadence is 8 days
    [fuel] = body["not_for_sale"]
    assert fuel["feed"] == "life.fuel" and fuel["data_date"] == "2025-12-29" and fuel["limit_days"] == 16
    assert fuel["age_days"] == (clock.today() - date(2025, 12, 29)).days
    r = await client.get("/price/api/pro/export/vegetables")
    feed, table = r.json()["not_for_sale"]
    assert feed["feed"] == "price.daily" and feed["age_days"] is None and "no data imported" in feed["reason"]
    assert (table["table"], table["rows"], table["sample_rows"]) == ("price_observation", 2280, 2280)
    assert r.headers["retry-after"] == str(3 * 3600)  # price.daily is refreshed every 3 hours


async def test_bad_input_and_unknown_ids_still_come_first(client):
    assert_problem(await client.get("/price/api/pro/export/nope"), 422, "slug")
    assert_problem(await client.get("/price/api/pro/history/NOPE1"), 404)
    assert_problem(await client.get("/life/api/pro/fuel/history", params={"product": "99"}), 422, "product")


async def test_free_routes_go_on_answering_with_their_flags(client):
    assert (await client.get("/price/api/category/vegetables")).json()["sample"] is True
    assert (await client.get("/share/api/new")).json()["count"] == 0  # the site ships no share; still answers
    fuel = await client.get("/life/api/fuel/history", params={"product": "diesel"})
    assert fuel.status_code == 200
    assert (await client.get("/stocks/api/etf-dividends")).status_code == 200


async def test_routes_on_real_data_still_ask_for_payment(client):
    r = await client.get("/models/api/pro/export")
    assert r.status_code == 402 and "payment-required" in r.headers


async def test_every_listing_says_what_is_for_sale(client):
    index = (await client.get("/")).json()
    listed = {r["path"]: r for s in index["services"] for r in s.get("paid_routes", [])}
    for path in ("/price/api/pro/export/{slug}", "/share/api/pro/export", "/opinions/api/pro/export"):
        assert listed[path]["open"] is False and listed[path]["not_for_sale"], path
    assert listed["/life/api/pro/fuel/history"]["not_for_sale"] == [
        f"life.fuel data is of 2025-12-29, {(clock.today() - date(2025, 12, 29)).days} days old; "
        "it is sold only while at most 16 days old (twice its 8-day cadence)"
    ]
    assert listed["/models/api/pro/export"]["open"] is True and "not_for_sale" not in listed["/models/api/pro/export"]

    pro = (await client.get("/stocks/api/pro")).json()["paid_routes"]
    assert {r["open"] for r in pro} == {False} and all(r["switched_on"] for r in pro)
    summary = (await client.get("/stocks/")).json()
    assert {r["path"]: r.get("open") for r in summary["routes"] if r["price_usd"]} == {
        "/stocks/api/pro/history": False,
        "/stocks/api/pro/income-plan": False,
        "/stocks/api/pro/export": False,
    }

    html = (await client.get("/", headers={"Accept": "text/html"})).text
    assert "<code>GET /share/api/pro/export</code>: $0.05 (not for sale now: share_share holds no rows" in html
    assert "<code>GET /models/api/pro/export</code>: $0.05 (open)" in html
    page = (await client.get("/opinions/", headers={"Accept": "text/html"})).text
    assert "<code>GET /opinions/api/pro/export</code> · $0.05 (not for sale now: opinions_post holds no rows)" in page
    assert "<code>GET /opinions/api/pro/digest</code> · $0.02 (open)" in page

    doc = (await client.get("/life/openapi.json")).json()
    fuel = doc["paths"]["/api/pro/fuel/history"]["get"]
    assert fuel["x-price-usd"] == "$0.01" and fuel["x-for-sale"] is False and fuel["x-rests-on"] == ["life.fuel"]
    assert "life.fuel data is of 2025-12-29" in fuel["x-not-for-sale"][0]
    assert "Not for sale now" in fuel["responses"]["503"]["description"]
    assert doc["paths"]["/api/pro/invoice/check-batch"]["post"]["x-for-sale"] is False  # invoice: 2026-01-25


async def test_a_fresh_fuel_import_reopens_the_sale_and_days_close_it(own, today):
    r = await own.get("/life/api/pro/fuel/history", params={"product": "diesel"})
    assert r.status_code == 503
    ingest("life.fuel", SERVICES / "life" / "fixtures" / "cpc_listprice.xml")  # CPC's format, effective 2026-11-16
    r = await own.get("/life/api/pro/fuel/history", params={"product": "diesel"})
    assert r.status_code == 402, r.text  # 10 days old: for sale
    listed = (await own.get("/life/api/pro")).json()["paid_routes"]
    assert next(x for x in listed if x["path"] == "/life/api/pro/fuel/history")["open"] is True

    today(date(2026, 12, 2))  # 16 days old: the last day it is sold
    assert (await own.get("/life/api/pro/fuel/history", params={"product": "diesel"})).status_code == 402
    today(date(2026, 12, 3))  # 17 days: no store change, the age alone closes it
    body = assert_problem(await own.get("/life/api/pro/fuel/history", params={"product": "diesel"}), 503)
    assert "life.fuel data is of 2026-11-16, 17 days old" in body["detail"]


async def test_a_real_price_import_reopens_the_sale(own, today, tmp_path):
    """The shipped sample history is in FarmTransData's own format: its last day, imported as a real
    file, replaces the sample rows of every product, and the export is for sale."""
    records = json.loads((Path(cli.DEFAULT_DATA) / "price" / "sample_observations.json").read_bytes())
    last = [r for r in records if r["交易日期"] == "115.11.21"]
    assert {r["作物代號"] for r in last} == {r["作物代號"] for r in records}  # every product traded that day
    path = tmp_path / "FarmTransData.json"
    path.write_text(json.dumps(last, ensure_ascii=False), encoding="utf-8")

    assert (await own.get("/price/api/pro/export/vegetables")).status_code == 503
    ingest("price.daily", path)
    r = await own.get("/price/api/pro/export/vegetables")
    assert r.status_code == 402, r.text
    assert (await own.get("/price/api/pro/history/LA1")).status_code == 402
    assert (await own.get("/price/api/category/vegetables")).json()["sample"] is False


async def test_posts_reopen_the_opinions_export(own):
    assert (await own.get("/opinions/api/pro/export")).status_code == 503
    ingest("opinions.posts", SERVICES / "opinions" / "fixtures" / "posts.yaml")
    assert (await own.get("/opinions/api/pro/export")).status_code == 402


async def test_the_sale_facts_are_read_once_per_data_version(settings, monkeypatch, fresh_store):
    reads = []
    original = sale.SaleCheck._read
    monkeypatch.setattr(sale.SaleCheck, "_read", lambda self, version: reads.append(version) or original(self, version))
    app = create_app(settings.model_copy(update={"database_url": fresh_store, "data_check_seconds": 3600}))
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            for _ in range(5):
                assert (await c.get("/share/api/pro/export")).status_code == 503
                assert (await c.get("/share/api/pro/pack")).status_code == 503
            assert len(reads) == 1  # one read for the service's routes, then memory
            monkeypatch.setattr(sale, "MAX_AGE_SECONDS", 0.0)  # past the longest wait: read again
            assert (await c.get("/share/api/pro/export")).status_code == 503
            assert len(reads) == 2
    finally:
        store_engine.configure(settings.database_url)


def _closed_service() -> Service:
    """A service whose one paid route is also a paid MCP tool (as issue 23 declares them) resting on
    an empty table."""
    service = Service(name="opinions", title="t", description="d")

    def export(_p: NoParams) -> Source:
        """Everything."""
        raise AssertionError("never run: not for sale")

    op = build_operation(export, "GET", "/api/pro/export", "export_all", "$0.05", rests_on=(PostRow,))
    service.operations.append(op)
    return service


async def test_a_paid_mcp_tool_not_for_sale_is_an_error_result(settings):
    app = create_app(settings, services=[_closed_service()])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "export_all", "arguments": {}}}
        r = await c.post("/opinions/mcp", json=call, headers={"Accept": "application/json, text/event-stream"})
        result = r.json()["result"]
        assert result["isError"] is True and "opinions_post holds no rows" in result["content"][0]["text"]
        assert result["structuredContent"]["type"].endswith("/not-for-sale")
        assert (await c.get("/opinions/api/pro/export")).status_code == 503


async def test_a_basis_must_be_known_and_paid():
    service = Service(name="x", title="t", description="d")
    with pytest.raises(ValueError, match="free routes flag it"):
        service.operation("GET", "/api/free", rests_on=("feed",))

    def x() -> Source:
        """X."""
        raise AssertionError

    service.operation("GET", "/api/pro/x", price="$0.01", rests_on=("nope",))(x)
    with pytest.raises(ValueError, match="unknown feed 'nope'"):
        sale.SaleCheck(service, Settings(_env_file=None))


def _feed(name: str, **kwargs) -> Feed:
    return Feed(
        service="x",
        name=name,
        title=name,
        publisher="p",
        format="f",
        licence="l",
        page="https://example.org/",
        changes="c",
        importer=lambda _s, _p: 0,
        **kwargs,
    )


async def test_feeds_whose_files_carry_no_date_are_sold_while_checked_within_twice_their_cadence():
    checked = _feed(
        "list",
        parts=static_parts(Part("file", "https://example.org/f", "f")),
        stale_after=timedelta(days=14),
        stale_by="check",
        every=timedelta(days=1),
    )
    operator_file = _feed("file", manual="an operator's file")  # no URL: only its tables can close a route
    service = Service(name="x", title="t", description="d")
    service.feed(checked)
    service.feed(operator_file)

    def x() -> Source:
        """X."""
        raise AssertionError

    service.operation("GET", "/api/pro/x", price="$0.01", rests_on=("list", "file"))(x)
    check = sale.SaleCheck(service, Settings(_env_file=None))
    [op] = service.operations
    now = datetime(2026, 11, 26, 12, tzinfo=UTC)

    def facts(days_ago: int | None) -> sale.Facts:
        rows = []
        if days_ago is not None:
            rows = [FeedStateRow(feed="x.list", part="file", last_success=now - timedelta(days=days_ago))]
        return sale.Facts(1, {}, {"x.list": sale.FeedFacts(rows, None), "x.file": sale.FeedFacts([], None)})

    assert check.reasons(op, facts(28), now) == []  # 28 days: twice the 14-day cadence, still sold
    [late] = check.reasons(op, facts(29), now)
    assert late["feed"] == "x.list" and late["age_days"] == 29 and late["limit_days"] == 28
    assert "last checked good 29 days ago" in late["reason"] and late["retry_after"] == 86400
    [never] = check.reasons(op, facts(None), now)
    assert "never been checked" in never["reason"]
