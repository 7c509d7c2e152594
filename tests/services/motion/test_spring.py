"""The spring against hand-worked values, the equation of motion, and its linear() against the exact curve."""

import importlib.util
import math
from pathlib import Path

import pytest

from twlookup.services.motion.logic.spring import ERROR_BOUND, SETTLE_TOLERANCE, Spring, SpringError, spring_curve

_spec = importlib.util.spec_from_file_location("motion_reference", Path(__file__).with_name("reference.py"))
_ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ref)
eval_linear = _ref.eval_linear
parse_linear = _ref.parse_linear
spring_reference = _ref.spring_reference


CASES = [(100, 10, 1), (170, 26, 1), (100, 20, 1), (100, 40, 1), (400, 40, 1), (50, 30, 2)]


def test_critically_damped_hand_worked():
    s = Spring(100, 20, 1)  # ω0 = 10, ζ = 20 / (2·√100) = 1
    assert s.regime == "critically-damped" and s.zeta == 1
    assert s.position(0.1) == pytest.approx(1 - 2 * math.exp(-1), abs=1e-12)  # 0.264241…
    assert s.position(0.2) == pytest.approx(1 - 3 * math.exp(-2), abs=1e-12)  # 0.593994…


def test_under_damped_overshoot_matches_the_textbook_value():
    s = Spring(100, 10, 1)  # ζ = 0.5: the classic 16.3% overshoot
    assert s.regime == "under-damped" and s.overshoots
    assert s.peak == pytest.approx(1.163, abs=5e-4)
    # the peak is reached at t = π/ωd, ωd = 10·√0.75
    assert s.position(math.pi / (10 * math.sqrt(0.75))) == pytest.approx(s.peak, abs=1e-12)


def test_over_damped_never_overshoots_and_is_slower():
    s = Spring(100, 40, 1)  # ζ = 2
    assert s.regime == "over-damped" and not s.overshoots and s.peak == 1
    values = [s.position(i / 100) for i in range(400)]
    assert all(b >= a for a, b in zip(values, values[1:]))
    assert s.settle_time() > Spring(100, 20, 1).settle_time()


@pytest.mark.parametrize(("k", "c", "m"), CASES)
def test_solution_satisfies_the_equation_of_motion(k, c, m):
    s = Spring(k, c, m)
    h = 1e-4
    for t in (0.05, 0.13, 0.4, 0.9):
        x = s.position(t)
        v = (s.position(t + h) - s.position(t - h)) / (2 * h)
        a = (s.position(t + h) - 2 * x + s.position(t - h)) / (h * h)
        assert m * a + c * v + k * (x - 1) == pytest.approx(0, abs=1e-3 * k)
    assert s.position(0) == pytest.approx(0, abs=1e-12)
    assert (s.position(1e-6) - s.position(0)) / 1e-6 == pytest.approx(0, abs=1e-3)  # starts at rest


@pytest.mark.parametrize(("k", "c", "m"), CASES)
def test_settled_after_the_duration_and_not_before(k, c, m):
    curve = spring_curve(Spring(k, c, m))
    d = curve.duration
    after = [abs(1 - spring_reference(k, c, m, d + i * d / 500)) for i in range(2001)]
    assert max(after) < SETTLE_TOLERANCE
    assert abs(1 - spring_reference(k, c, m, d - 0.002)) >= SETTLE_TOLERANCE * 0.99


@pytest.mark.parametrize(("k", "c", "m"), CASES)
def test_linear_stays_within_its_bound_of_the_exact_solution(k, c, m):
    curve = spring_curve(Spring(k, c, m))
    parsed = parse_linear(curve.linear.css)
    worst = max(
        abs(eval_linear(parsed, i / 4000) - spring_reference(k, c, m, i / 4000 * curve.duration)) for i in range(4001)
    )
    assert worst <= ERROR_BOUND
    assert curve.linear.max_error <= ERROR_BOUND


def test_a_spring_that_never_settles_in_time_is_refused():
    with pytest.raises(SpringError, match="settle"):
        spring_curve(Spring(1, 1, 10))
