"""Food rules against hand-worked cases: opening hours in Taipei (past midnight, public holidays,
unknown), great-circle distance, meals by the clock, category fit, draws and week plans."""

from __future__ import annotations

import random
from datetime import date, datetime

import pytest

from twlookup.services.food import logic
from twlookup.services.food.records import Category, Deity, Shop

PH = {date(2026, 1, 1), date(2026, 10, 9), date(2026, 10, 10)}  # 2026-01-01 is a Thursday


@pytest.mark.parametrize(
    ("hours", "moment", "expected"),
    [
        ("Mo-Su 18:00-02:00", datetime(2026, 11, 24, 1, 30), "open"),  # Tuesday 01:30, Monday's evening runs on
        ("Mo-Su 18:00-02:00", datetime(2026, 11, 24, 2, 0), "closed"),  # the end is exclusive
        ("Mo-Su 18:00-02:00", datetime(2026, 11, 24, 17, 59), "closed"),
        ("Fr 18:00-03:00", datetime(2026, 11, 28, 2, 0), "open"),  # Saturday 02:00 from Friday's evening
        ("Fr 18:00-03:00", datetime(2026, 11, 29, 2, 0), "closed"),  # Sunday 02:00: Saturday has no evening
        ("Mo-Fr 10:00-20:00; PH off", datetime(2026, 1, 1, 12, 0), "closed"),  # Founding Day, a Thursday
        ("Mo-Fr 10:00-20:00; PH off", datetime(2026, 1, 8, 12, 0), "open"),  # the Thursday after
        ("Mo-Fr 10:00-20:00; PH off", datetime(2026, 10, 9, 12, 0), "closed"),  # an observed day off is PH
        ("Sa,Su,PH 10:00-14:00", datetime(2026, 1, 1, 11, 0), "open"),  # open on holidays only (and weekends)
        ("Sa,Su,PH 10:00-14:00", datetime(2026, 1, 8, 11, 0), "closed"),
        ("PH 20:00-02:00", datetime(2026, 1, 2, 1, 0), "open"),  # the holiday's evening runs past midnight
        ("PH 20:00-02:00", datetime(2026, 1, 9, 1, 0), "closed"),
        # a past-midnight run and PH off, as the OSM specification's reference implementation
        # (opening_hours.js, checked 2026-11-26 with the holiday's weekday written in) reads them:
        # the holiday's rule replaces its whole day, the previous evening's 00:00-02:00 included
        # (opening_hours.js issue #441) ...
        ("Mo-Su 18:00-02:00; PH off", datetime(2026, 1, 1, 1, 0), "closed"),
        ("Mo-Su 18:00-02:00; PH off", datetime(2026, 1, 1, 19, 0), "closed"),
        # ... and the Wednesday before and the Friday after keep their own evenings
        ("Mo-Su 18:00-02:00; PH off", datetime(2025, 12, 31, 23, 0), "open"),  # Wednesday
        ("Mo-Su 18:00-02:00; PH off", datetime(2026, 1, 2, 19, 0), "open"),
        # PH hours replace the weekday's on a weekday holiday
        ("Mo-Fr 08:00-17:00; PH 10:00-14:00", datetime(2026, 1, 1, 12, 0), "open"),
        ("Mo-Fr 08:00-17:00; PH 10:00-14:00", datetime(2026, 1, 1, 16, 0), "closed"),
        ("Mo-Fr 08:00-17:00; PH 10:00-14:00", datetime(2026, 1, 8, 16, 0), "open"),
        ("Mo-Fr 08:00-17:00; PH 10:00-14:00", datetime(2026, 1, 1, 9, 0), "closed"),
        ("24/7", datetime(2026, 11, 24, 4, 0), "open"),
        ("Mo-Su 11:00-14:00,17:00-21:00", datetime(2026, 11, 24, 15, 0), "closed"),  # the afternoon break
    ],
)
def test_opening_hours_hand_checked(hours, moment, expected):
    assert logic.hours_state(hours, moment, PH)[0] == expected


@pytest.mark.parametrize(
    "hours", [None, "", "   ", "unknown", "open when the owner feels like it", "Mo-Fr 25:00-26:00x"]
)
def test_missing_or_unparsable_hours_are_unknown_not_open(hours):
    state, reason = logic.hours_state(hours, datetime(2026, 11, 24, 12, 0), PH)
    assert state == "unknown" and reason


def test_great_circle_distance_hand_worked():
    # one degree along a meridian or the equator is R x pi / 180 = 111 195.08 m on R = 6 371 008.8 m
    assert logic.distance_m(0, 0, 1, 0) == pytest.approx(111_195.08, abs=0.05)
    assert logic.distance_m(0, 120, 0, 121) == pytest.approx(111_195.08, abs=0.05)
    # at 60 degrees north a degree of longitude is half as long (to within the great-circle bulge)
    assert logic.distance_m(60, 0, 60, 1) == pytest.approx(55_596, abs=5)
    assert logic.distance_m(25.0, 121.5, 25.0, 121.5) == 0


@pytest.mark.parametrize(
    ("clock", "meal"),
    [
        ("04:59", "late_night"),
        ("05:00", "breakfast"),
        ("10:29", "breakfast"),
        ("10:30", "lunch"),
        ("14:00", "afternoon"),
        ("17:00", "dinner"),
        ("20:59", "dinner"),
        ("21:00", "late_night"),
        ("00:30", "late_night"),
    ],
)
def test_meal_by_the_clock(clock, meal):
    h, m = map(int, clock.split(":"))
    assert logic.meal_at(datetime(2026, 11, 24, h, m)).id == meal


def cat(id_, meals, lo, hi, *, veg=False, group=False, dishes=None):
    return Category(
        id=id_,
        name=id_,
        meals=meals,
        band_min=lo,
        band_max=hi,
        vegetarian=veg,
        group=group,
        dishes=dishes or [f"{id_}{i}" for i in range(3)],
    )


CATS = [
    cat("noodles", ["lunch", "dinner"], 80, 250),
    cat("snacks", ["lunch", "dinner"], 50, 180),
    cat("vegetarian", ["lunch", "dinner"], 60, 250, veg=True),
    cat("hotpot", ["dinner"], 250, 900, group=True),
]
GUANYIN = Deity(id="guanyin", name="觀音", role="r", style="s", categories=["vegetarian"], vegetarian=True)
TUDIGONG = Deity(id="tudigong", name="土地公", role="r", style="s", categories=["snacks"])


def test_category_fit_by_meal_budget_people_and_deity():
    ids = lambda cs: [c.id for c in cs]  # noqa: E731
    assert ids(logic.candidates(CATS, None, "lunch", 60, 1)) == ["snacks", "vegetarian"]  # budget reaches 50 and 60
    assert ids(logic.candidates(CATS, None, "dinner", 300, 2)) == [
        "noodles",
        "snacks",
        "vegetarian",
    ]  # hot pot needs 3+
    assert ids(logic.candidates(CATS, None, "dinner", 300, 3)) == ["noodles", "snacks", "vegetarian", "hotpot"]
    assert ids(logic.candidates(CATS, GUANYIN, "dinner", 1000, 4)) == ["vegetarian"]
    assert logic.candidates(CATS, None, "lunch", 40, 1) == []


def test_pick_weighs_the_deitys_categories_three_to_one():
    rng = random.Random(0)
    picks = [logic.pick_category(rng, CATS[:3], TUDIGONG).id for _ in range(5000)]
    assert picks.count("snacks") / len(picks) == pytest.approx(3 / 5, abs=0.03)


def test_week_plan_has_no_repeat_within_the_window():
    rng = random.Random(3)
    big = [
        cat("a", ["lunch", "dinner"], 50, 100, dishes=[f"a{i}" for i in range(10)]),
        cat("b", ["lunch", "dinner"], 50, 100, dishes=[f"b{i}" for i in range(10)]),
    ]
    items, repeats = logic.week_plan(rng, big, TUDIGONG, ["lunch", "dinner"], 100, 14)
    assert len(items) == 28 and repeats == 0
    seen: dict[str, int] = {}
    for item in items:
        if item.dish in seen:
            assert item.day - seen[item.dish] >= logic.REPEAT_WINDOW_DAYS
        seen[item.dish] = item.day
    # with only three dishes for two meals a day, repeats are unavoidable and counted
    items, repeats = logic.week_plan(
        random.Random(1), [cat("c", ["lunch", "dinner"], 50, 100)], TUDIGONG, ["lunch", "dinner"], 100, 3
    )
    assert repeats == 3 and len(items) == 6


def test_nearby_orders_by_distance_and_drops_closed_and_unknown():
    def shop(i, lat, hours):
        return Shop(
            id=f"node/{i}",
            name=str(i),
            lat=lat,
            lon=121.5,
            category="noodles",
            opening_hours=hours,
            source="https://www.openstreetmap.org/node/1",
            checked=date(2026, 11, 23),
        )

    shops = [
        shop(1, 25.010, "24/7"),
        shop(2, 25.001, "24/7"),
        shop(3, 25.002, "Mo-Su 08:00-09:00"),
        shop(4, 25.003, None),
        shop(5, 25.100, "24/7"),
    ]
    found = logic.nearby(shops, 25.0, 121.5, 2000, "noodles", datetime(2026, 11, 24, 12, 0), PH)
    assert [n.shop.id for n in found] == ["node/2", "node/1"]  # 111 m, 1112 m; node/5 is 11 km away
    assert round(found[0].distance_m) == 111
    with_unknown = logic.nearby(shops, 25.0, 121.5, 2000, None, datetime(2026, 11, 24, 12, 0), PH, include_unknown=True)
    assert [n.shop.id for n in with_unknown] == ["node/2", "node/4", "node/1"]
