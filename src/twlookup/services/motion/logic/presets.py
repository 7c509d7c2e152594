"""Keyframe presets (written for this project): each an @keyframes rule, a usage rule and a
reduced-motion variant that keeps the meaning of the animation without the movement."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    id: str
    purpose: str
    frames: str  # body of @keyframes
    easing: str
    iterations: str  # "1" or "infinite"
    reduced: str  # body of the reduced-motion @keyframes (an opacity change, or nothing)
    usage: str


PRESETS: dict[str, Preset] = {
    p.id: p
    for p in [
        Preset(
            "fade-in",
            "show an element",
            "from { opacity: 0; }\n  to { opacity: 1; }",
            "ease-out",
            "1",
            "from { opacity: 0; }\n  to { opacity: 1; }",
            "Entrances of dialogs, toasts and content that loads in; fades are safe under reduced motion.",
        ),
        Preset(
            "fade-out",
            "hide an element",
            "from { opacity: 1; }\n  to { opacity: 0; }",
            "ease-in",
            "1",
            "from { opacity: 1; }\n  to { opacity: 0; }",
            "Exits; make exits shorter than entrances (about 75% of the time).",
        ),
        Preset(
            "slide-up",
            "enter from below",
            "from { opacity: 0; transform: translateY(16px); }\n  to { opacity: 1; transform: translateY(0); }",
            "cubic-bezier(0.16, 1, 0.3, 1)",
            "1",
            "from { opacity: 0; }\n  to { opacity: 1; }",
            "Cards and list items entering; stagger siblings by 30 to 60 ms. Animate transform and opacity only (no layout).",
        ),
        Preset(
            "slide-down",
            "enter from above",
            "from { opacity: 0; transform: translateY(-16px); }\n  to { opacity: 1; transform: translateY(0); }",
            "cubic-bezier(0.16, 1, 0.3, 1)",
            "1",
            "from { opacity: 0; }\n  to { opacity: 1; }",
            "Menus and notifications that drop from the top edge.",
        ),
        Preset(
            "scale-in",
            "pop an element in",
            "from { opacity: 0; transform: scale(0.94); }\n  to { opacity: 1; transform: scale(1); }",
            "cubic-bezier(0.34, 1.56, 0.64, 1)",
            "1",
            "from { opacity: 0; }\n  to { opacity: 1; }",
            "Popovers and modals; set transform-origin to the element that opened it.",
        ),
        Preset(
            "bounce",
            "draw attention once",
            "0%, 100% { transform: translateY(0); }\n  30% { transform: translateY(-12px); }\n  50% { transform: translateY(0); }\n  70% { transform: translateY(-5px); }",
            "ease-in-out",
            "1",
            "0%, 100% { opacity: 1; }\n  50% { opacity: 0.6; }",
            "A single nudge (new message badge); never loop it, looping movement needs a pause control (WCAG 2.2.2).",
        ),
        Preset(
            "shake",
            "signal an error",
            "0%, 100% { transform: translateX(0); }\n  20%, 60% { transform: translateX(-6px); }\n  40%, 80% { transform: translateX(6px); }",
            "ease-in-out",
            "1",
            "0%, 100% { outline-color: transparent; }\n  50% { outline-color: currentColor; }",
            "A wrong password or invalid field; pair it with an error message, since motion alone is not a text alternative.",
        ),
        Preset(
            "pulse",
            "show ongoing activity",
            "0%, 100% { opacity: 1; transform: scale(1); }\n  50% { opacity: 0.7; transform: scale(1.04); }",
            "ease-in-out",
            "infinite",
            "0%, 100% { opacity: 1; }\n  50% { opacity: 0.7; }",
            "Loading or recording indicators; stop it when the activity ends, and give loops longer than 5 s a pause (WCAG 2.2.2).",
        ),
        Preset(
            "spin",
            "loading spinner",
            "from { transform: rotate(0deg); }\n  to { transform: rotate(360deg); }",
            "linear",
            "infinite",
            "0%, 100% { opacity: 1; }\n  50% { opacity: 0.5; }",
            "Spinners only while waiting; announce the busy state to assistive technology (aria-busy).",
        ),
    ]
}
