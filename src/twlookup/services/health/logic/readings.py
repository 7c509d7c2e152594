"""Readings as the client writes them: blood pressure pairs and glucose values, tagged with the
moment they were taken, checked for plausibility (typing errors, not clinical cut-offs), and
their averages. Problems raise `ReadingError` (the operations turn it into a 422 naming the
parameter).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal


class ReadingError(ValueError):
    """A reading the client sent cannot be used; the message says which and why."""


SYSTOLIC_RANGE = (50, 300)  # input plausibility (typing errors such as 1350/85), not clinical cut-offs
DIASTOLIC_RANGE = (20, 200)
GLUCOSE_RANGE = (20, 600)  # home meters show LO/HI outside about this range
PAIR = re.compile(r"^\s*(\d{1,3})\s*/\s*(\d{1,3})\s*$")
NUMBER = re.compile(r"^\s*(\d{1,3}(?:\.\d)?)\s*$")


def parse_pair(text: str, position: int) -> tuple[int, int]:
    match = PAIR.match(text)
    if not match:
        raise ReadingError(f"reading {position} {text.strip()!r} is not a systolic/diastolic pair such as 128/82")
    systolic, diastolic = int(match.group(1)), int(match.group(2))
    if not SYSTOLIC_RANGE[0] <= systolic <= SYSTOLIC_RANGE[1]:
        raise ReadingError(
            f"reading {position}: systolic {systolic} is outside {SYSTOLIC_RANGE[0]} to {SYSTOLIC_RANGE[1]} mmHg; check for a typing error"
        )
    if not DIASTOLIC_RANGE[0] <= diastolic <= DIASTOLIC_RANGE[1]:
        raise ReadingError(
            f"reading {position}: diastolic {diastolic} is outside {DIASTOLIC_RANGE[0]} to {DIASTOLIC_RANGE[1]} mmHg; check for a typing error"
        )
    if systolic <= diastolic:
        raise ReadingError(
            f"reading {position}: systolic {systolic} must be higher than diastolic {diastolic}; write systolic first"
        )
    return systolic, diastolic


def _entries(text: str, limit: int) -> list[str]:
    items = text.split(",")
    if any(not item.strip() for item in items):
        raise ReadingError("empty entry: separate readings with single commas and no trailing comma")
    if len(items) > limit:
        raise ReadingError(f"{len(items)} readings given; at most {limit} per call")
    return items


def parse_bp_readings(text: str, limit: int) -> list[tuple[int, int]]:
    return [parse_pair(item, i) for i, item in enumerate(_entries(text, limit), start=1)]


def parse_tagged(text: str, limit: int, slots: dict[str, str], what: str) -> list[tuple[str, str]]:
    """Entries like `m:135/85`: (slot name, value text); unknown slot letters are errors."""
    out = []
    for i, item in enumerate(_entries(text, limit), start=1):
        tag, sep, value = item.strip().partition(":")
        if not sep:
            raise ReadingError(f"entry {i} {item.strip()!r} has no slot letter; write it as {next(iter(slots))}:{what}")
        letter = tag.strip().lower()
        if letter not in slots:
            raise ReadingError(f"entry {i}: unknown slot letter {tag.strip()!r}; use one of {', '.join(slots)}")
        out.append((slots[letter], value))
    return out


BP_SLOTS = {"m": "morning", "e": "evening"}
GLUCOSE_SLOTS = {"f": "fasting", "b": "before-meal", "a": "after-meal", "r": "random"}


def parse_bp_report(text: str, limit: int) -> list[tuple[str, tuple[int, int]]]:
    tagged = parse_tagged(text, limit, BP_SLOTS, "135/85")
    return [(slot, parse_pair(value, i)) for i, (slot, value) in enumerate(tagged, start=1)]


def parse_glucose_report(text: str, limit: int) -> list[tuple[str, float]]:
    tagged = parse_tagged(text, limit, GLUCOSE_SLOTS, "112")
    return [(slot, parse_glucose(value, i)) for i, (slot, value) in enumerate(tagged, start=1)]


def parse_glucose(text: str, position: int) -> float:
    match = NUMBER.match(text)
    if not match:
        raise ReadingError(f"entry {position} {text.strip()!r} is not a glucose value in mg/dL such as 112")
    value = float(match.group(1))
    check_glucose_range(value, f"entry {position}")
    return value


def check_glucose_range(value: float, label: str) -> None:
    if not GLUCOSE_RANGE[0] <= value <= GLUCOSE_RANGE[1]:
        raise ReadingError(
            f"{label}: {value:g} mg/dL is outside {GLUCOSE_RANGE[0]} to {GLUCOSE_RANGE[1]}; home meters show LO or HI beyond it"
        )


def mean(values: list[float]) -> float:
    """Arithmetic mean to one decimal, halves rounded up as a person checking by hand would
    (136.25 -> 136.3; Python's round() gives 136.2 because 136.25 is stored as 136.2499...)."""
    exact = sum((Decimal(str(v)) for v in values), Decimal(0)) / len(values)
    return float(exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
