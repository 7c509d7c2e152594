"""The motion service's generators: keyframes CSS, gradients, the ffmpeg command and the motion
kit. Pure functions; the maths lives in easing.py, spring.py and colour.py."""

from __future__ import annotations

from dataclasses import dataclass

from twlookup.services.motion import colour
from twlookup.services.motion.easing import fmt
from twlookup.services.motion.presets import Preset

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


@dataclass(frozen=True)
class Gradient:
    css: str
    fallback: str
    space: str
    stops: list[str]
    animation: str | None


def gradient(colors: list[colour.RGB], kind: str, angle: int, animate: bool) -> Gradient:
    """A gradient through `colors`, interpolated in OKLab, or in OKLCH (shorter hue) where an OKLab
    mix of a pair would pass through grey. `css` uses CSS Color 4 interpolation syntax; `fallback`
    lists precomputed sRGB stops (every 12.5% of each segment) for browsers without it."""
    greys = any(colour.greys_in_oklab(a, b) for a, b in zip(colors, colors[1:], strict=False))
    space = "oklch" if greys else "oklab"
    mix = colour.mix_oklch if greys else colour.mix_oklab
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


def contrast_notes(colors: list[colour.RGB]) -> tuple[float, float, str]:
    """Worst contrast of any stop against white text and black text, and advice (WCAG 1.4.3: 4.5:1
    for body text, 3:1 for large text)."""
    on_white = min(colour.contrast(c, WHITE) for c in colors)
    on_black = min(colour.contrast(c, BLACK) for c in colors)
    best, ratio = ("white", on_white) if on_white >= on_black else ("black", on_black)
    if ratio >= 4.5:
        advice = f"{best} text passes 4.5:1 over every stop"
    elif ratio >= 3:
        advice = f"{best} text reaches only {ratio:.2f}:1 at the weakest stop: large text (24px, or 18.66px bold) only"
    else:
        advice = f"neither white nor black text reaches 3:1 over every stop (best {best}, {ratio:.2f}:1): put text on a solid backing"
    return round(on_white, 2), round(on_black, 2), advice


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
                f"-vf scale={even}:-2 -movflags +faststart {audio_args} output.mp4"
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
                f"-vf scale={even}:-2 {'-c:a libopus -b:a 96k' if audio else '-an'} output.webm"
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
                f"-vf scale={even}:-2 {'-c:a libopus -b:a 96k' if audio else '-an'} output.webm"
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


# Motion kit styles: four duration levels (ms), enter/exit curves and a spring (stiffness, damping, mass).
STYLES = {
    "snappy": {
        "durations": (100, 150, 250, 400),
        "enter": "ease-out-quart",
        "exit": "ease-in-quart",
        "spring": (400.0, 40.0, 1.0),
    },
    "calm": {
        "durations": (200, 300, 450, 700),
        "enter": "ease-out-sine",
        "exit": "ease-in-sine",
        "spring": (120.0, 22.0, 1.0),
    },
    "playful": {
        "durations": (150, 250, 400, 600),
        "enter": "ease-out-back",
        "exit": "ease-in-back",
        "spring": (260.0, 16.0, 1.0),
    },
}


def brand_partner(c: colour.RGB) -> colour.RGB:
    """The brand colour turned 40° in OKLCH hue, same lightness and chroma: the second stop of the
    kit's flowing gradient."""
    import math

    lab = colour.to_oklab(c)
    h = math.radians(lab.hue + 40)
    return colour.from_oklab(colour.OKLab(lab.L, lab.chroma * math.cos(h), lab.chroma * math.sin(h)))
