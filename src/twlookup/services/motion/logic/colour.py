"""Colours: hex parsing (CSS Color 4 hex notation), OKLab/OKLCH (Björn Ottosson's matrices, as
CSS Color 4 uses them) and WCAG 2.x contrast. Pure maths, no I/O."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from twlookup.platform.schemas import WHITESPACE_CHARS

# a hex colour as written: #rgb, #rgba, #rrggbb or #rrggbbaa, the '#' optional (the `brand` parameter's pattern too)
HEX_COLOUR = r"#?([0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})"
HEX = re.compile(f"^{HEX_COLOUR}$")


@dataclass(frozen=True)
class RGB:
    r: float  # 0..1, gamma-encoded sRGB
    g: float
    b: float
    alpha: float = 1.0

    @property
    def hex(self) -> str:
        def byte(v: float) -> str:
            return f"{max(0, min(255, round(v * 255))):02x}"

        out = "#" + byte(self.r) + byte(self.g) + byte(self.b)
        return out + byte(self.alpha) if self.alpha < 1 else out


def parse_hex(text: str) -> RGB:
    """#rgb, #rgba, #rrggbb or #rrggbbaa (the '#' optional); raises ValueError otherwise."""
    m = HEX.match(text.strip(WHITESPACE_CHARS))  # what the parameter's pattern allows around it
    if not m:
        raise ValueError(f"{text!r} is not a hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa)")
    digits = m.group(1)
    if len(digits) in (3, 4):
        digits = "".join(ch * 2 for ch in digits)
    values = [int(digits[i : i + 2], 16) / 255 for i in range(0, len(digits), 2)]
    return RGB(values[0], values[1], values[2], values[3] if len(values) == 4 else 1.0)


def _to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _from_linear(c: float) -> float:
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def relative_luminance(c: RGB) -> float:
    """WCAG 2.x relative luminance (its definition uses the 0.03928 knee; the result is the same
    to four decimals as the sRGB standard's 0.04045 for 8-bit colours)."""

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05), from 1 to 21."""
    la, lb = relative_luminance(a), relative_luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


@dataclass(frozen=True)
class OKLab:
    L: float
    a: float
    b: float

    @property
    def chroma(self) -> float:
        return math.hypot(self.a, self.b)

    @property
    def hue(self) -> float:
        return math.degrees(math.atan2(self.b, self.a)) % 360


def _cbrt(v: float) -> float:
    return math.copysign(abs(v) ** (1 / 3), v)


def to_oklab(c: RGB) -> OKLab:
    r, g, b = _to_linear(c.r), _to_linear(c.g), _to_linear(c.b)
    l_ = _cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
    m_ = _cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
    s_ = _cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
    return OKLab(
        0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
        1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
        0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_,
    )


def from_oklab(c: OKLab, alpha: float = 1.0) -> RGB:
    l_ = c.L + 0.3963377774 * c.a + 0.2158037573 * c.b
    m_ = c.L - 0.1055613458 * c.a - 0.0638541728 * c.b
    s_ = c.L - 0.0894841775 * c.a - 1.2914855480 * c.b
    lc, mc, sc = l_**3, m_**3, s_**3  # the LMS cone responses
    r = 4.0767416621 * lc - 3.3077115913 * mc + 0.2309699292 * sc
    g = -1.2684380046 * lc + 2.6097574011 * mc - 0.3413193965 * sc
    b = -0.0041960863 * lc - 0.7034186147 * mc + 1.7076147010 * sc
    clamp = lambda v: max(0.0, min(1.0, _from_linear(max(0.0, v))))  # noqa: E731  (gamut clip)
    return RGB(clamp(r), clamp(g), clamp(b), alpha)


def mix_oklab(a: RGB, b: RGB, t: float) -> RGB:
    x, y = to_oklab(a), to_oklab(b)
    return from_oklab(
        OKLab(x.L + (y.L - x.L) * t, x.a + (y.a - x.a) * t, x.b + (y.b - x.b) * t), a.alpha + (b.alpha - a.alpha) * t
    )


def mix_oklch(a: RGB, b: RGB, t: float) -> RGB:
    """Interpolate in OKLCH along the shorter hue arc (CSS Color 4's default hue method)."""
    x, y = to_oklab(a), to_oklab(b)
    h1, h2 = x.hue, y.hue
    dh = (h2 - h1 + 180) % 360 - 180
    h = math.radians(h1 + dh * t)
    ch = x.chroma + (y.chroma - x.chroma) * t
    return from_oklab(
        OKLab(x.L + (y.L - x.L) * t, ch * math.cos(h), ch * math.sin(h)), a.alpha + (b.alpha - a.alpha) * t
    )


def greys_in_oklab(a: RGB, b: RGB) -> bool:
    """True when the OKLab midpoint of two chromatic colours loses most of their chroma (the 'grey
    dead zone' of mixing near-complementary hues)."""
    x, y = to_oklab(a), to_oklab(b)
    low = min(x.chroma, y.chroma)
    if low < 0.03:  # one end is (nearly) grey already: nothing to lose
        return False
    mid = OKLab((x.L + y.L) / 2, (x.a + y.a) / 2, (x.b + y.b) / 2)
    return mid.chroma < 0.5 * low
