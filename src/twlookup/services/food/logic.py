"""Domain rules of the food service: meals, opening hours in Asia/Taipei with Taiwan's public
holidays, great-circle distance, the category pick, the draw and the week plan.

Pure functions: the time, the holiday set and the random generator are always passed in.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Literal

from opening_hours import OpeningHours, State

from twlookup.services.food.records import Category, Deity, MealId, Poem, Shop

# ------------------------------------------------------------------ meals


@dataclass(frozen=True)
class Meal:
    id: MealId
    name: str
    start: time  # the meal's hours in Taipei; late_night runs past midnight
    end: time


MEALS: tuple[Meal, ...] = (
    Meal("breakfast", "早餐", time(5, 0), time(10, 30)),
    Meal("lunch", "午餐", time(10, 30), time(14, 0)),
    Meal("afternoon", "下午茶", time(14, 0), time(17, 0)),
    Meal("dinner", "晚餐", time(17, 0), time(21, 0)),
    Meal("late_night", "宵夜", time(21, 0), time(5, 0)),
)
MEAL_BY_ID = {m.id: m for m in MEALS}


def meal_at(moment: datetime) -> Meal:
    """The meal whose hours contain `moment` (Taipei wall time)."""
    now = moment.time()
    for meal in MEALS:
        if meal.start <= meal.end:
            if meal.start <= now < meal.end:
                return meal
        elif now >= meal.start or now < meal.end:
            return meal
    raise AssertionError("the meal hours cover the whole day")


# ------------------------------------------------------------------ opening hours

HoursState = Literal["open", "closed", "unknown"]
PH_TOKEN = re.compile(r"\bPH\b")
WEEKDAYS = ("Mo", "Tu", "We", "Th", "Fr", "Sa", "Su")


def hours_state(expression: str | None, moment: datetime, public_holidays: set[date]) -> tuple[HoursState, str | None]:
    """Whether a place with these OSM opening_hours is open at `moment` (Taipei wall time, naive).

    Unknown (not open) when the hours are missing, unparsable, or say `unknown`. The parser knows no
    Taiwanese holidays, so `PH` is resolved here: it is replaced by the weekday(s) of `moment`'s day
    and of the day before when those are public holidays (the day before matters for hours running
    past midnight), and otherwise by the weekday three days ahead, a day that cannot affect `moment`.
    Returns the state and the reason when it is unknown.
    """
    if not expression or not expression.strip():
        return "unknown", "沒有營業時間資料"
    text = expression.strip()
    if PH_TOKEN.search(text):
        day = moment.date()
        holidays = [d for d in (day - timedelta(days=1), day) if d in public_holidays]
        stand_in = ",".join(WEEKDAYS[d.weekday()] for d in holidays) or WEEKDAYS[(day + timedelta(days=3)).weekday()]
        text = PH_TOKEN.sub(stand_in, text)
    try:
        parsed = OpeningHours(text, auto_country=False, auto_timezone=False)
        state, _comment = parsed.state(moment.replace(tzinfo=None))
    except Exception:  # the parser's own error types; any failure means we cannot tell
        return "unknown", "營業時間格式無法解析"
    if state == State.OPEN:
        return "open", None
    if state == State.CLOSED:
        return "closed", None
    return "unknown", "營業時間標示為未知"


# ------------------------------------------------------------------ distance

EARTH_RADIUS_M = 6_371_008.8  # mean radius (IUGG), metres


def distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance by the haversine formula on the mean Earth radius."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(math.sqrt(a))


@dataclass(frozen=True)
class Nearby:
    shop: Shop
    distance_m: float
    state: HoursState


def nearby(
    shops: Iterable[Shop],
    lat: float,
    lon: float,
    radius_m: int,
    category: str | None,
    moment: datetime,
    public_holidays: set[date],
    include_unknown: bool = False,
) -> list[Nearby]:
    """Shops of `category` (any when None) within `radius_m`, open at `moment`, nearest first.
    Shops whose hours are unknown are left out unless `include_unknown`."""
    # a cheap box first: 1 degree of latitude is about 111 km
    dlat = radius_m / 111_000 + 0.001
    dlon = radius_m / (111_000 * max(math.cos(math.radians(lat)), 0.1)) + 0.001
    out: list[Nearby] = []
    for shop in shops:
        if category is not None and shop.category != category:
            continue
        if abs(shop.lat - lat) > dlat or abs(shop.lon - lon) > dlon:
            continue
        d = distance_m(lat, lon, shop.lat, shop.lon)
        if d > radius_m:
            continue
        state, _ = hours_state(shop.opening_hours, moment, public_holidays)
        if state == "open" or (include_unknown and state == "unknown"):
            out.append(Nearby(shop, d, state))
    out.sort(key=lambda n: (n.distance_m, n.shop.id))
    return out


# ------------------------------------------------------------------ categories


def fits(category: Category, meal: MealId | None, budget: int | None, people: int | None) -> bool:
    """A category fits a meal it is served at, a budget per person that reaches its band's lower
    end, and, for group-style categories, a party of 3 or more."""
    if meal is not None and meal not in category.meals:
        return False
    if budget is not None and budget < category.band_min:
        return False
    return not (category.group and people is not None and people < 3)


def candidates(
    categories: Sequence[Category], deity: Deity | None, meal: MealId | None, budget: int | None, people: int | None
) -> list[Category]:
    out = [c for c in categories if fits(c, meal, budget, people)]
    if deity is not None and deity.vegetarian:
        out = [c for c in out if c.vegetarian]
    return out


def pick_category(rng: random.Random, options: Sequence[Category], deity: Deity | None) -> Category:
    """Weighted pick: a category the deity favours weighs 3, any other 1."""
    weights = [3 if deity is not None and c.id in deity.categories else 1 for c in options]
    return rng.choices(list(options), weights=weights, k=1)[0]


# ------------------------------------------------------------------ draw and week plan


@dataclass(frozen=True)
class Draw:
    deity: Deity
    meal: Meal
    poem: Poem
    category: Category
    dish: str


def draw(
    rng: random.Random,
    deities: Sequence[Deity],
    poems: Sequence[Poem],
    category: Category,
    deity: Deity | None,
    meal: Meal,
) -> Draw:
    chosen = deity or rng.choice(list(deities))
    poem = rng.choice(list(poems))
    dish = rng.choice(category.dishes)
    return Draw(chosen, meal, poem, category, dish)


REPEAT_WINDOW_DAYS = 7  # week-plan: a dish does not come back within this many days


@dataclass(frozen=True)
class PlanItem:
    day: int
    meal: Meal
    category: Category
    dish: str


def week_plan(
    rng: random.Random,
    categories: Sequence[Category],
    deity: Deity,
    meals: Sequence[MealId],
    budget: int | None,
    days: int,
) -> tuple[list[PlanItem], int]:
    """A menu for `days` days and the chosen meals. No dish repeats within REPEAT_WINDOW_DAYS days;
    when a meal's categories run out of fresh dishes, the dish used longest ago is taken and
    counted as a repeat (the second value)."""
    last_used: dict[str, int] = {}
    items: list[PlanItem] = []
    repeats = 0
    for day in range(1, days + 1):
        for meal_id in meals:
            options = candidates(categories, deity, meal_id, budget, None)
            if not options:
                raise ValueError(f"no category fits {meal_id} within the budget")
            fresh = [
                (c, d)
                for c in options
                for d in c.dishes
                if d not in last_used or day - last_used[d] >= REPEAT_WINDOW_DAYS
            ]
            if fresh:
                weights = [3 if c.id in deity.categories else 1 for c, _ in fresh]
                category, dish = rng.choices(fresh, weights=weights, k=1)[0]
            else:
                category, dish = min(
                    ((c, d) for c in options for d in c.dishes), key=lambda cd: last_used.get(cd[1], -1)
                )
                repeats += 1
            last_used[dish] = day
            items.append(PlanItem(day, MEAL_BY_ID[meal_id], category, dish))
    return items, repeats
