"""The creator service's remaining routes, the paid routes' 402 and the campaign review."""

from datetime import date

from conftest import assert_problem

from twlookup.platform import clock
from twlookup.services.creator.operations import _review
from twlookup.services.creator.schemas import CampaignBody


async def test_listing_endorsement_platforms(client):
    body = (await client.get("/creator/api/listing", params={"categories": "cosmetic"})).json()
    assert {d["category"] for d in body["duties"]} == {"cosmetic", "all"} and body["duties"][0]["risk"] == "high"
    assert all(d["source"]["url"].startswith("http") for d in body["duties"])
    both = (await client.get("/creator/api/listing")).json()
    assert both["categories"] == ["cosmetic", "food"] and both["count"] > body["count"]
    r = await client.get("/creator/api/listing", params={"categories": "food,drugs"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "categories"
    rules = (await client.get("/creator/api/endorsement")).json()["rules"]
    cap = next(x for x in rules if x["id"] == "endorser-cap")
    assert "十倍" in cap["rule"] and "第21條第5項" in cap["article"]
    fees = (await client.get("/creator/api/platforms")).json()
    assert fees["sample"] is True and {p["id"] for p in fees["platforms"]} == {"shopee", "momo", "pinkoi", "own-site"}


async def test_paid_routes_ask_for_payment(client):
    for method, kwargs in (
        ("GET", {"params": {"copy": "排毒", "categories": "food"}}),
        ("POST", {"json": {"copy": "排毒", "categories": "food"}}),
    ):
        r = await client.request(method, "/creator/api/pro/campaign-review", **kwargs)
        assert r.status_code == 402 and r.json()["accepts"][0]["network"] == "eip155:84532"
    r = await client.get("/creator/api/pro/campaign-review", params={"supplier_ban": "12"})
    assert r.status_code == 422  # bad input is refused before payment is asked


async def test_the_export_is_not_sold_on_sample_platform_rates(client):
    # three of the four marketplaces' fees are sample rows (no published rate found): the export,
    # which carries them, answers 503 naming what is missing, before any payment is asked for
    r = await client.get("/creator/api/pro/export")
    body = assert_problem(r, 503)
    assert body["type"].endswith("/not-for-sale") and "payment-required" not in r.headers
    assert int(r.headers["Retry-After"]) > 0
    [missing] = body["not_for_sale"]
    assert missing["table"] == "creator_platform" and missing["sample_rows"] == 3 and missing["rows"] == 4
    assert "creator_platform holds 3 sample rows of 4" in body["detail"]
    routes = (await client.get("/creator/api/pro")).json()["paid_routes"]
    export = next(x for x in routes if x["path"] == "/creator/api/pro/export")
    assert export["open"] is False and export["not_for_sale"] == [missing["reason"]]
    assert all(x["open"] for x in routes if x["path"] != "/creator/api/pro/export")


async def test_the_export_asks_for_payment_once_the_rates_are_real(for_sale):
    # with the sample rates made real (as published ones would be), the export is on sale: 402, pay first
    r = await for_sale.get("/creator/api/pro/export")
    assert r.status_code == 402 and r.json()["accepts"][0]["network"] == "eip155:84532"


async def test_the_export_cites_every_record_with_its_provenance(client):  # client: the shared store
    from twlookup.services.creator import operations

    out = operations.export()
    items = [*out.terms, *out.rules, *out.thresholds, *out.withholding, *out.nhi, *out.minimum_wage, *out.platforms]
    assert len(out.terms) > 100 and all(
        i.source.url.startswith(("https://", "http://")) and i.source.checked for i in items
    )
    assert {p.id for p in out.platforms if p.source.sample} == {"shopee", "momo", "pinkoi"}
    rates = {p.id: p.commission_rate for p in out.platforms}
    assert str(rates["shopee"]) == "0.055"  # rates read back exactly as written in the data file


async def test_campaign_review_orders_by_risk(client, monkeypatch):

    monkeypatch.setattr(clock, "_fixed", date(2026, 11, 23))
    review = await _review(
        CampaignBody(
            copy="排毒又能降血壓",
            categories="food",
            price=300,
            cost=295,
            monthly_sales=120000,
            supplier_ban="04595253",
            platform="own-site",
        )
    )
    risks = [t.risk for t in review.todo]
    assert risks == sorted(risks, key=["high", "medium", "low"].index)
    checks = {t.check for t in review.todo}
    assert {"ad-check", "profit", "tax-check", "company", "listing"} <= checks
    assert (
        review.tax and review.tax.must_register and review.profit and review.profit.profit == -4
    )  # 300 − 295 − 9 (ECPay 2.75% of 300 = 8.25, plus 5% tax = 8.66, rounded)
    assert review.supplier and not review.supplier.found


async def test_campaign_review_needs_something_to_review(client):
    r = await client.post("/creator/api/pro/campaign-review", json={})
    assert r.status_code == 422 and "something to review" in r.json()["detail"]
    r = await client.get("/creator/api/pro/campaign-review", params={"price": 100})
    assert r.status_code == 422
