"""The motion service's operations: thin adapters from parameters to the maths and the data."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import date
from typing import Literal

from twlookup.platform.errors import InvalidParameter, NotFound, Problem
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.records import SourcedRecord, as_answer, from_attributes
from twlookup.platform.service import Service
from twlookup.services.motion import logic
from twlookup.services.motion.data import CATALOGUE, Catalogue
from twlookup.services.motion.feeds import LIBRARIES, SUPPORT
from twlookup.services.motion.logic import colour
from twlookup.services.motion.logic.easing import STEP_KEYWORDS, CubicBezier, LinearApprox, steps, to_linear
from twlookup.services.motion.logic.presets import PRESETS
from twlookup.services.motion.logic.spring import (
    ERROR_BOUND,
    SETTLE_TOLERANCE,
    Spring,
    SpringCurve,
    SpringError,
    spring_curve,
)
from twlookup.services.motion.records import EasingRecord
from twlookup.services.motion.schemas import (
    A11yChecklist,
    A11yRecordAnswer,
    Easing,
    EasingList,
    EasingQuery,
    Export,
    Flag,
    GradientAnswer,
    GradientQuery,
    Keyframes,
    KeyframesQuery,
    Libraries,
    LibraryRecordAnswer,
    MotionKit,
    MotionKitQuery,
    Point,
    SpringAnswer,
    SpringQuery,
    SupportRecordAnswer,
    SupportTable,
    VideoAnswer,
    VideoCommand,
    VideoQuery,
)

SERVICE = Service(
    name="motion",
    title="Web animation generators",
    description=(
        "Easing curves (CSS cubic-bezier(), steps() and linear() as CSS Easing Level 1 and 2 define them), "
        "exact damped springs as CSS linear(), keyframe presets with reduced-motion variants, perceptual "
        "gradients, web-video ffmpeg commands, browser support (web-features), animation libraries and an "
        "accessibility checklist (WCAG 2.2). Paid routes settle on the test network."
    ),
    network="testnet",
)
SERVICE.feed(SUPPORT)  # web-features' released data.json (twlookup refresh motion.support)
SERVICE.feed(LIBRARIES)  # the libraries' npm registry documents (twlookup refresh motion.libraries)
add_status_route(SERVICE)


# The linear() of a curve samples it 22,000 times (about 0.1 s of CPU): each curve's is computed
# once and kept, the named curves' on the first call of /api/easings (in a worker thread), a
# user's own curve on its first request. The caches are bounded; the routes that may compute run
# off the event loop (blocking=True), so a stream of new curves costs their caller, not the loop.
CURVE_CACHE = 1024


@functools.lru_cache(maxsize=CURVE_CACHE)
def _curve_facts(curve: CubicBezier) -> tuple[LinearApprox, bool]:
    """The curve's linear() equivalent and whether it overshoots (both constant for the curve)."""
    return to_linear(curve, tolerance=0.001), curve.overshoots


@functools.lru_cache(maxsize=CURVE_CACHE)
def _spring_curve(spring: Spring) -> SpringCurve:
    return spring_curve(spring)


def _bezier_answer(
    name: str | None,
    kind: Literal["keyword", "named", "custom"],
    curve: CubicBezier,
    samples: int,
    record: EasingRecord | None,
) -> Easing:
    approx, overshoots = _curve_facts(curve)
    return Easing(
        name=name,
        kind=kind,
        css=name if kind == "keyword" and name else curve.css,
        control_points=[curve.x1, curve.y1, curve.x2, curve.y2],
        overshoots=overshoots,
        points=[Point(x=i / (samples - 1), y=round(curve(i / (samples - 1)), 9)) for i in range(samples)],
        linear=approx.css,
        linear_max_error=round(approx.max_error, 6),
        source=record.source_ref if record else None,
    )


def _steps_answer(name: str | None, n: int, position: str, samples: int) -> Easing:
    css = name or f"steps({n}, {position})"
    return Easing(
        name=name,
        kind="steps",
        css=css,
        control_points=None,
        overshoots=False,
        points=[Point(x=i / (samples - 1), y=steps(i / (samples - 1), n, position)) for i in range(samples)],
        linear=None,
        linear_max_error=None,
        source=None,
    )


def _named(catalogue: Catalogue, name: str, samples: int) -> Easing:
    key = name.lower()
    if key in STEP_KEYWORDS:
        n, position = STEP_KEYWORDS[key]
        return _steps_answer(key, n, position, samples)
    record = catalogue.easings.get(key) or catalogue.easings.get(_kebab(name))
    if record is None:
        raise NotFound("easing", name, "List the names at /api/easings.")
    return _bezier_answer(
        record.id, record.kind, CubicBezier(record.x1, record.y1, record.x2, record.y2), samples, record
    )


def _kebab(name: str) -> str:
    return "".join("-" + c.lower() if c.isupper() else c for c in name).lstrip("-")


@SERVICE.operation("GET", "/api/easing", tool="generate_easing", blocking=True)
def easing(p: EasingQuery) -> Easing:
    """An easing curve by name, by control points (x1, y1, x2, y2) or as steps(n, position).

    Answers the CSS value, the exact output at evenly spaced inputs, and a linear() equivalent with
    its measured error. Give exactly one of: name; all four of x1, y1, x2, y2; steps."""
    coords = [p.x1, p.y1, p.x2, p.y2]
    given = sum(x is not None for x in coords)
    ways = (p.name is not None) + (given > 0) + (p.steps is not None)
    if ways != 1:
        raise InvalidParameter(
            "name", "give exactly one of: name; x1, y1, x2 and y2; steps", ["name", "x1,y1,x2,y2", "steps"]
        )
    if p.name is not None:
        return _named(CATALOGUE.get(), p.name, p.samples)
    if p.steps is not None:
        if p.position == "jump-none" and p.steps < 2:
            raise InvalidParameter("steps", "steps(n, jump-none) needs n of at least 2", {"minimum": 2})
        return _steps_answer(None, p.steps, p.position, p.samples)
    if p.x1 is None or p.y1 is None or p.x2 is None or p.y2 is None:
        missing = [n for n, v in zip(("x1", "y1", "x2", "y2"), coords, strict=True) if v is None]
        raise InvalidParameter(missing[0], "a cubic Bézier needs all four of x1, y1, x2 and y2")
    curve = CubicBezier(p.x1, p.y1, p.x2, p.y2)
    return _bezier_answer(None, "custom", curve, p.samples, None)


@SERVICE.operation("GET", "/api/easings", blocking=True)
def easings() -> EasingList:
    """Every named easing: the CSS keywords (the spec's control points) and the named curves, with sources."""
    catalogue = CATALOGUE.get()
    ordered = sorted(catalogue.easings.values(), key=lambda e: (e.kind != "keyword", e.id))
    items = [_bezier_answer(e.id, e.kind, CubicBezier(e.x1, e.y1, e.x2, e.y2), 5, e) for e in ordered]
    items += [_steps_answer(k, n, pos, 5) for k, (n, pos) in STEP_KEYWORDS.items()]
    return EasingList(count=len(items), easings=items)


def _spring(k: float, c: float, m: float) -> SpringAnswer:
    try:
        curve = _spring_curve(Spring(k, c, m))
    except SpringError as exc:
        raise InvalidParameter("damping", str(exc)) from None
    s = curve.spring
    return SpringAnswer(
        stiffness=k,
        damping=c,
        mass=m,
        damping_ratio=round(s.zeta, 6),
        regime=s.regime,
        overshoots=s.overshoots,
        peak=round(s.peak, 6),
        settle_tolerance=SETTLE_TOLERANCE,
        duration_ms=round(curve.duration * 1000),
        linear=curve.linear.css,
        points=curve.linear.points,
        error_bound=ERROR_BOUND,
        max_error=round(curve.linear.max_error, 6),
        css=f"transition: transform {round(curve.duration * 1000)}ms {curve.linear.css};",
        formula={
            "under-damped": "x(t) = 1 − e^(−ζω0t)(cos ωd t + ζω0/ωd · sin ωd t), ω0 = √(k/m), ωd = ω0√(1−ζ²)",
            "critically-damped": "x(t) = 1 − e^(−ω0t)(1 + ω0t), ω0 = √(k/m)",
            "over-damped": "x(t) = 1 − (r2·e^(r1t) − r1·e^(r2t))/(r2 − r1), r1,2 = −ω0(ζ ∓ √(ζ²−1))",
        }[s.regime],
    )


@SERVICE.operation("GET", "/api/spring", tool="spring_to_css_linear", blocking=True)
def spring(p: SpringQuery) -> SpringAnswer:
    """A damped spring (stiffness, damping, mass) solved exactly and simplified to CSS linear().

    The duration is when the spring stays within 0.001 of its target; the linear() stays within the
    stated error bound of the exact solution. Springs taking more than 10 s to settle are refused."""
    return _spring(p.stiffness, p.damping, p.mass)


def _keyframes(preset: str, duration: int) -> Keyframes:
    p = PRESETS[preset]
    rule, usage_css, reduced = logic.keyframes_css(p, duration)
    return Keyframes(
        preset=p.id,
        purpose=p.purpose,
        duration_ms=duration,
        keyframes=rule,
        usage_css=usage_css,
        reduced_motion_css=reduced,
        usage=p.usage,
        presets=list(PRESETS),
    )


@SERVICE.operation("GET", "/api/keyframes", tool="generate_keyframes")
def keyframes(p: KeyframesQuery) -> Keyframes:
    """A keyframe preset as @keyframes, a class that uses it, a usage rule and its reduced-motion variant."""
    return _keyframes(p.preset, p.duration)


def _gradient(hexes: list[str], kind: str, angle: int, animate: bool) -> GradientAnswer:
    colors = []
    for h in hexes:
        try:
            colors.append(colour.parse_hex(h))
        except ValueError as exc:
            raise InvalidParameter("colors", str(exc)) from None
    if len(colors) < 2:
        raise InvalidParameter("colors", "give at least 2 colours", {"min": 2, "max": 8})
    g = logic.gradient(colors, kind, angle, animate)
    on_white, on_black, note = logic.contrast_notes(logic.along(colors, logic.MIX[g.space], closed=kind == "conic"))
    why = (
        "an OKLab mix of these colours passes near grey, so the gradient runs in OKLCH along the shorter hue arc"
        if g.space == "oklch"
        else "OKLab keeps perceived lightness even between the stops without grey midpoints"
    )
    # the three CSS texts under the gradient's own names
    return from_attributes(
        GradientAnswer,
        g,
        colors=[c.hex for c in colors],
        type=kind,
        interpolation=g.space,
        why=why,
        contrast_white_text=on_white,
        contrast_black_text=on_black,
        contrast_note=note,
    )


@SERVICE.operation("GET", "/api/gradient", tool="generate_gradient")
def gradient(p: GradientQuery) -> GradientAnswer:
    """A linear, radial or conic gradient through 2 to 8 hex colours, interpolated perceptually, optionally animated."""
    return _gradient([h.strip() for h in p.colors.split(",")], p.type, p.angle, bool(p.animate))


@SERVICE.operation("GET", "/api/video", tool="web_video_ffmpeg")
def video(p: VideoQuery) -> VideoAnswer:
    """The ffmpeg command for web video: H.264 with faststart and even dimensions, optionally VP9 or AV1."""
    codecs: list[str] = ["h264", "vp9", "av1"] if p.codec == "all" else [p.codec]
    cmds = logic.ffmpeg_commands(p.width, p.quality, codecs, p.audio)
    width = p.width - p.width % 2
    height = p.height if p.height is not None else round(width * 9 / 16 / 2) * 2
    level, _ = logic.av1_level(width, height, p.fps)
    types = {
        "h264": "video/mp4",
        "vp9": 'video/webm; codecs="vp9"',
        "av1": f'video/webm; codecs="{logic.av1_codecs(width, height, p.fps)}"',
    }
    sources = "".join(f"\n  <source src=\"{logic.OUTPUT[c]}\" type='{types[c]}'>" for c in reversed(codecs))
    attrs = "controls playsinline" if p.audio else "autoplay muted loop playsinline"
    return VideoAnswer(
        width=width,
        height=height,
        fps=p.fps,
        av1_level=level if "av1" in codecs else None,
        quality=p.quality,
        commands=[
            VideoCommand(codec=c, command=cmd, flags=[Flag(flag=f, meaning=m) for f, m in flags])
            for c, cmd, flags in cmds
        ],
        html=f"<video {attrs}>{sources}\n</video>",
    )


def _newest_check(records: Sequence[SourcedRecord], table: str) -> date:
    """The newest day the records were checked against their source; a 503 when there are none."""
    checked = max((r.checked for r in records), default=None)
    if checked is None:
        raise Problem(503, f"The {table} is not in the store; run `twlookup seed`.")
    return checked


def _support(catalogue: Catalogue) -> SupportTable:
    version = catalogue.support[0].data_version if catalogue.support else "none"
    return SupportTable(
        data_package="web-features (npm)",
        data_version=version,
        checked=_newest_check(catalogue.support, "browser support table"),
        count=len(catalogue.support),
        features=[as_answer(r, SupportRecordAnswer) for r in catalogue.support],
    )


@SERVICE.operation("GET", "/api/support", tool="animation_browser_support")
def support() -> SupportTable:
    """Browser support of web animation features (Baseline status and first versions) from web-features."""
    return _support(CATALOGUE.get())


def _libraries(catalogue: Catalogue) -> Libraries:
    return Libraries(
        checked=_newest_check(catalogue.libraries, "library table"),
        count=len(catalogue.libraries),
        libraries=[as_answer(r, LibraryRecordAnswer) for r in catalogue.libraries],
    )


@SERVICE.operation("GET", "/api/libraries", tool="compare_animation_libraries")
def libraries() -> Libraries:
    """Animation libraries with licence, version and package size from the npm registry, with the date read."""
    return _libraries(CATALOGUE.get())


@SERVICE.operation("GET", "/api/a11y", tool="animation_a11y_checklist")
def a11y() -> A11yChecklist:
    """The animation accessibility checklist: WCAG 2.2 (2.2.2, 2.3.1, 2.3.3) and prefers-reduced-motion."""
    items = CATALOGUE.get().a11y
    return A11yChecklist(count=len(items), items=[as_answer(r, A11yRecordAnswer) for r in items])


@SERVICE.operation(
    "GET", "/api/pro/motion-kit", price="$0.02", example={"brand": "#e63946", "style": "calm"}, blocking=True
)
def motion_kit(p: MotionKitQuery) -> MotionKit:
    """A motion kit for a brand colour and a style: durations, easings, spring, gradient, keyframes, contrast."""
    try:
        brand = colour.parse_hex(p.brand)
    except ValueError as exc:
        raise InvalidParameter("brand", str(exc)) from None
    style = logic.STYLES[p.style]
    catalogue = CATALOGUE.get()
    durations = style.durations
    k, c, m = style.spring
    spring_answer = _spring(k, c, m)
    enter = _named(catalogue, style.enter, 11)
    exit_ = _named(catalogue, style.exit, 11)
    partner = logic.brand_partner(brand)
    grad = _gradient([brand.hex, partner.hex], "linear", 120, True)
    on_white = round(colour.contrast(brand, logic.WHITE), 2)
    on_black = round(colour.contrast(brand, logic.BLACK), 2)
    names = ("instant", "fast", "base", "slow")
    variables = "\n".join(f"  --motion-{n}: {d}ms;" for n, d in zip(names, durations, strict=True))
    variables += (
        f"\n  --ease-enter: {enter.css};\n  --ease-exit: {exit_.css};\n  --ease-spring: {spring_answer.linear};"
    )
    variables += (
        f"\n  --spring-duration: {spring_answer.duration_ms}ms;\n  --brand: {brand.hex};\n  --brand-2: {partner.hex};"
    )
    return MotionKit(
        brand=brand.hex,
        style=p.style,
        css_variables=":root {\n"
        + variables
        + "\n}\n@media (prefers-reduced-motion: reduce) {\n  :root {\n"
        + "\n".join(f"    --motion-{n}: 0ms;" for n in names)
        + "\n  }\n}",
        durations_ms=list(durations),
        enter=enter,
        exit=exit_,
        spring=spring_answer,
        gradient=grad,
        keyframes=[_keyframes(n, durations[2]) for n in ("fade-in", "slide-up", "scale-in")],
        contrast_on_white=on_white,
        contrast_on_black=on_black,
        text_colour="white" if on_white >= on_black else "black",
        usage=[
            f"Hover and press feedback: --motion-fast ({durations[1]} ms) with --ease-enter.",
            f"Entrances: --motion-base ({durations[2]} ms) with --ease-enter; exits: --motion-fast with --ease-exit.",
            f"Large panels and page transitions: --motion-slow ({durations[3]} ms), or the spring over --spring-duration.",
            f"Text on the brand colour: {'white' if on_white >= on_black else 'black'} "
            f"({max(on_white, on_black):.2f}:1; body text needs 4.5:1, large text 3:1).",
            "Under prefers-reduced-motion the durations drop to 0 ms; keep fades if an element would otherwise pop.",
        ],
    )


@SERVICE.operation("GET", "/api/pro/export", price="$0.05", blocking=True)
def export() -> Export:
    """All easings, keyframe presets, the support table, libraries and the accessibility checklist."""
    catalogue = CATALOGUE.get()
    return Export(
        easings=easings().easings,
        keyframes=[_keyframes(n, 300) for n in PRESETS],
        support=_support(catalogue),
        libraries=_libraries(catalogue),
        a11y=a11y(),
    )


__all__ = ["SERVICE"]
