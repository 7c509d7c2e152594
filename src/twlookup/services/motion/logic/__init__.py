"""The motion service's generators: keyframes CSS, gradients, the ffmpeg command and the motion
kit. Pure functions; the maths lives in easing.py, spring.py and colour.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from twlookup.services.motion.logic import colour
from twlookup.services.motion.logic.easing import fmt
from twlookup.services.motion.logic.presets import Preset

REDUCED_MEDIA = "@media (prefers-reduced-motion: reduce)"


def keyframes_css(p: Preset, duration_ms: int) -> tuple[str, str, str]:
    """(@keyframes rule, class using it, reduced-motion override)."""
    name = p.id
    rule = f"@keyframes {name} {{\n  {p.frames}\n}}"
    usage = f".{name} {{\n  animation: {name} {duration_ms}ms {p.easing} {p.iterations} both;\n}}"
    reduced = (
        f"@keyframes {name}-reduced {{\n  {p.reduced}\n}}\n{REDUCED_MEDIA} {{\n  .{name} {{\n"
        f"    animation-name: {name}-reduced;\n    animation-duration: {min(duration_ms, 200)}ms;\n  }}\n}}"
    )
    return rule, usage, reduced


Space = Literal["oklab", "oklch"]


@dataclass(frozen=True)
class Gradient:
    css: str
    fallback_css: str
    space: Space
    stops: list[str]
    animation_css: str | None


Mix = Callable[[colour.RGB, colour.RGB, float], colour.RGB]
MIX: dict[Space, Mix] = {"oklab": colour.mix_oklab, "oklch": colour.mix_oklch}


def gradient(colors: list[colour.RGB], kind: str, angle: int, animate: bool) -> Gradient:
    """A gradient through `colors`, interpolated in OKLab, or in OKLCH (shorter hue) where an OKLab
    mix of a pair would pass through grey. `css` uses CSS Color 4 interpolation syntax; `fallback_css`
    lists precomputed sRGB stops (every 12.5% of each segment) for browsers without it."""
    greys = any(colour.greys_in_oklab(a, b) for a, b in zip(colors, colors[1:], strict=False))
    space: Space = "oklch" if greys else "oklab"
    mix = MIX[space]
    stops: list[str] = []
    segments = len(colors) - 1
    for i, (a, b) in enumerate(zip(colors, colors[1:], strict=False)):
        for k in range(8 if i < segments - 1 else 9):
            t = k / 8
            stops.append(f"{mix(a, b, t).hex} {fmt((i + t) / segments * 100, 2)}%")
    hexes = ", ".join(c.hex for c in colors)
    head = {
        "linear": f"linear-gradient(in {space} {angle}deg, ",
        "radial": f"radial-gradient(in {space}, ",
        "conic": f"conic-gradient(in {space} from {angle}deg, ",
    }[kind]
    fb_head = {
        "linear": f"linear-gradient({angle}deg, ",
        "radial": "radial-gradient(",
        "conic": f"conic-gradient(from {angle}deg, ",
    }[kind]
    if kind == "conic":  # close the circle so the seam does not jump
        hexes += f", {colors[0].hex}"
    css = f"background: {head}{hexes});"
    fallback = f"background: {fb_head}{', '.join(stops)});"
    animation = None
    if animate:
        if kind == "conic":
            animation = (
                "@property --angle {\n  syntax: '<angle>';\n  inherits: false;\n  initial-value: 0deg;\n}\n"
                f".gradient {{\n  background: conic-gradient(in {space} from var(--angle), {hexes});\n"
                "  animation: gradient-turn 8s linear infinite;\n}\n"
                "@keyframes gradient-turn {\n  to { --angle: 360deg; }\n}\n"
                f"{REDUCED_MEDIA} {{\n  .gradient {{ animation: none; }}\n}}"
            )
        else:
            animation = (
                f".gradient {{\n  {css.replace('background: ', 'background-image: ')}\n  background-size: 300% 300%;\n"
                "  animation: gradient-flow 12s ease-in-out infinite alternate;\n}\n"
                "@keyframes gradient-flow {\n  from { background-position: 0% 50%; }\n  to { background-position: 100% 50%; }\n}\n"
                f"{REDUCED_MEDIA} {{\n  .gradient {{ animation: none; }}\n}}"
            )
    return Gradient(css, fallback, space, stops, animation)


WHITE = colour.RGB(1, 1, 1)
BLACK = colour.RGB(0, 0, 0)


def along(colors: list[colour.RGB], mix: Mix, closed: bool = False, steps: int = 128) -> list[colour.RGB]:
    """The gradient sampled `steps` times per segment with its own mix (OKLab or OKLCH), ends
    included; `closed` adds the segment back to the first colour (a conic gradient's seam)."""
    ring = colors + [colors[0]] if closed else colors
    out = [ring[0]]
    for a, b in zip(ring, ring[1:], strict=False):
        out.extend(mix(a, b, k / steps) for k in range(1, steps + 1))
    return out


def contrast_notes(samples: list[colour.RGB]) -> tuple[float, float, str]:
    """Worst contrast anywhere along the gradient (`samples`, see `along`) against white text and
    black text, and advice (WCAG 1.4.3: 4.5:1 for body text, 3:1 for large text). The weakest point
    can lie between two stops: an OKLCH hue arc passes through colours neither end has."""
    on_white = min(colour.contrast(c, WHITE) for c in samples)
    on_black = min(colour.contrast(c, BLACK) for c in samples)
    best, ratio = ("white", on_white) if on_white >= on_black else ("black", on_black)
    if ratio >= 4.5:
        advice = f"{best} text passes 4.5:1 all along the gradient"
    elif ratio >= 3:
        advice = (
            f"{best} text reaches only {ratio:.2f}:1 at the weakest point along the gradient: "
            "large text (24px, or 18.66px bold) only"
        )
    else:
        advice = (
            f"neither white nor black text reaches 3:1 all along the gradient (best {best}, {ratio:.2f}:1 "
            "at its weakest point): put text on a solid backing"
        )
    return round(on_white, 2), round(on_black, 2), advice


# AV1 levels (AV1 Bitstream & Decoding Process Specification, Annex A, table of MaxPicSize,
# MaxHSize, MaxVSize and MaxDisplayRate; github.com/AOMediaCodec/av1-spec annex.a.levels.md, read
# 2026-11-26): (level, seq_level_idx, MaxPicSize, MaxHSize, MaxVSize, MaxDisplayRate samples/s)
AV1_LEVELS = (
    ("2.0", 0, 147456, 2048, 1152, 4_423_680),
    ("2.1", 1, 278784, 2816, 1584, 8_363_520),
    ("3.0", 4, 665856, 4352, 2448, 19_975_680),
    ("3.1", 5, 1065024, 5504, 3096, 31_950_720),
    ("4.0", 8, 2359296, 6144, 3456, 70_778_880),
    ("4.1", 9, 2359296, 6144, 3456, 141_557_760),
    ("5.0", 12, 8912896, 8192, 4352, 267_386_880),
    ("5.1", 13, 8912896, 8192, 4352, 534_773_760),
    ("5.2", 14, 8912896, 8192, 4352, 1_069_547_520),
    ("6.0", 16, 35651584, 16384, 8704, 1_069_547_520),
    ("6.1", 17, 35651584, 16384, 8704, 2_139_095_040),
    ("6.2", 18, 35651584, 16384, 8704, 4_278_190_080),
)


def av1_level(width: int, height: int, fps: int) -> tuple[str, int]:
    """The lowest AV1 level whose picture size, width, height and display rate hold the video
    (level, seq_level_idx); 31 ("maximum parameters") when none does."""
    for level, idx, pic, hmax, vmax, rate in AV1_LEVELS:
        if width * height <= pic and width <= hmax and height <= vmax and width * height * fps <= rate:
            return level, idx
    return "max", 31


def av1_codecs(width: int, height: int, fps: int) -> str:
    """The `codecs` parameter for AV1 in WebM (Main profile, main tier, 8-bit: av01.0.LLM.08)."""
    return f"av01.0.{av1_level(width, height, fps)[1]:02d}M.08"


OUTPUT = {"h264": "output.mp4", "vp9": "output-vp9.webm", "av1": "output-av1.webm"}


QUALITY = {"low": 28, "medium": 23, "high": 18}  # x264 CRF; 23 is x264's default
VP9_CRF = {"low": 36, "medium": 32, "high": 28}
AV1_CRF = {"low": 40, "medium": 35, "high": 30}


def ffmpeg_commands(
    width: int, quality: str, codecs: list[str], audio: bool
) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(codec, command, [(flag, what it does)]) for each requested codec."""
    even = width - width % 2
    audio_args = "-c:a aac -b:a 128k" if audio else "-an"
    out = []
    for codec in codecs:
        if codec == "h264":
            cmd = (
                f"ffmpeg -i input.mov -c:v libx264 -crf {QUALITY[quality]} -preset slow -pix_fmt yuv420p "
                f"-vf scale={even}:-2 -movflags +faststart {audio_args} {OUTPUT['h264']}"
            )
            flags = [
                ("-c:v libx264", "H.264 video, which every browser plays"),
                (
                    f"-crf {QUALITY[quality]}",
                    "constant quality (lower is better and larger; 18 is close to visually lossless, 23 is the default)",
                ),
                ("-preset slow", "spend more encoding time for a smaller file at the same quality"),
                ("-pix_fmt yuv420p", "4:2:0 chroma, the pixel format browsers and phones decode"),
                (
                    f"-vf scale={even}:-2",
                    f"{even} px wide; -2 keeps the aspect ratio with an even height, which yuv420p requires",
                ),
                (
                    "-movflags +faststart",
                    "moves the index (moov atom) to the front so playback starts before the download ends",
                ),
            ]
        elif codec == "vp9":
            cmd = (
                f"ffmpeg -i input.mov -c:v libvpx-vp9 -crf {VP9_CRF[quality]} -b:v 0 -row-mt 1 -pix_fmt yuv420p "
                f"-vf scale={even}:-2 {'-c:a libopus -b:a 96k' if audio else '-an'} {OUTPUT['vp9']}"
            )
            flags = [
                ("-c:v libvpx-vp9", "VP9 video in WebM, usually smaller than H.264 at the same quality"),
                (f"-crf {VP9_CRF[quality]} -b:v 0", "constant-quality mode of libvpx (-b:v 0 lifts the bitrate cap)"),
                ("-row-mt 1", "row-based multithreading: faster encoding"),
                (f"-vf scale={even}:-2", "same even-dimension scaling as for H.264"),
            ]
        else:
            cmd = (
                f"ffmpeg -i input.mov -c:v libsvtav1 -crf {AV1_CRF[quality]} -preset 6 -pix_fmt yuv420p "
                f"-vf scale={even}:-2 {'-c:a libopus -b:a 96k' if audio else '-an'} {OUTPUT['av1']}"
            )
            flags = [
                ("-c:v libsvtav1", "AV1 with the SVT-AV1 encoder: smallest files, slowest to encode, newest decoders"),
                (f"-crf {AV1_CRF[quality]}", "constant quality for SVT-AV1 (0 to 63)"),
                ("-preset 6", "speed/size trade-off of SVT-AV1 (lower is slower and smaller)"),
            ]
        if not audio:
            flags.append(
                ("-an", "drops the audio track: right for muted background loops (autoplay needs muted anyway)")
            )
        out.append((codec, cmd, flags))
    return out


@dataclass(frozen=True)
class Style:
    """A motion kit style: four duration levels (ms), enter and exit curves (names of /api/easings)
    and a spring (stiffness, damping, mass)."""

    durations: tuple[int, int, int, int]
    enter: str
    exit: str
    spring: tuple[float, float, float]


STYLES = {
    "snappy": Style((100, 150, 250, 400), "ease-out-quart", "ease-in-quart", (400.0, 40.0, 1.0)),
    "calm": Style((200, 300, 450, 700), "ease-out-sine", "ease-in-sine", (120.0, 22.0, 1.0)),
    "playful": Style((150, 250, 400, 600), "ease-out-back", "ease-in-back", (260.0, 16.0, 1.0)),
}


def brand_partner(c: colour.RGB) -> colour.RGB:
    """The brand colour turned 40° in OKLCH hue, same lightness and chroma: the second stop of the
    kit's flowing gradient."""
    import math

    lab = colour.to_oklab(c)
    h = math.radians(lab.hue + 40)
    return colour.from_oklab(colour.OKLab(lab.L, lab.chroma * math.cos(h), lab.chroma * math.sin(h)))
