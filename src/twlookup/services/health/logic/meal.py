"""The meal check: which dietary factors of the IARC list a meal description names."""

from __future__ import annotations

from dataclasses import dataclass

from twlookup.services.health.logic.rules import Factor


@dataclass(frozen=True)
class MealMatch:
    factor: Factor
    keywords: tuple[str, ...]


def meal_matches(factors: tuple[Factor, ...], meal: str) -> list[MealMatch]:
    """Factors whose keywords appear in the text: Chinese keywords as substrings, English ones
    as whole words (plural allowed), case-insensitive. Highest IARC group first."""
    lowered = meal.lower()
    found = []
    for f in factors:
        hits = [k for k in f.keywords_zh if k in meal] + [k for k, pat in f.patterns_en if pat.search(lowered)]
        if hits:
            found.append(MealMatch(f, tuple(dict.fromkeys(hits))))
    order = {"1": 0, "2A": 1, "2B": 2}
    return sorted(found, key=lambda m: order.get(m.factor.group, 9))
