"""Parameters and results of the motion service."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import BLANK, LazyModel, Source
from twlookup.services.motion.logic.colour import HEX_COLOUR
from twlookup.services.motion.logic.presets import PRESETS
from twlookup.services.motion.logic.spring import Regime
from twlookup.services.motion.records import A11yRecord, EasingRecord, LibraryRecord, SupportRecord


class SupportRecordAnswer(RecordAnswer, record=SupportRecord):
    """A feature's browser support as the web-features row states it."""


class LibraryRecordAnswer(RecordAnswer, record=LibraryRecord):
    """An animation library as the npm registry describes it."""


class A11yRecordAnswer(RecordAnswer, record=A11yRecord):
    """An item of the accessibility checklist."""


PresetName = Literal[tuple(PRESETS)]  # type: ignore[valid-type]  # made from the presets' names: a checker reads only written-out Literals
StepPosition = Literal["jump-start", "jump-end", "jump-none", "jump-both", "start", "end"]
HEX1 = r"#?(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{4}|[0-9a-fA-F]{3})"
HEX_LIST = rf"^\s*{HEX1}(?:\s*,\s*{HEX1}){{1,7}}\s*$"


class EasingQuery(Params):
    name: str | None = Field(
        None,
        min_length=1,
        max_length=40,
        pattern=r"^[a-zA-Z-]+$",
        description="A CSS keyword (ease, ease-in, ...), step-start/step-end, or a named curve of /api/easings",
    )
    x1: float | None = Field(None, ge=0, le=1, description="First control point x, 0 to 1 (CSS requires it)")
    y1: float | None = Field(None, ge=-5, le=5, description="First control point y (may overshoot)")
    x2: float | None = Field(None, ge=0, le=1, description="Second control point x, 0 to 1")
    y2: float | None = Field(None, ge=-5, le=5, description="Second control point y (may overshoot)")
    steps: int | None = Field(None, ge=1, le=100, description="steps(n, position): number of steps")
    position: StepPosition = Field("jump-end", description="steps() jump position (default jump-end)")
    samples: int = Field(11, ge=2, le=101, description="How many evenly spaced points of the curve to return")


class Point(LazyModel):
    x: float
    y: float


class Easing(RecordAnswer, record=EasingRecord, exclude=("id", "x1", "y1", "x2", "y2")):
    """An easing curve. A named one shows its record: `name` is the record's id, `control_points` its
    x1, y1, x2, y2, and `source` its provenance; a custom curve or steps() has no record."""

    name: str | None
    kind: Literal["keyword", "named", "custom", "steps"]
    css: str = Field(description="The CSS <easing-function> value")
    control_points: list[float] | None = Field(description="x1, y1, x2, y2 of a cubic Bézier")
    overshoots: bool
    points: list[Point] = Field(description="Exact output at evenly spaced inputs (to 1e-9)")
    linear: str | None = Field(
        description="A CSS linear() equivalent (None for steps(), which linear() cannot express exactly)"
    )
    linear_max_error: float | None = Field(
        description="Largest output difference between linear() and the exact curve, over 20,001 inputs"
    )
    source: Source | None


class EasingList(LazyModel):
    count: int
    easings: list[Easing]


class SpringQuery(Params):
    stiffness: float = Field(100, ge=1, le=1000, description="Spring constant k (1 to 1000; default 100)")
    damping: float = Field(10, ge=1, le=200, description="Damping coefficient c (1 to 200; default 10)")
    mass: float = Field(1, ge=0.1, le=10, description="Mass m (0.1 to 10; default 1)")


class SpringAnswer(LazyModel):
    stiffness: float
    damping: float
    mass: float
    damping_ratio: float = Field(description="ζ = c / (2·√(k·m))")
    regime: Regime
    overshoots: bool
    peak: float = Field(description="Largest value reached, as a fraction of the distance (1 = no overshoot)")
    settle_tolerance: float
    duration_ms: int = Field(
        description="Time until |1 − x| stays below settle_tolerance, rounded up to the millisecond"
    )
    linear: str
    points: int
    error_bound: float = Field(description="The linear() is guaranteed within this of the exact solution")
    max_error: float = Field(description="Measured largest difference, over 20,001 inputs")
    css: str = Field(description="A transition using it")
    formula: str


class KeyframesQuery(Params):
    preset: PresetName = Field(description="Preset name")  # type: ignore[valid-type]  # PresetName (above)
    duration: int = Field(300, ge=50, le=5000, description="Duration in ms (50 to 5000; default 300)")


class Keyframes(LazyModel):
    preset: str
    purpose: str
    duration_ms: int
    keyframes: str
    usage_css: str
    reduced_motion_css: str
    usage: str
    presets: list[str]


class GradientQuery(Params):
    colors: str = Field(
        max_length=200,
        pattern=HEX_LIST,
        description="2 to 8 hex colours, comma-separated (#rgb, #rgba, #rrggbb or #rrggbbaa; URL-encode # as %23)",
    )
    type: Literal["linear", "radial", "conic"] = Field("linear", description="Gradient shape")
    angle: int = Field(90, ge=0, le=359, description="Direction in degrees (linear, conic)")
    animate: int = Field(0, ge=0, le=1, description="1: add a flowing animation with its reduced-motion override")


class GradientAnswer(LazyModel):
    colors: list[str]
    type: str
    interpolation: Literal["oklab", "oklch"]
    why: str
    css: str
    fallback_css: str
    animation_css: str | None
    contrast_white_text: float = Field(description="Lowest WCAG contrast of white text over any colour")
    contrast_black_text: float
    contrast_note: str


class VideoQuery(Params):
    width: int = Field(1280, ge=16, le=7680, description="Output width in px (made even)")
    quality: Literal["low", "medium", "high"] = Field("medium", description="Quality level")
    codec: Literal["h264", "vp9", "av1", "all"] = Field("h264", description="h264 (default), vp9, av1 or all")
    audio: bool = Field(False, description="Keep an audio track (default: drop it, for muted loops)")
    height: int | None = Field(
        None, ge=16, le=8704, description="Output height in px, for the AV1 level (default: 16:9 of the width)"
    )
    fps: int = Field(30, ge=1, le=120, description="Frame rate, for the AV1 level (default 30)")


class Flag(LazyModel):
    flag: str
    meaning: str


class VideoCommand(LazyModel):
    codec: str
    command: str
    flags: list[Flag]


class VideoAnswer(LazyModel):
    width: int
    height: int = Field(description="The height the AV1 level was chosen for")
    fps: int
    av1_level: str | None = Field(
        None, description="AV1 level (spec Annex A) for this frame size and rate, as in the codecs string"
    )
    quality: str
    commands: list[VideoCommand]
    html: str


class SupportTable(LazyModel):
    data_package: str
    data_version: str
    checked: date
    count: int
    features: list[SupportRecordAnswer]


class Libraries(LazyModel):
    checked: date
    count: int
    libraries: list[LibraryRecordAnswer]


class A11yChecklist(LazyModel):
    count: int
    items: list[A11yRecordAnswer]


class MotionKitQuery(Params):
    brand: str = Field(
        # whitespace spelled out, not `\s` (read differently by clients and pydantic: platform/schemas.py)
        pattern=f"^{BLANK}*{HEX_COLOUR}{BLANK}*$",
        description="Brand colour in hex (URL-encode # as %23)",
    )
    style: Literal["snappy", "calm", "playful"] = Field("snappy", description="snappy, calm or playful")


class MotionKit(LazyModel):
    brand: str
    style: str
    css_variables: str
    durations_ms: list[int]
    enter: Easing
    exit: Easing
    spring: SpringAnswer
    gradient: GradientAnswer
    keyframes: list[Keyframes]
    contrast_on_white: float
    contrast_on_black: float
    text_colour: Literal["white", "black"]
    usage: list[str]


class Export(LazyModel):
    easings: list[Easing]
    keyframes: list[Keyframes]
    support: SupportTable
    libraries: Libraries
    a11y: A11yChecklist
