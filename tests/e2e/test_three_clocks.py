"""The whole API at three clocks (issue 21, "one clock"): today, 200 days on and 400 days on.

Every free GET route of every service is asked with its example inputs (tests/services/<name>/
examples.py, the inputs the MCP e2e test uses; list routes with no required input are asked bare,
and with `upcoming=1` where they take it), and every paid GET route is run directly (no payment
gate) with its example. Every JSON answer is walked, whatever its shape, for what a clock that moved
would expose in an answer derived once and kept:

- a countdown below zero (`days_until*`, `days_left`, `days_to*`, `days_remaining`, `countdown`,
  and `days` beside a countdown's `target`);
- something whose date has passed shown as coming (`upcoming: true`, or status/state
  `upcoming` or `scheduled`, with its own date before today; a window's own date is its
  `latest` day);
- a "next" (`next`, `next_*`), an `upcoming*` date or an `upcoming*` list naming a date before today.

An answer that holds nothing the walker reads today (an easing curve, a glossary term: at most a
check date) is not asked again at the later clocks: nothing in it follows the calendar. The walker (`faults`) is tested on hand-made answers first, so that a walk that finds nothing
means the answers are clean, not that the walker is blind.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
import service_examples

from twlookup.platform import clock
from twlookup.services import load_services

TODAY = date(2026, 11, 26)
CLOCKS = (TODAY, TODAY + timedelta(days=200), TODAY + timedelta(days=400))

ISO_DAY = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:$|T)")
COUNTDOWN = re.compile(r"^(days_(until|left|to|remaining)\w*|countdown\w*)$")
# An item's own date, in the order it is taken: a window's last day first (a window that has begun
# but not closed is still coming), then the day it happens or starts.
OWN_DATE_KEYS = (
    "latest",
    "date",
    "start",
    "starts",
    "target",
    "effective",
    "effective_date",
    "release_date",
    "retirement_date",
    "day",
    "earliest",
)
# Where an answer names the day it used: `as_of` wins over the clock (an answer may look from a day
# its caller asked for, but never from another clock)
STATUS_KEYS = ("status", "state")


def _day(value: Any) -> date | None:
    if isinstance(value, str) and (m := ISO_DAY.match(value)):
        try:
            return date.fromisoformat(m.group(1))
        except ValueError:
            return None
    return None


def own_date(item: dict[str, Any]) -> tuple[str, date] | None:
    for key in OWN_DATE_KEYS:
        day = _day(item.get(key))
        if day is not None:
            return key, day
    return None


COMING_STATES = ("upcoming", "scheduled")


def _coming(item: dict[str, Any]) -> bool:
    return item.get("upcoming") is True or any(item.get(k) in COMING_STATES for k in STATUS_KEYS)


def dated(answer: Any) -> bool:
    """The answer holds something the walker reads: an item's own date, a countdown, a next or an
    upcoming (a check date or as_of alone is not: provenance does not follow the calendar)."""
    if isinstance(answer, list):
        return any(dated(v) for v in answer)
    if isinstance(answer, dict):
        return any(
            COUNTDOWN.match(k)
            or k.startswith(("next", "upcoming"))
            or (k in OWN_DATE_KEYS and _day(v) is not None)
            or (k in STATUS_KEYS and v in COMING_STATES)
            or dated(v)
            for k, v in answer.items()
        )
    return False


def faults(answer: Any, today: date, where: str = "$") -> Iterator[str]:
    """Every place in a JSON answer where the date-derived state contradicts `today`."""
    if isinstance(answer, list):
        for i, value in enumerate(answer):
            yield from faults(value, today, f"{where}[{i}]")
        return
    if not isinstance(answer, dict):
        return
    for key, value in answer.items():
        here = f"{where}.{key}"
        countdown = COUNTDOWN.match(key) or (key == "days" and "target" in answer)
        if countdown and isinstance(value, int) and not isinstance(value, bool) and value < 0:
            yield f"{here} = {value}: a negative countdown"
        if key == "next" or key.startswith("next_"):
            day = _day(value) if not isinstance(value, dict) else (own_date(value) or (None, None))[1]
            if day is not None and day < today:
                yield f"{here} names {day}, before today {today}"
        if key.startswith("upcoming") and (day := _day(value)) is not None and day < today:
            yield f"{here} = {day}: upcoming, before today {today}"
        if key.startswith("upcoming") and isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, dict) and (mine := own_date(item)) and mine[1] < today:
                    yield f"{here}[{i}].{mine[0]} = {mine[1]}: listed as upcoming, before today {today}"
        yield from faults(value, today, here)
    if _coming(answer) and (mine := own_date(answer)) and mine[1] < today:
        yield f"{where}.{mine[0]} = {mine[1]}: shown as coming, before today {today}"


# --- the walker on hand-made answers -------------------------------------------------------------


def test_the_walker_finds_each_kind_of_fault():
    today = date(2027, 1, 10)
    answer = {
        "as_of": "2027-01-10",
        "titles": [
            {"id": "a", "upcoming": True, "earliest": "2026-12-18", "latest": "2026-12-18", "days_until": -23},
            {"id": "window", "upcoming": True, "earliest": "2027-01-01", "latest": "2027-03-31", "days_until": None},
        ],
        "events": [{"id": "e", "status": "upcoming", "start": "2027-01-02", "days_until_start": 3}],
        "countdown": {"target": "2027-01-01", "days": -9},
        "next_holiday": {"date": "2027-01-01", "name": "New Year"},
        "next": "2026-12-31",
        "upcoming_changes": [{"starts": "2027-01-05"}, {"starts": "2027-02-01"}],
        "models": [{"id": "m", "days_left": -1}, {"id": "n", "status": "scheduled", "retirement_date": "2027-01-09"}],
        "banlist": {"upcoming_effective": "2027-01-01"},
    }
    found = list(faults(answer, today))
    assert found == [
        "$.titles[0].days_until = -23: a negative countdown",
        "$.titles[0].latest = 2026-12-18: shown as coming, before today 2027-01-10",
        "$.events[0].start = 2027-01-02: shown as coming, before today 2027-01-10",
        "$.countdown.days = -9: a negative countdown",
        "$.next_holiday names 2027-01-01, before today 2027-01-10",
        "$.next names 2026-12-31, before today 2027-01-10",
        "$.upcoming_changes[0].starts = 2027-01-05: listed as upcoming, before today 2027-01-10",
        "$.models[0].days_left = -1: a negative countdown",
        "$.models[1].retirement_date = 2027-01-09: shown as coming, before today 2027-01-10",
        "$.banlist.upcoming_effective = 2027-01-01: upcoming, before today 2027-01-10",
    ]


def test_the_walker_passes_what_is_consistent():
    today = date(2027, 1, 10)
    answer = {
        "titles": [
            {"upcoming": True, "earliest": "2027-01-01", "latest": "2027-03-31"},  # an open window
            {"upcoming": False, "latest": "2026-12-18", "days_until": None, "days_since": 23},
            {"upcoming": True, "latest": None},  # tba
            {"status": "upcoming", "start": "2027-01-10", "days_until_start": 0},  # today
        ],
        "next_draw": {"date": "2027-01-13"},
        "days": -3,  # not beside a countdown's target: e.g. a span
        "days_off": 0,
    }
    assert list(faults(answer, today)) == []


def test_an_answer_without_dates_is_told_from_one_with_them():
    assert not dated({"name": "ease-in-out", "points": [[0.42, 0], [0.58, 1]], "source": {"checked": "2026-11-23"}})
    assert dated({"items": [{"id": "x", "start": "2026-11-23"}]}) and dated({"status": "upcoming"})
    assert dated({"next_draw": None}) and dated({"days_until": None})


# --- the whole API at three clocks ---------------------------------------------------------------


# Inputs of the free GET routes that are not MCP tools and need one (the tools' are in examples.py)
ROUTE_ARGS = {
    ("holiday", "/api/abroad"): {"country": "JP"},
    ("life", "/api/fuel/history"): {"product": "diesel"},
    ("opinions", "/api/search"): {"q": "kindle"},
}


def _shifted(params: dict[str, Any], shift: timedelta) -> dict[str, Any]:
    """An example's days moved with the clock: a departure date that is ahead today stays ahead."""
    out = {}
    for key, value in params.items():
        day = _day(value) if isinstance(value, str) and len(value) == 10 else None
        out[key] = (day + shift).isoformat() if day else value
    return out


def _requests(service: Any, shift: timedelta) -> Iterator[tuple[Any, str, dict[str, Any]]]:
    """(operation, path, params) for each free GET route with its example inputs, and list routes
    again with upcoming=1 where they take it."""
    args = service_examples.tool_args(service.name)
    for op in service.operations:
        if op.method != "GET" or op.paid:
            continue
        params = dict(args.get(op.tool, {})) if op.tool else dict(ROUTE_ARGS.get((service.name, op.path), {}))
        params = _shifted(params, shift)
        path = op.path
        for name in op.path_params:
            if name not in params:
                break
            path = path.replace("{" + name + "}", str(params.pop(name)))
        else:
            yield op, f"/{service.name}{path}", params
            if "upcoming" in op.params.model_fields and "upcoming" not in params:
                yield op, f"/{service.name}{path}", {**params, "upcoming": 1}


def _paid_gets(service: Any) -> Iterator[tuple[Any, dict[str, Any]]]:
    calls = service_examples.pro_calls(service.name)
    for op in service.operations:
        if op.method == "GET" and op.paid and not op.path_params and op.path in calls:
            yield op, dict(calls[op.path].get("params", {}))


@pytest.fixture
def restore_clock():
    saved = clock.fixed_today()
    yield
    clock.set_today(saved)


async def test_no_answer_contradicts_the_clock_at_three_clocks(client, restore_clock):
    services = load_services()
    for service in services:
        await service_examples.prepare(service.name)  # cache upstream answers of the example inputs
    found: list[str] = []
    asked = 0
    undated: set[tuple[str, str]] = set()  # answers with no date in them today are not asked again
    for day in CLOCKS:
        clock.set_today(day)
        for service in services:
            upstream = service_examples.upstream_paths(service.name)
            empty = service_examples.tools_empty_by_design(service.name)
            with service_examples.mocks(service.name):
                for op, path, params in _requests(service, day - TODAY):
                    if day != TODAY and (path, str(params)) in undated:
                        continue
                    r = await client.get(path, params=params)
                    if r.status_code == 503 and op.path in upstream:
                        continue  # an upstream nothing has cached: its documented 503
                    if r.status_code == 401 or (r.status_code == 404 and op.tool in empty):
                        continue  # an operator's route (review queues), or a record the store holds none of
                    if r.status_code != 200:
                        found.append(f"{day} {path} {params}: HTTP {r.status_code} {r.text[:200]}")
                        continue
                    asked += 1
                    found += [f"{day} {path} {params}: {f}" for f in faults(r.json(), day)]
                    if day == TODAY and not dated(r.json()):
                        undated.add((path, str(_shifted(params, CLOCKS[1] - TODAY))))
                        undated.add((path, str(_shifted(params, CLOCKS[2] - TODAY))))
                for op, params in _paid_gets(service):
                    paid = f"/{service.name}{op.path}"
                    if day != TODAY and (paid, "paid") in undated:
                        continue
                    out = op.dump(await op.call(_shifted(params, day - TODAY)))
                    asked += 1
                    found += [f"{day} {paid} (paid): {f}" for f in faults(out, day)]
                    if day == TODAY and not dated(out):
                        undated.add((paid, "paid"))
    assert asked > 300  # every service's routes were asked (those with dates at each clock)
    assert found == [], summary(found)


def summary(found: list[str]) -> str:
    """The faults, one line per route and kind (list positions and day counts folded), with how many."""
    counts: dict[str, int] = {}
    for line in found:
        key = re.sub(r"\[\d+\]", "[*]", re.sub(r"(= |names )-?\d[\d-]*", r"\1…", line))
        counts[key] = counts.get(key, 0) + 1
    return f"{len(found)} faults:\n" + "\n".join(f"{n:4d} x {key}" for key, n in counts.items())
