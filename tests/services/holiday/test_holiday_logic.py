"""Pure rules of the holiday service: the leave planner against brute force, hand-checked breaks,
the crowd rule and the flight verdicts (with `today` passed in)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from yaml_files import load_yaml

from twlookup.cli import DEFAULT_DATA
from twlookup.domain.taiwan_calendar import Break, DayOff, TaiwanCalendar, YearSource
from twlookup.services.holiday.logic import (
    CROWD_RULE,
    YearGrid,
    assess_crowd,
    crowd_level,
    flight_advice,
    long_weekends_between,
    peak_reasons,
    plan_leave,
    rank_key,
)
from twlookup.services.holiday.records import FlightRule, Peak

DOC = load_yaml((DEFAULT_DATA / "calendar" / "taiwan.yaml").read_text(encoding="utf-8"))
ONE = timedelta(days=1)


def load_calendar() -> TaiwanCalendar:
    years, days, makeups = {}, {}, {}
    for year, spec in DOC["years"].items():
        years[int(year)] = YearSource(int(year), spec["source"], spec.get("source_title"), spec["checked"], True)
        for d in spec["days_off"]:
            days[d["date"]] = DayOff(d["date"], d["name_zh"], d["name_en"], d["kind"])
        for m in spec.get("makeup_workdays") or []:
            makeups[m["date"]] = m.get("for")
    return TaiwanCalendar(years, days, makeups)


CAL = load_calendar()


def brute_force(cal: TaiwanCalendar, year: int, leave: int) -> list[tuple[date, date, tuple[date, ...]]]:
    """Every plan by definition, O(n^2) over a wide window, sorted by the ranking rule."""
    first, last = date(year - 1, 11, 1), date(year + 1, 2, 28)
    days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
    out = []
    for i, s in enumerate(days):
        if cal.is_day_off(s - ONE):
            continue  # the day before must be a workday
        taken: list[date] = []
        ok = True
        for e in days[i:]:
            if not cal.is_day_off(e):
                if e.year != year:
                    ok = False  # a workday outside the year cannot be taken as leave
                taken.append(e)
            if not ok or len(taken) > leave:
                continue  # keep enumerating: no shortcut beyond the definition
            if cal.is_day_off(e + ONE):
                continue  # the day after must be a workday
            if e < date(year, 1, 1) or s > date(year, 12, 31):
                continue  # must touch the year
            out.append((s, e, tuple(taken)))
    out.sort(key=lambda p: rank_key((p[1] - p[0]).days + 1, len(p[2]), p[0]))
    return out


@pytest.mark.parametrize("leave", range(11))
def test_planner_matches_brute_force(leave):
    expected = brute_force(CAL, 2027, leave)
    got = [(p.start, p.end, p.leave_dates) for p in YearGrid(CAL, 2027).ranked(leave)]
    assert got == expected  # the whole ranked list, not only the top
    assert (expected[0][1] - expected[0][0]).days + 1 == plan_leave(CAL, 2027, leave, 1)[0].days
    top = plan_leave(CAL, 2027, leave, 20)
    assert [(p.start, p.end, p.leave_dates) for p in top] == expected[:20]


def test_no_leave_best_is_lunar_new_year():
    best = plan_leave(CAL, 2027, 0, 1)[0]
    assert (best.start, best.end, best.days, best.leave_days) == (date(2027, 2, 4), date(2027, 2, 10), 7, 0)
    assert best.efficiency is None
    assert {h.name_en for h in best.holidays} >= {"Lunar New Year's Eve", "Lunar New Year (day 1)"}


def test_one_leave_day_makes_eight_days_around_lunar_new_year():
    plans = plan_leave(CAL, 2027, 1, 8)
    assert [(p.start, p.end, p.leave_dates) for p in plans[:2]] == [
        (date(2027, 2, 3), date(2027, 2, 10), (date(2027, 2, 3),)),
        (date(2027, 2, 4), date(2027, 2, 11), (date(2027, 2, 11),)),
    ]
    assert plans[0].days == 8 and plans[0].efficiency == 8.0
    # ties on length put the plan with no leave first
    lengths = [(p.days, p.leave_days) for p in plans]
    assert lengths == sorted(lengths, key=lambda x: (-x[0], x[1]))


def test_plans_are_exactly_bounded_and_use_only_2027_workdays():
    for plan in plan_leave(CAL, 2027, 5, 20):
        assert not CAL.is_day_off(plan.start - ONE) and not CAL.is_day_off(plan.end + ONE)
        day = plan.start
        while day <= plan.end:
            assert CAL.is_day_off(day) or (day in plan.leave_dates and day.year == 2027)
            day += ONE
        assert plan.leave_days <= 5


def test_year_end_plan_cannot_take_2028_leave():
    # 2027-12-31 (observed) to 2028-01-02: 2028 workdays cannot extend it
    plans = list(YearGrid(CAL, 2027).ranked(3))
    assert all(d.year == 2027 for p in plans for d in p.leave_dates)
    assert any(p.end == date(2028, 1, 2) for p in plans)


def test_nine_long_weekends_as_listed_in_the_data():
    listed = [(w["start"], w["end"], w["days"]) for w in DOC["years"][2027]["long_weekends"]]
    got = [(b.start, b.end, b.days) for b in CAL.long_weekends(2027)]
    assert len(got) == 9
    assert got == listed


@pytest.mark.parametrize("leave", range(1, 6))
def test_best_containing_matches_brute_force(leave):
    grid = YearGrid(CAL, 2027)
    every = brute_force(CAL, 2027, leave)
    for b in CAL.long_weekends(2027):
        best = grid.best_containing(b.start, b.end, leave)
        expected = next((p for p in every if p[0] <= b.start and b.end <= p[1]), None)
        assert expected is not None
        assert best is not None and (best.start, best.end, best.leave_dates) == expected


def test_strategy_for_lunar_new_year_with_five_days():
    best = YearGrid(CAL, 2027).best_containing(date(2027, 2, 4), date(2027, 2, 10), 5)
    assert best is not None
    # Sat 30 Jan to Sun 14 Feb: leave Mon 1 to Wed 3 and Thu 11 to Fri 12 = 16 days
    assert (best.start, best.end, best.days, best.leave_days) == (date(2027, 1, 30), date(2027, 2, 14), 16, 5)


# ---------------------------------------------------------------- crowd rule


def peak(level: str, start: date, end: date, name: str = "Peak") -> Peak:
    return Peak(
        country="JP",
        name_en=name,
        name_zh=name,
        start=start,
        end=end,
        level=level,
        why="why",
        source="https://example.org",
        checked=date(2026, 11, 22),
    )


@pytest.mark.parametrize(
    ("points", "level"),
    [(0, "low"), (1, "medium"), (2, "medium"), (3, "high"), (5, "high"), (6, "very high"), (12, "very high")],
)
def test_crowd_levels(points, level):
    assert crowd_level(points) == level


def test_crowd_quiet_range_is_low():
    c = assess_crowd(date(2027, 6, 14), date(2027, 6, 18), [peak("high", date(2027, 8, 1), date(2027, 8, 5))], [], [])
    assert (c.level, c.points, c.factors) == ("low", 0, ())


def test_crowd_adds_points_per_factor_and_caps_holidays():
    peaks = [
        peak("high", date(2027, 5, 1), date(2027, 5, 5), "GW"),
        peak("medium", date(2027, 5, 4), date(2027, 5, 30), "M"),
    ]
    hols = [(date(2027, 5, d), f"H{d}") for d in (3, 4, 5, 6)] + [(date(2027, 7, 1), "outside")]
    lw = Break(date(2027, 4, 30), date(2027, 5, 2), ())
    c = assess_crowd(date(2027, 5, 1), date(2027, 5, 10), peaks, hols, [lw])
    # 3 (high) + 2 (medium) + 3 (four holidays, capped) + 2 (Taiwan long weekend) = 10
    assert c.points == 10 and c.level == "very high"
    assert [f.points for f in c.factors if f.kind == "destination_holiday"] == [1, 1, 1, 0]
    assert "+3 for each overlapping high peak" in CROWD_RULE


def test_crowd_single_holiday_is_medium_and_long_weekend_high():
    c = assess_crowd(date(2027, 1, 11), date(2027, 1, 11), [], [(date(2027, 1, 11), "Coming of Age Day")], [])
    assert (c.points, c.level) == (1, "medium")
    lws = long_weekends_between(CAL, date(2027, 10, 8), date(2027, 10, 12))
    c = assess_crowd(
        date(2027, 10, 8), date(2027, 10, 12), [peak("medium", date(2027, 10, 1), date(2027, 10, 31))], [], lws
    )
    assert (c.points, c.level) == (4, "high")


# ---------------------------------------------------------------- flight verdicts

RULE = {"explain": "e", "source": "https://s", "peak_source": "https://p", "checked": date(2026, 11, 22)}
SHORT = FlightRule(haul="short_haul", countries=("JP",), best_min_days=21, best_max_days=56, peak_min_days=180, **RULE)
LONG = FlightRule(haul="long_haul", countries=("US",), best_min_days=50, best_max_days=101, peak_min_days=129, **RULE)
TODAY = date(2026, 11, 22)


@pytest.mark.parametrize(
    ("rule", "days", "peak", "verdict"),
    [
        (SHORT, 0, False, "last minute"),
        (SHORT, 20, True, "last minute"),
        (SHORT, 21, False, "good window"),
        (SHORT, 56, False, "good window"),
        (SHORT, 57, False, "early: watch fares"),
        (SHORT, 100, True, "book now"),  # peak, advised lead time already passed
        (SHORT, 200, True, "book now"),  # peak, inside the advised lead time
        (LONG, 30, False, "book now"),  # past the best window, not yet last minute
        (LONG, 50, False, "good window"),
        (LONG, 101, False, "good window"),
        (LONG, 102, False, "early: watch fares"),
        (LONG, 140, True, "book now"),
    ],
)
def test_flight_verdicts(rule, days, peak, verdict):
    advice = flight_advice(TODAY + timedelta(days=days), TODAY, rule, 21, ["peak"] if peak else [])
    assert advice.verdict == verdict
    assert advice.days_left == days and advice.peak == peak
    assert advice.best_window == (
        TODAY + timedelta(days=days - rule.best_max_days),
        TODAY + timedelta(days=days - rule.best_min_days),
    )


def test_flight_past_departure_is_rejected():
    with pytest.raises(ValueError):
        flight_advice(TODAY - ONE, TODAY, SHORT, 21, [])


def test_peak_reasons_from_peaks_and_taiwan_long_weekends():
    lws = long_weekends_between(CAL, date(2027, 2, 1), date(2027, 2, 28))
    assert peak_reasons(date(2027, 2, 3), [], lws)  # the evening before Lunar New Year
    assert not peak_reasons(date(2027, 2, 2), [], lws)
    assert peak_reasons(date(2027, 5, 3), [peak("high", date(2027, 4, 29), date(2027, 5, 5))], [])
