"""Easing maths against CSS Easing Level 1/2 (keywords, cubic-bezier, steps, linear())."""

import importlib.util
from pathlib import Path

import pytest

from twlookup.services.motion.logic.easing import (
    KEYWORDS,
    CubicBezier,
    canonical_linear,
    evaluate_linear,
    steps,
    to_linear,
)

_spec = importlib.util.spec_from_file_location("motion_reference", Path(__file__).with_name("reference.py"))
_ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ref)
bezier_reference = _ref.bezier_reference
eval_linear = _ref.eval_linear
parse_linear = _ref.parse_linear


# CSS Easing Functions Level 1, 2.2: the keyword definitions, copied from the spec text.
SPEC_KEYWORDS = {
    "linear": (0, 0, 1, 1),
    "ease": (0.25, 0.1, 0.25, 1),
    "ease-in": (0.42, 0, 1, 1),
    "ease-out": (0, 0, 0.58, 1),
    "ease-in-out": (0.42, 0, 0.58, 1),
}


def test_keywords_are_the_specs_control_points():
    assert {k: tuple(float(v) for v in pts) for k, pts in SPEC_KEYWORDS.items()} == KEYWORDS


@pytest.mark.parametrize("name", list(SPEC_KEYWORDS))
def test_bezier_agrees_with_an_independent_solver_to_1e6(name):
    curve = CubicBezier(*SPEC_KEYWORDS[name])
    for i in range(1001):
        x = i / 1000
        assert curve(x) == pytest.approx(bezier_reference(*SPEC_KEYWORDS[name], x), abs=1e-6)


def test_overshooting_curve_and_symmetry():
    back = CubicBezier(0.34, 1.56, 0.64, 1)  # easings.net easeOutBack
    assert back.overshoots and max(back(i / 100) for i in range(101)) > 1.05
    assert back(0.4) == pytest.approx(bezier_reference(0.34, 1.56, 0.64, 1, 0.4), abs=1e-6)
    inout = CubicBezier(0.42, 0, 0.58, 1)  # point-symmetric control points: f(x) + f(1 − x) = 1
    for x in (0.1, 0.27, 0.5, 0.8):
        assert inout(x) + inout(1 - x) == pytest.approx(1, abs=1e-9)
    assert inout(0.5) == pytest.approx(0.5, abs=1e-12)
    assert CubicBezier(0, 0, 1, 1)(0.37) == pytest.approx(0.37, abs=1e-9)


def test_x_outside_0_1_is_refused():
    with pytest.raises(ValueError):
        CubicBezier(1.2, 0, 0.5, 1)


@pytest.mark.parametrize(
    ("n", "position", "x", "expected"),
    [
        # worked from the step algorithm of Level 1, 2.3.1
        (4, "jump-end", 0.0, 0.0),
        (4, "jump-end", 0.2499, 0.0),
        (4, "jump-end", 0.25, 0.25),
        (4, "jump-end", 1.0, 1.0),
        (4, "end", 0.6, 0.5),
        (4, "jump-start", 0.0, 0.25),
        (4, "start", 0.74, 0.75),
        (4, "jump-start", 1.0, 1.0),
        (5, "jump-none", 0.0, 0.0),
        (5, "jump-none", 0.2, 0.25),
        (5, "jump-none", 1.0, 1.0),
        (4, "jump-both", 0.0, 0.2),
        (4, "jump-both", 0.5, 0.6),
        (4, "jump-both", 1.0, 1.0),
        (1, "jump-start", 0.0, 1.0),  # step-start
        (1, "jump-end", 0.99, 0.0),  # step-end
    ],
)
def test_steps_follow_the_spec(n, position, x, expected):
    assert steps(x, n, position) == pytest.approx(expected)


def test_steps_jump_none_needs_two():
    with pytest.raises(ValueError):
        steps(0.5, 1, "jump-none")


def test_linear_canonicalisation_and_output():
    # Level 2 examples: missing inputs are spread evenly, first/last default to 0%/100%.
    stops = canonical_linear([(0, None), (0.5, None), (1, None)])
    assert [s.input for s in stops] == [0, 0.5, 1]
    stops = canonical_linear([(0, None), (0.25, 0.75), (1, None)])
    assert evaluate_linear(stops, 0.375) == pytest.approx(0.125)
    assert evaluate_linear(stops, 0.875) == pytest.approx(0.625)
    # an input smaller than an earlier one is raised to it
    stops = canonical_linear([(0, None), (0.5, 0.6), (0.7, 0.2), (1, None)])
    assert [s.input for s in stops] == [0, 0.6, 0.6, 1]
    # outside the range: extrapolate the first / last segment
    stops = canonical_linear([(0, None), (1, None)])
    assert evaluate_linear(stops, 1.5) == pytest.approx(1.5)
    assert evaluate_linear(stops, -0.5) == pytest.approx(-0.5)


@pytest.mark.parametrize("pts", [SPEC_KEYWORDS["ease"], (0.68, -0.6, 0.32, 1.6), (0.16, 1, 0.3, 1)])
def test_linear_equivalent_stays_close_to_the_exact_curve(pts):
    approx = to_linear(CubicBezier(*pts), tolerance=0.001)
    parsed = parse_linear(approx.css)
    worst = max(abs(eval_linear(parsed, i / 2000) - bezier_reference(*pts, i / 2000)) for i in range(2001))
    assert worst <= 0.0016  # RDP tolerance 0.001 + output rounding 0.0005 + input rounding
    assert approx.max_error == pytest.approx(worst, abs=2e-4)
