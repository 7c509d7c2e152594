"""Easing functions as CSS Easing Level 1 and 2 define them: cubic-bezier(), steps() and linear().

Pure maths, no I/O. A cubic Bézier easing has P0 = (0, 0) and P3 = (1, 1); for an input
progress x we find the curve parameter t with X(t) = x (Newton's method, falling back to
bisection, to 1e-12) and answer Y(t). steps() follows the spec's step algorithm; linear()
follows Level 2's rules for missing and out-of-order inputs and extrapolates past its ends.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# CSS Easing Functions Level 1, section 2.2 (cubic Bézier easing functions): the keywords.
KEYWORDS: dict[str, tuple[float, float, float, float]] = {
    "linear": (0.0, 0.0, 1.0, 1.0),
    "ease": (0.25, 0.1, 0.25, 1.0),
    "ease-in": (0.42, 0.0, 1.0, 1.0),
    "ease-out": (0.0, 0.0, 0.58, 1.0),
    "ease-in-out": (0.42, 0.0, 0.58, 1.0),
}
# Level 1, section 2.3 (step easing functions): the two step keywords.
STEP_KEYWORDS: dict[str, tuple[int, str]] = {"step-start": (1, "jump-start"), "step-end": (1, "jump-end")}
STEP_POSITIONS = ("jump-start", "jump-end", "jump-none", "jump-both", "start", "end")


def _bezier(a: float, b: float, t: float) -> float:
    """One coordinate of the cubic with control values 0, a, b, 1 at parameter t."""
    u = 1.0 - t
    return 3 * u * u * t * a + 3 * u * t * t * b + t * t * t


def _bezier_slope(a: float, b: float, t: float) -> float:
    u = 1.0 - t
    return 3 * u * u * a + 6 * u * t * (b - a) + 3 * t * t * (1 - b)


@dataclass(frozen=True)
class CubicBezier:
    x1: float
    y1: float
    x2: float
    y2: float

    def __post_init__(self) -> None:
        if not (0.0 <= self.x1 <= 1.0 and 0.0 <= self.x2 <= 1.0):
            raise ValueError("x1 and x2 must lie in [0, 1]")

    def solve_t(self, x: float) -> float:
        """The curve parameter t in [0, 1] with X(t) = x (X is monotonic when x1, x2 are in [0, 1])."""
        if x <= 0.0:
            return 0.0
        if x >= 1.0:
            return 1.0
        t = x
        for _ in range(8):
            err = _bezier(self.x1, self.x2, t) - x
            if abs(err) < 1e-12:
                return t
            slope = _bezier_slope(self.x1, self.x2, t)
            if abs(slope) < 1e-9:
                break
            t -= err / slope
            if not 0.0 <= t <= 1.0:
                break
        lo, hi = 0.0, 1.0
        t = x
        for _ in range(200):
            value = _bezier(self.x1, self.x2, t)
            if abs(value - x) < 1e-13:
                break
            if value < x:
                lo = t
            else:
                hi = t
            t = (lo + hi) / 2
        return t

    def __call__(self, x: float) -> float:
        """Output progress for input progress x. Outside [0, 1] the spec extends the curve along
        the tangent at its end point; inputs here stay in [0, 1]."""
        if x <= 0.0:
            return 0.0 if self.x1 == 0 and self.y1 == 0 else self._extend_start(x)
        if x >= 1.0:
            return 1.0 if x == 1.0 else self._extend_end(x)
        return _bezier(self.y1, self.y2, self.solve_t(x))

    def _extend_start(self, x: float) -> float:
        if x == 0.0:
            return 0.0
        if self.x1 > 0:
            return self.y1 / self.x1 * x
        if self.x2 > 0:
            return self.y2 / self.x2 * x
        return 0.0

    def _extend_end(self, x: float) -> float:
        if self.x2 < 1:
            return 1.0 + (self.y2 - 1.0) / (self.x2 - 1.0) * (x - 1.0)
        if self.x1 < 1:
            return 1.0 + (self.y1 - 1.0) / (self.x1 - 1.0) * (x - 1.0)
        return 1.0

    @property
    def css(self) -> str:
        return f"cubic-bezier({fmt(self.x1)}, {fmt(self.y1)}, {fmt(self.x2)}, {fmt(self.y2)})"

    @property
    def overshoots(self) -> bool:
        """True when the output leaves [0, 1] somewhere in the input range."""
        return any(not -1e-12 <= self(i / 400) <= 1 + 1e-12 for i in range(401))


def steps(x: float, n: int, position: str = "jump-end") -> float:
    """CSS Easing Level 1, 2.3.1: the output of steps(n, position) for input progress x in [0, 1]."""
    if n < 1 or (position == "jump-none" and n < 2):
        raise ValueError("steps() needs at least 1 step, and at least 2 for jump-none")
    position = {"start": "jump-start", "end": "jump-end"}.get(position, position)
    step = math.floor(x * n)
    if position in ("jump-start", "jump-both"):
        step += 1
    if x >= 0 and step < 0:
        step = 0
    jumps = {"jump-both": n + 1, "jump-none": n - 1}.get(position, n)
    if x <= 1 and step > jumps:
        step = jumps
    return step / jumps


@dataclass(frozen=True)
class LinearStop:
    output: float
    input: float  # after the spec's fix-up: every stop has an input, non-decreasing


def canonical_linear(points: Sequence[tuple[float, float | None]]) -> list[LinearStop]:
    """Level 2, "linear() canonicalization": points are (output, input-or-None). A missing first
    input is 0, a missing last input is 1, an input below an earlier one is raised to it, and runs
    of missing inputs are spread evenly between their neighbours."""
    if len(points) < 2:
        raise ValueError("linear() needs at least two points")
    inputs: list[float | None] = [p[1] for p in points]
    if inputs[0] is None:
        inputs[0] = 0.0
    if inputs[-1] is None:
        inputs[-1] = max(1.0, max(i for i in inputs if i is not None))
    largest = -math.inf
    for i, value in enumerate(inputs):
        if value is not None:
            largest = max(largest, value)
            inputs[i] = largest
    i = 0
    while i < len(inputs):
        if inputs[i] is None:
            j = i
            while inputs[j] is None:
                j += 1
            start, end = inputs[i - 1], inputs[j]
            assert start is not None and end is not None
            gap = j - i + 1
            for k in range(i, j):
                inputs[k] = start + (end - start) * (k - i + 1) / gap
            i = j
        i += 1
    return [LinearStop(points[k][0], inputs[k]) for k in range(len(points))]  # type: ignore[arg-type]  # no None is left: each gap was filled above


def evaluate_linear(stops: Sequence[LinearStop], x: float) -> float:
    """Level 2, "linear() easing function output": piecewise linear through the stops; past the
    ends it extends the first or last segment; at a repeated input the later stop wins."""
    if x < stops[0].input or x > stops[-1].input or len(stops) == 1:
        a, b = (stops[0], stops[1]) if x < stops[0].input else (stops[-2], stops[-1])
    else:
        index = bisect.bisect_right([s.input for s in stops], x) - 1
        if index >= len(stops) - 1:
            return stops[-1].output
        a, b = stops[index], stops[index + 1]
    if b.input == a.input:
        return b.output
    return a.output + (b.output - a.output) * (x - a.input) / (b.input - a.input)


def rdp(points: Sequence[tuple[float, float]], tolerance: float) -> list[tuple[float, float]]:
    """Ramer–Douglas–Peucker in the output direction: keep the fewest points such that every
    dropped sample lies within `tolerance` (vertically) of the polyline kept."""
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        (x0, y0), (x1, y1) = points[first], points[last]
        worst, where = -1.0, -1
        for k in range(first + 1, last):
            x, y = points[k]
            line = y0 + (y1 - y0) * (x - x0) / (x1 - x0) if x1 != x0 else y0
            d = abs(y - line)
            if d > worst:
                worst, where = d, k
        if worst > tolerance and where > 0:
            keep[where] = True
            stack.extend([(first, where), (where, last)])
    return [p for p, k in zip(points, keep, strict=True) if k]


def fmt(value: float, places: int = 3) -> str:
    """A number as CSS writes it: rounded, no trailing zeros, no '-0'."""
    text = f"{round(value, places):.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@dataclass(frozen=True)
class LinearApprox:
    css: str
    points: int
    max_error: float  # measured against the exact function on a dense grid


def to_linear(
    fn: Callable[[float], float], tolerance: float = 0.002, samples: int = 2000, check: int = 20000
) -> LinearApprox:
    """A CSS linear() that follows `fn` on [0, 1]: sample, simplify (RDP), round outputs to 3
    decimals and inputs to 2 decimals of a percent (0% and 100% are left implied); then measure
    the real error against `fn` on a finer grid."""
    pts = [(i / samples, fn(i / samples)) for i in range(samples + 1)]
    kept = rdp(pts, tolerance)
    stops: list[tuple[float, float | None]] = []
    for k, (x, y) in enumerate(kept):
        out = round(y, 3)
        inp: float | None = round(x * 100, 2) / 100
        if k in (0, len(kept) - 1):
            inp = None  # 0% and 100% are implied
        stops.append((out, inp))
    parts = [fmt(out) if inp is None else f"{fmt(out)} {fmt(inp * 100, 2)}%" for out, inp in stops]
    canonical = canonical_linear([(o, i) for o, i in stops])
    error = max(abs(evaluate_linear(canonical, i / check) - fn(i / check)) for i in range(check + 1))
    return LinearApprox(css=f"linear({', '.join(parts)})", points=len(stops), max_error=error)
