"""A damped spring, solved exactly, and its CSS linear() form.

The spring moves a unit mass-normalised value from 0 to 1, starting at rest:
    m·x'' + c·x' + k·(x − 1) = 0,  x(0) = 0, x'(0) = 0
with ω0 = √(k/m) and damping ratio ζ = c / (2·√(k·m)). The closed forms:
    ζ < 1 (under-damped):  x = 1 − e^(−ζω0 t)·(cos ωd t + (ζω0/ωd)·sin ωd t),  ωd = ω0·√(1−ζ²)
    ζ = 1 (critical):      x = 1 − e^(−ω0 t)·(1 + ω0 t)
    ζ > 1 (over-damped):   x = 1 − (r2·e^(r1 t) − r1·e^(r2 t)) / (r2 − r1),  r1,2 = −ω0·(ζ ∓ √(ζ²−1))
The spring has settled at the first time after which |1 − x| stays below the tolerance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from twlookup.services.motion.logic.easing import LinearApprox, to_linear

SETTLE_TOLERANCE = 0.001  # |1 − x| below this counts as settled (a tenth of a percent of the distance)
LINEAR_TOLERANCE = 0.002  # RDP tolerance used to simplify the samples
ERROR_BOUND = 0.005  # the linear() is guaranteed within this of the exact curve (checked on every answer)
MAX_DURATION = 10.0  # seconds; a spring that takes longer is not a usable UI spring
CRITICAL_BAND = 1e-9


Regime = Literal["under-damped", "critically-damped", "over-damped"]


class SpringError(ValueError):
    pass


@dataclass(frozen=True)
class Spring:
    stiffness: float
    damping: float
    mass: float

    @property
    def omega0(self) -> float:
        return math.sqrt(self.stiffness / self.mass)

    @property
    def zeta(self) -> float:
        return self.damping / (2 * math.sqrt(self.stiffness * self.mass))

    @property
    def regime(self) -> Regime:
        z = self.zeta
        if abs(z - 1) <= CRITICAL_BAND:
            return "critically-damped"
        return "under-damped" if z < 1 else "over-damped"

    def position(self, t: float) -> float:
        w0, z = self.omega0, self.zeta
        if self.regime == "critically-damped":
            return 1 - math.exp(-w0 * t) * (1 + w0 * t)
        if z < 1:
            wd = w0 * math.sqrt(1 - z * z)
            return 1 - math.exp(-z * w0 * t) * (math.cos(wd * t) + (z * w0 / wd) * math.sin(wd * t))
        root = math.sqrt(z * z - 1)
        r1, r2 = -w0 * (z - root), -w0 * (z + root)
        return 1 - (r2 * math.exp(r1 * t) - r1 * math.exp(r2 * t)) / (r2 - r1)

    @property
    def overshoots(self) -> bool:
        return self.regime == "under-damped"

    @property
    def peak(self) -> float:
        """Largest value reached: 1 + e^(−πζ/√(1−ζ²)) when under-damped, else 1."""
        z = self.zeta
        if not self.overshoots:
            return 1.0
        return 1 + math.exp(-math.pi * z / math.sqrt(1 - z * z))

    def envelope_time(self, tol: float) -> float:
        """A time after which |1 − x| < tol is guaranteed (a bound from the decay envelope)."""
        w0, z = self.omega0, self.zeta
        if z < 1:
            # |1 − x| ≤ e^(−ζω0 t) / √(1 − ζ²)
            return math.log(1 / (tol * math.sqrt(1 - z * z))) / (z * w0)
        # monotonic: find where 1 − x = tol by doubling
        t = 1 / w0
        while 1 - self.position(t) >= tol:
            t *= 2
        return t

    def settle_time(self, tol: float = SETTLE_TOLERANCE) -> float:
        """First time after which |1 − x(t)| < tol for good (found to 1e-6 s)."""
        end = self.envelope_time(tol)
        if end > MAX_DURATION * 4:
            return end
        steps = 20000
        last_out = 0.0
        for i in range(steps + 1):
            t = end * i / steps
            if abs(1 - self.position(t)) >= tol:
                last_out = t
        lo, hi = last_out, min(end, last_out + end / steps)
        for _ in range(60):
            mid = (lo + hi) / 2
            if abs(1 - self.position(mid)) >= tol:
                lo = mid
            else:
                hi = mid
        return hi


@dataclass(frozen=True)
class SpringCurve:
    spring: Spring
    duration: float  # seconds, rounded up to the millisecond
    linear: LinearApprox


def spring_curve(spring: Spring) -> SpringCurve:
    settle = spring.settle_time()
    if settle > MAX_DURATION:
        raise SpringError(
            f"this spring takes {settle:.1f} s to settle within {SETTLE_TOLERANCE}; a usable UI spring "
            f"settles within {MAX_DURATION:.0f} s: raise stiffness or damping, or lower mass"
        )
    duration = math.ceil(settle * 1000) / 1000
    approx = to_linear(lambda u: spring.position(u * duration), tolerance=LINEAR_TOLERANCE)
    if approx.max_error > ERROR_BOUND:  # never expected; fail loudly rather than answer wrong
        raise SpringError(f"linear() error {approx.max_error:.4f} exceeds the bound {ERROR_BOUND}")
    return SpringCurve(spring, duration, approx)
