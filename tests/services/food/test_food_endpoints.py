"""Every food route over HTTP with the clock pinned: answers in Traditional Chinese, sample shops
flagged and never credited to OpenStreetMap, open-now by the hour, errors naming the parameter."""

from __future__ import annotations

from datetime import datetime

import httpx
import pytest

from twlookup.app import create_app
from twlookup.platform.store import engine as store_engine
from twlookup.services.food import operations
from twlookup.services.food.tables import SponsorRow
from twlookup.settings import Settings

STATION = {"lat": 25.046, "lon": 121.517}  # Taipei Main Station, near the sample shops


@pytest.fixture
def at(monkeypatch):
    def pin(*args: int) -> None:
        monkeypatch.setattr(operations, "now_taipei", lambda: datetime(*args))

    return pin


async def test_deities_meals_and_categories(client):
    r = await client.get("/food/api/deities")
    body = r.json()
    assert r.status_code == 200 and body["count"] == 10
    by_id = {d["id"]: d for d in body["deities"]}
    assert by_id["guanyin"]["vegetarian"] and by_id["yuhuang"]["vegetarian"]
    for d in body["deities"]:  # a custom is stated only with the page it comes from, and what kind of page
        assert (d["custom"] is None) == (d["custom_source"] is None) == (d["custom_source_kind"] is None)
        assert d["custom_note"]
    assert by_id["guangong"]["custom"] is None and "不寫" in by_id["guangong"]["custom_note"]
    # a custom resting only on a private website says it is weak; a temple's own word says so
    assert by_id["guanyin"]["custom_source_kind"] == "website" and "較弱" in by_id["guanyin"]["custom_note"]
    assert by_id["yuelao"]["custom_source_kind"] == "temple" and "霞海城隍廟" in by_id["yuelao"]["custom"]
    assert by_id["tudigong"]["custom_source"]["url"] == "https://news.ltn.com.tw/news/life/breakingnews/5331681"
    assert by_id["mazu"]["custom_source_kind"] == "news" and "新聞報導" in by_id["mazu"]["custom_note"]
    meals = (await client.get("/food/api/meals")).json()
    assert [m["id"] for m in meals["meals"]] == ["breakfast", "lunch", "afternoon", "dinner", "late_night"]
    assert meals["meals"][4] == {"id": "late_night", "name": "宵夜", "hours": "21:00–05:00"}
    r = await client.get("/food/api/categories", params={"meal": "lunch", "budget": 60, "people": 1})
    assert [c["id"] for c in r.json()["categories"]] == ["snacks", "dumplings", "vegetarian"]
    assert r.json()["categories"][0]["band"] == "每人 NT$50–180" and "不是市場調查" in r.json()["basis"]
    r = await client.get("/food/api/categories", params={"meal": "dinner", "budget": 300, "people": 4})
    assert {"hotpot", "stirfry"} <= {c["id"] for c in r.json()["categories"]}
    r = await client.get("/food/api/categories", params={"meal": "brunch"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "meal"
    assert "late_night" in r.json()["errors"][0]["allowed"]


async def test_draw_is_repeatable_and_lists_open_shops(client, at):
    at(2026, 11, 24, 12, 0)  # a Tuesday noon
    params = {"deity": "tudigong", "meal": "lunch", "category": "noodles", "lat": 25.046, "lon": 121.517, "seed": 42}
    first = (await client.get("/food/api/draw", params=params)).json()
    again = (await client.get("/food/api/draw", params=params)).json()
    assert first == again and first["seed"] == 42
    assert (
        first["poem"]["lines"]
        and len(first["poem"]["lines"]) == 4
        and first["poem"]["source"]["url"].startswith("https://")
    )
    assert first["dish"] in first["category"]["dishes"] and first["category_picked"] is False
    assert [s["id"] for s in first["shops"]] == ["sample/1"]  # 範例牛肉麵 is open 11:00-21:00
    assert first["sample"] is True and first["shops"][0]["sample"] is True and "範例" in first["shops_note"]
    assert "twlookup refresh food.overpass" in first["shops_note"]  # how real shops get here
    # an invented shop is not OpenStreetMap's: no OSM credit, licence or link for it
    assert first["attribution"] is None and first["shops"][0]["osm_url"] is None
    assert first["shops"][0]["source"]["licence"] is None
    assert "openstreetmap" not in first["shops"][0]["source"]["url"].lower()
    at(2026, 11, 24, 22, 0)  # closed by 22:00
    late = (await client.get("/food/api/draw", params=params)).json()
    assert late["shops"] == [] and late["attribution"] is None


async def test_draw_auto_category_follows_meal_budget_people_and_deity(client, at):
    at(2026, 11, 24, 8, 0)
    for seed in range(12):
        body = (
            await client.get("/food/api/draw", params={"deity": "guanyin", "budget": 300, "people": 5, "seed": seed})
        ).json()
        assert body["meal"]["id"] == "breakfast" and body["category"]["vegetarian"] and body["category_picked"]
        body = (
            await client.get("/food/api/draw", params={"meal": "dinner", "budget": 90, "people": 1, "seed": seed})
        ).json()
        assert body["category"]["band_min"] <= 90 and not body["category"]["group"]
    r = await client.get("/food/api/draw", params={"meal": "dinner", "budget": 30})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "budget"
    r = await client.get("/food/api/draw", params={"lat": 25.0})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "lon"
    r = await client.get("/food/api/draw", params={"deity": "zeus"})
    assert r.status_code == 422 and "tudigong" in r.json()["errors"][0]["allowed"]


async def test_nearby_open_now_past_midnight_and_holidays(client, at):
    at(2026, 11, 24, 1, 30)  # Tuesday 01:30: the late-night snack bar (18:00-03:00) and hot pot (to 02:00) are open
    r = await client.get("/food/api/nearby", params={**STATION, "radius": 1500})
    body = r.json()
    ids = [s["id"] for s in body["shops"]]
    assert {"sample/4", "sample/8", "sample/12"} <= set(ids) and "sample/1" not in ids
    distances = [s["distance_m"] for s in body["shops"]]
    assert distances == sorted(distances) and body["sample"] is True
    assert body["unknown_hours"] == 1  # 範例壽司 has no hours: unknown, left out
    assert body["attribution"] is None and body["imported_shops"] == 0
    assert "twlookup refresh food.overpass" in body["note"] and "範例" in body["note"]
    at(2026, 1, 1, 8, 0)  # Founding Day (Thursday): the breakfast shop is "Su,PH off"
    body = (await client.get("/food/api/nearby", params={**STATION, "category": "breakfast"})).json()
    assert body["public_holiday"] is True and body["shops"] == []
    at(2026, 1, 8, 8, 0)  # the Thursday after: open
    body = (await client.get("/food/api/nearby", params={**STATION, "category": "breakfast"})).json()
    assert body["public_holiday"] is False and [s["id"] for s in body["shops"]] == ["sample/2"]
    # by hand: 0.0005 deg of latitude = 55.6 m; 0.0015 deg of longitude x cos 25.046 deg = 151.1 m; hypotenuse 161 m
    assert body["shops"][0]["distance_m"] == 161


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"lat": 35.68, "lon": 139.76}, "lat"),
        ({"lat": 25.0, "lon": 100.0}, "lon"),
        ({**STATION, "radius": 5001}, "radius"),
        ({**STATION, "category": "pasta"}, "category"),
        ({"lat": 25.0}, "lon"),
    ],
)
async def test_nearby_refuses_outside_taiwan_and_beyond_the_radius(client, params, name):
    r = await client.get("/food/api/nearby", params=params)
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == name


async def test_ads_are_sponsored_and_never_in_draws(client, at):
    at(2026, 11, 24, 12, 0)
    assert (await client.get("/food/api/ads")).json()["count"] == 0
    with store_engine.session() as s, s.begin():
        s.add(
            SponsorRow(
                id="demo-sponsor",
                position=0,
                name="贊助麵店",
                category="noodles",
                lat=25.046,
                lon=121.517,
                opening_hours="24/7",
            )
        )
        s.add(
            SponsorRow(
                id="old-sponsor", position=1, name="過期贊助", category="noodles", ends=datetime(2020, 1, 1).date()
            )
        )
    from twlookup.platform.store.reference import Reference

    Reference.reset_all()
    try:
        body = (await client.get("/food/api/ads")).json()
        assert [(s["id"], s["sponsored"], s["label"]) for s in body["sponsors"]] == [("demo-sponsor", True, "贊助")]
        for seed in range(5):
            draw = (await client.get("/food/api/draw", params={"category": "noodles", **STATION, "seed": seed})).json()
            assert all(s["id"].startswith(("node/", "way/", "sample/")) for s in draw["shops"])
            assert "贊助" not in str(draw["shops"])
    finally:
        with store_engine.session() as s, s.begin():
            s.query(SponsorRow).delete()
        Reference.reset_all()


async def test_paid_routes_ask_for_payment_and_validate_first(client):
    r = await client.get("/food/api/pro/week-plan", params={"days": 15})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "days"
    r = await client.get("/food/api/pro/week-plan", params={"meals": "lunch,lunch"})
    assert r.status_code == 402  # the repeated meal is refused once paid (checked below, unpaid here)
    r = await client.get("/food/api/pro/pack")  # the shipped shops are samples: the pack is not sold on them
    assert r.status_code == 503 and "food_shop holds 13 sample rows" in r.json()["detail"]


async def test_the_pack_asks_for_payment_once_the_shops_are_real(for_sale):
    r = await for_sale.get("/food/api/pro/pack")
    assert r.status_code == 402 and r.json()["accepts"][0]["amount"] == "50000"


def test_week_plan_and_pack_logic_directly(monkeypatch):
    from twlookup.services.food.schemas import WeekPlanQuery

    monkeypatch.setattr(operations, "now_taipei", lambda: datetime(2026, 11, 24, 12, 0))
    plan = operations.week_plan(WeekPlanQuery(deity="guanyin", meals="lunch,dinner", days=14, seed=5))
    assert len(plan.plan) == 28 and plan.repeats == 0 and all(i.category == "vegetarian" for i in plan.plan)
    last: dict[str, int] = {}
    for item in plan.plan:
        assert item.dish not in last or item.day - last[item.dish] >= 7
        last[item.dish] = item.day
    with pytest.raises(Exception) as exc:
        operations.week_plan(WeekPlanQuery(meals="lunch,lunch"))
    assert getattr(exc.value, "status", None) == 422
    pack = operations.pack()
    assert len(pack.poems) == 60 and len(pack.deities) == 10 and pack.sample is True
    # only sample shops: the pack carries no OpenStreetMap credit or licence notice
    assert pack.attribution is None and pack.licence_notice is None


async def test_free_quota_then_payment_and_cors(db_url):
    settings = Settings(
        database_url=db_url, rate_limit_default="100000/minute", free_quota_per_minute=2, _env_file=None
    )
    app = create_app(settings)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        for _ in range(2):
            assert (await c.get("/food/api/meals")).status_code == 200
        r = await c.get("/food/api/meals")
        assert r.status_code == 402 and "quota" in r.text.lower()
        networks = {a["network"] for a in r.json()["accepts"]}
        assert "eip155:8453" in networks
        r = await c.get("/food/api/deities", headers={"Origin": "https://site.example"})
        assert r.headers.get("access-control-allow-origin") in ("*", "https://site.example")


async def test_paid_and_quota_challenges_offer_both_networks(db_url):
    import respx

    facilitator, solana = "https://facilitator.test", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
    supported = {
        "kinds": [
            {"x402Version": 2, "scheme": "exact", "network": "eip155:8453"},
            {
                "x402Version": 2,
                "scheme": "exact",
                "network": solana,
                "extra": {"feePayer": "EwWqGE4ZFKLofuestmU4LDdK7XM1N4ALgdZccwYugwGd"},
            },
        ],
        "extensions": [],
        "signers": {},
    }
    settings = Settings(
        database_url=db_url,
        _env_file=None,
        facilitator="remote",
        facilitator_url=facilitator,
        free_quota_per_minute=1,
        pay_to_svm="9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    )
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{facilitator}/supported").respond(json=supported)
        app = create_app(settings)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            r = await c.get("/food/api/pro/week-plan", params={"days": 3})
            assert r.status_code == 402 and [a["network"] for a in r.json()["accepts"]] == ["eip155:8453", solana]
            assert r.json()["accepts"][0]["amount"] == "10000"  # 0.01 USDC
            assert (await c.get("/food/api/meals")).status_code == 200
            r = await c.get("/food/api/meals")  # past the free quota of 1 a minute: one call's price on either network
            assert r.status_code == 402 and [a["network"] for a in r.json()["accepts"]] == ["eip155:8453", solana]
