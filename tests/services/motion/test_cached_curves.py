"""The curve answers that are computed once and kept: the same answers as before the caches
(answers-before-caching.json was taken from the uncached code on 2026-11-26), computed once per
curve, and run off the event loop where a request may compute a new one."""

import json
from pathlib import Path

from twlookup.services.motion import operations

BEFORE = json.loads((Path(__file__).parent / "answers-before-caching.json").read_text())


async def test_easings_answer_is_the_uncached_one_on_every_call(client):
    first = (await client.get("/motion/api/easings")).json()
    misses = operations._curve_facts.cache_info().misses
    second = (await client.get("/motion/api/easings")).json()
    assert first == BEFORE["easings"] and second == BEFORE["easings"]
    assert operations._curve_facts.cache_info().misses == misses  # nothing computed again


async def test_custom_curve_and_spring_answers_are_the_uncached_ones(client):
    params = {"x1": 0.3, "y1": -0.5, "x2": 0.7, "y2": 1.5, "samples": 7}
    for _ in range(2):
        assert (await client.get("/motion/api/easing", params=params)).json() == BEFORE["custom"]
        spring = {"stiffness": 170, "damping": 26, "mass": 1}
        assert (await client.get("/motion/api/spring", params=spring)).json() == BEFORE["spring"]


async def test_a_named_curve_shares_the_list_computation(client):
    await client.get("/motion/api/easings")
    misses = operations._curve_facts.cache_info().misses
    body = (await client.get("/motion/api/easing", params={"name": "easeOutBack", "samples": 5})).json()
    listed = next(e for e in BEFORE["easings"]["easings"] if e["name"] == "ease-out-back")
    assert body == listed and operations._curve_facts.cache_info().misses == misses


def test_the_caches_are_bounded():
    assert operations._curve_facts.cache_info().maxsize == operations.CURVE_CACHE
    assert operations._spring_curve.cache_info().maxsize == operations.CURVE_CACHE


def test_routes_that_may_compute_a_curve_run_off_the_event_loop():
    blocking = {op.path for op in operations.SERVICE.operations if op.blocking}
    assert {"/api/easing", "/api/easings", "/api/spring", "/api/pro/motion-kit", "/api/pro/export"} <= blocking
