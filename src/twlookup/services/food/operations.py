"""The food service's operations: thin adapters from parameters to logic and results."""

from __future__ import annotations

import random
import secrets
from datetime import datetime

from twlookup.platform import clock
from twlookup.platform.errors import InvalidParameter, Problem
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import TAIPEI, today_taipei
from twlookup.platform.service import Service
from twlookup.services.food import logic
from twlookup.services.food.data import Catalogue, catalogue
from twlookup.services.food.feeds import FEEDS
from twlookup.services.food.records import Category, Deity, Poem, Shop, Sponsor
from twlookup.services.food.schemas import (
    DRAW_RADIUS_M,
    DRAW_SHOPS,
    MEAL_IDS,
    NONE_NEAR_NOTE,
    PACK_LICENCE_NOTICE,
    SAMPLE_ONLY_NOTE,
    Ads,
    Attribution,
    Categories,
    CategoriesQuery,
    CategoryOut,
    Deities,
    DeityOut,
    Draw,
    DrawQuery,
    MealOut,
    Meals,
    NearbyOut,
    NearbyQuery,
    Pack,
    PlanItemOut,
    PoemOut,
    ShopOut,
    SponsorOut,
    WeekPlan,
    WeekPlanQuery,
)
from twlookup.services.food.tables import ShopRow

SERVICE = Service(
    name="food",
    title="神明美食籤：抽籤、籤詩、餐點與附近營業中的店家",
    description=(
        "以十位神明為主題抽一餐：六十甲子籤詩、一道菜與附近現在營業中的店家（OpenStreetMap 資料，ODbL）。"
        "回應為繁體中文。免費呼叫有每分鐘額度，超過後以 x402 付費或使用通行證。"
    ),
    cors=True,
    solana=True,
    free_quota=True,
)
for _feed in FEEDS:  # OpenStreetMap shops from the operator's files (twlookup ingest food.overpass|food.pbf)
    SERVICE.feed(_feed)
add_status_route(SERVICE)


def now_taipei() -> datetime:
    """The current Taipei wall time (naive); tests pin it."""
    return clock.now().replace(tzinfo=None, microsecond=0)


# ------------------------------------------------------------------ building answers


# What each kind of page is worth, said in every answer with a custom (and why there is none).
CUSTOM_NOTES: dict[str | None, str] = {
    "temple": "來源：寺廟自己的說法（廟方網站，或廟方人員在新聞報導中的說明）。",
    "news": "來源：新聞報導，非寺廟或官方資料；各地做法可能不同。",
    "website": "來源較弱：僅為民間網站的說法，找不到寺廟、官方或百科資料佐證，僅供參考。",
    None: "找不到可引用的寺廟、官方、百科或新聞資料，所以不寫供品習俗。",
}


def deity_out(d: Deity) -> DeityOut:
    page = d.custom_page
    return as_answer(
        d,
        DeityOut,
        custom_source=page.source_ref if page else None,
        custom_note=CUSTOM_NOTES[d.custom_source_kind],
    )


def meal_out(m: logic.Meal) -> MealOut:
    return MealOut(id=m.id, name=m.name, hours=f"{m.start:%H:%M}–{m.end:%H:%M}")


def band(c: Category) -> str:
    return f"每人 NT${c.band_min}–{c.band_max}"


def category_out(c: Category) -> CategoryOut:
    return as_answer(c, CategoryOut, band=band(c))


def poem_out(p: Poem) -> PoemOut:
    return as_answer(p, PoemOut, title=f"第{p.number}首 {p.ganzhi}")


def shop_out(s: Shop, state: logic.HoursState, distance: float | None = None) -> ShopOut:
    return as_answer(
        s,
        ShopOut,
        open_now=state,
        distance_m=round(distance) if distance is not None else None,
        osm_url=None if s.sample else f"https://www.openstreetmap.org/{s.id}",
        sample=s.sample,
    )


def sponsor_out(s: Sponsor) -> SponsorOut:
    return as_answer(s, SponsorOut)


def _category_param(cat: Catalogue, name: str) -> Category:
    return cat.category_by_id[name]


# ------------------------------------------------------------------ free routes


@SERVICE.operation("GET", "/api/draw", tool="draw_food_fortune", varies=True)  # a random draw, at this hour
def draw(p: DrawQuery) -> Draw:
    """抽一餐：神明、六十甲子籤詩、一道菜，以及附近現在營業中的店家（給 lat、lon 時）。

    category=auto picks a category served at the meal whose band's lower end the budget reaches
    (group-style food only for 3 or more people; vegetarian deities keep to vegetarian food), weighing
    the deity's favoured categories 3 to 1. `seed` makes the draw repeatable; the answer gives it."""
    cat, now = catalogue(), now_taipei()
    seed = p.seed if p.seed is not None else secrets.randbelow(2**31)
    rng = random.Random(seed)
    deity = cat.deity_by_id[p.deity] if p.deity else rng.choice(cat.deities)
    meal = logic.MEAL_BY_ID[p.meal] if p.meal else logic.meal_at(now)
    if p.category == "auto":
        options = logic.candidates(cat.categories, deity, meal.id, p.budget, p.people)
        if not options:
            raise InvalidParameter(
                "budget",
                f"no category fits {meal.name} for {deity.name} within NT${p.budget} per person; raise the budget",
                {"lowest_band_min": min(c.band_min for c in cat.categories if meal.id in c.meals)},
            )
        category = logic.pick_category(rng, options, deity)
    else:
        category = _category_param(cat, p.category)
    result = logic.draw(rng, cat.deities, cat.poems, category, deity, meal)
    shops: list[ShopOut] = []
    if p.lat is not None and p.lon is not None:
        found = logic.nearby(cat.shops, p.lat, p.lon, DRAW_RADIUS_M, category.id, now, cat.public_holidays)
        shops = [shop_out(n.shop, n.state, n.distance_m) for n in found[:DRAW_SHOPS]]
        note = f"{DRAW_RADIUS_M} 公尺內現在營業中的{category.name}：{len(found)} 家" + (
            "（含範例資料，非真實店家）" if any(s.sample for s in shops) else ""
        )
        if cat.imported == 0:
            note += "。" + SAMPLE_ONLY_NOTE
    else:
        note = "未提供 lat、lon，所以沒有列出附近店家。"
    return Draw(
        as_of=now.replace(tzinfo=TAIPEI),
        seed=seed,
        deity=deity_out(result.deity),
        meal=meal_out(result.meal),
        poem=poem_out(result.poem),
        category=category_out(result.category),
        category_picked=p.category == "auto",
        dish=result.dish,
        shops=shops,
        shops_note=note,
        sample=any(s.sample for s in shops),
        attribution=Attribution() if any(not s.sample for s in shops) else None,
    )


@SERVICE.operation("GET", "/api/nearby", tool="find_nearby_restaurants", varies=True)  # open now
def nearby(p: NearbyQuery) -> NearbyOut:
    """附近現在營業中的店家，依直線（大圓）距離由近到遠。

    Opening hours are OSM opening_hours read in Asia/Taipei, with Taiwan's public holidays for PH;
    shops whose hours are missing or unparsable are unknown and left out (counted in unknown_hours)."""
    cat, now = catalogue(), now_taipei()
    found = logic.nearby(cat.shops, p.lat, p.lon, p.radius, p.category, now, cat.public_holidays, include_unknown=True)
    open_ = [n for n in found if n.state == "open"]
    imported = cat.imported
    if imported == 0:
        note: str | None = SAMPLE_ONLY_NOTE
    elif not any(not n.shop.sample for n in found):
        note = NONE_NEAR_NOTE.format(radius=p.radius)
    else:
        note = None
    return NearbyOut(
        as_of=now.replace(tzinfo=TAIPEI),
        lat=p.lat,
        lon=p.lon,
        radius=p.radius,
        category=p.category,
        count=len(open_),
        shops=[shop_out(n.shop, n.state, n.distance_m) for n in open_],
        unknown_hours=len(found) - len(open_),
        public_holiday=now.date() in cat.public_holidays,
        sample=any(n.shop.sample for n in open_),
        imported_shops=imported,
        note=note,
        attribution=Attribution() if any(not n.shop.sample for n in open_) else None,
    )


@SERVICE.operation("GET", "/api/categories", tool="list_food_categories")
def categories(p: CategoriesQuery) -> Categories:
    """餐點分類與每人價格帶（新台幣），可依餐別、預算與人數篩選。"""
    cat = catalogue()
    chosen = [c for c in cat.categories if logic.fits(c, p.meal, p.budget, p.people)]
    return Categories(
        count=len(chosen), meal=p.meal, budget=p.budget, people=p.people, categories=[category_out(c) for c in chosen]
    )


@SERVICE.operation("GET", "/api/deities", tool="list_deities")
def deities() -> Deities:
    """十位神明與各自的飲食主題（有來源的附上供品習俗）。"""
    cat = catalogue()
    return Deities(count=len(cat.deities), deities=[deity_out(d) for d in cat.deities])


@SERVICE.operation("GET", "/api/meals")
def meals() -> Meals:
    """五種餐別及其 id：breakfast、lunch、afternoon、dinner、late_night。"""
    return Meals(count=len(logic.MEALS), meals=[meal_out(m) for m in logic.MEALS])


@SERVICE.operation("GET", "/api/ads")
def ads() -> Ads:
    """贊助店家（營運者設定，一律標示為贊助，不混入抽籤或附近店家）。"""
    cat, today = catalogue(), today_taipei()
    live = [s for s in cat.sponsors if (s.starts is None or s.starts <= today) and (s.ends is None or today <= s.ends)]
    return Ads(as_of=today, count=len(live), sponsors=[sponsor_out(s) for s in live])


# ------------------------------------------------------------------ paid routes


@SERVICE.operation("GET", "/api/pro/week-plan", price="$0.01")
def week_plan(p: WeekPlanQuery) -> WeekPlan:
    """一至十四天的菜單：每天每餐一道菜，7 天內不重複同一道菜（選得到的話）。"""
    meal_ids = p.meal_list()
    cat = catalogue()
    seed = p.seed if p.seed is not None else secrets.randbelow(2**31)
    rng = random.Random(seed)
    deity = cat.deity_by_id[p.deity] if p.deity else rng.choice(cat.deities)
    for meal_id in meal_ids:
        if not logic.candidates(cat.categories, deity, meal_id, p.budget, None):
            raise InvalidParameter(
                "budget", f"no category fits {meal_id} for {deity.name} within NT${p.budget} per person", list(MEAL_IDS)
            )
    items, repeats = logic.week_plan(rng, cat.categories, deity, meal_ids, p.budget, p.days)
    return WeekPlan(
        seed=seed,
        deity=deity_out(deity),
        days=p.days,
        meals=list(meal_ids),
        budget=p.budget,
        repeat_window_days=logic.REPEAT_WINDOW_DAYS,
        repeats=repeats,
        plan=[
            PlanItemOut(
                day=i.day,
                meal=i.meal.id,
                meal_name=i.meal.name,
                category=i.category.id,
                category_name=i.category.name,
                band=band(i.category),
                dish=i.dish,
            )
            for i in items
        ],
    )


@SERVICE.operation("GET", "/api/pro/pack", price="$0.05", rests_on=(ShopRow,))  # not sold with the sample shops
def pack() -> Pack:
    """整站離線資料包：神明、餐別、分類、六十首籤詩、店家（附 ODbL 聲明）與贊助店家。"""
    cat, now = catalogue(), now_taipei()
    if not cat.poems:
        raise Problem(503, "The food data is not loaded yet; try again shortly.", headers={"Retry-After": "30"})
    return Pack(
        generated=now.replace(tzinfo=TAIPEI),
        deities=[deity_out(d) for d in cat.deities],
        meals=[meal_out(m) for m in logic.MEALS],
        categories=[category_out(c) for c in cat.categories],
        poems=[poem_out(p) for p in cat.poems],
        shops=[shop_out(s, logic.hours_state(s.opening_hours, now, cat.public_holidays)[0]) for s in cat.shops],
        sponsors=[sponsor_out(s) for s in cat.sponsors],
        sample=cat.sample,
        attribution=Attribution() if cat.imported else None,
        licence_notice=PACK_LICENCE_NOTICE if cat.imported else None,
    )
