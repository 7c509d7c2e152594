"""Independent reference maths for the motion tests: written from the specs, sharing no code with
the service, so that a test compares the service with the spec rather than with itself."""

import math
import re


def bezier_reference(x1, y1, x2, y2, x):
    """Output of cubic-bezier(x1, y1, x2, y2) at x, by plain bisection on the parameter (1e-15)."""

    def coord(a, b, t):
        return 3 * (1 - t) ** 2 * t * a + 3 * (1 - t) * t**2 * b + t**3

    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if coord(x1, x2, mid) < x:
            lo = mid
        else:
            hi = mid
    return coord(y1, y2, (lo + hi) / 2)


def parse_linear(css):
    """A linear() string → [(output, input)], with the Level 2 canonicalisation for missing inputs."""
    body = re.fullmatch(r"linear\((.*)\)", css).group(1)
    points = []
    for part in body.split(","):
        bits = part.split()
        points.append([float(bits[0]), float(bits[1].rstrip("%")) / 100 if len(bits) > 1 else None])
    if points[0][1] is None:
        points[0][1] = 0.0
    if points[-1][1] is None:
        points[-1][1] = 1.0
    for i in range(1, len(points) - 1):
        assert points[i][1] is not None, "the service writes every interior input"
    return [(o, i) for o, i in points]


def eval_linear(points, x):
    for (o1, i1), (o2, i2) in zip(points, points[1:]):
        if i1 <= x <= i2:
            return o1 if i2 == i1 else o1 + (o2 - o1) * (x - i1) / (i2 - i1)
    raise AssertionError(f"{x} outside the linear() range")


def spring_reference(k, c, m, t):
    """The damped spring from 0 to 1 at rest, written out per regime (textbook closed forms)."""
    w0 = math.sqrt(k / m)
    z = c / (2 * math.sqrt(k * m))
    if abs(z - 1) < 1e-12:
        return 1 - math.exp(-w0 * t) * (1 + w0 * t)
    if z < 1:
        wd = w0 * math.sqrt(1 - z * z)
        return 1 - math.exp(-z * w0 * t) * (math.cos(wd * t) + z * w0 / wd * math.sin(wd * t))
    s = math.sqrt(z * z - 1)
    r1, r2 = -w0 * (z - s), -w0 * (z + s)
    return 1 - (r2 * math.exp(r1 * t) - r1 * math.exp(r2 * t)) / (r2 - r1)
