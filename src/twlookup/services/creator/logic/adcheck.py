"""Matching ad copy against the regulators' word lists.

Text is normalised first: NFKC folds full-width letters, digits and punctuation to their usual
forms; OpenCC (s2tw) turns Simplified characters into Traditional ones; spaces are dropped so that a
term split by spacing still matches. Phrases the annex allows are found first, and a prohibited
word that lies wholly inside an allowed phrase is not flagged.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from twlookup.services.creator.records import AdTerm

_SPACE = re.compile(r"\s+")


@functools.lru_cache(maxsize=1)
def _converter() -> Any:  # opencc has no type information
    import opencc

    return opencc.OpenCC("s2tw")


def normalise(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text)
    return _SPACE.sub("", _converter().convert(folded))


@dataclass(frozen=True)
class Hit:
    term: AdTerm
    matched: str
    start: int
    end: int


def scan(text: str, terms: list[AdTerm], category: str) -> tuple[str, list[Hit], list[Hit]]:
    """(normalised text, prohibited hits, allowed hits) for `category`."""
    norm = normalise(text)
    allowed: list[Hit] = []
    prohibited: list[Hit] = []
    for term in terms:
        if term.category != category:
            continue
        for form in term.match:
            key = normalise(form)
            for m in re.finditer(re.escape(key), norm):
                hit = Hit(term, form, m.start(), m.end())
                (allowed if term.list == "allowed" else prohibited).append(hit)
    inside_allowed = lambda h: any(a.start <= h.start and h.end <= a.end for a in allowed)  # noqa: E731
    kept: dict[tuple[str, int], Hit] = {}
    for h in sorted(prohibited, key=lambda h: (h.start, -(h.end - h.start))):
        if inside_allowed(h):
            continue
        # one finding per term per place; a longer term covering a shorter one wins
        if any(k.start <= h.start and h.end <= k.end and k is not h for k in kept.values()):
            continue
        kept[(h.term.id, h.start)] = h
    seen_allowed: dict[str, Hit] = {}
    for a in allowed:
        seen_allowed.setdefault(a.term.id, a)
    return norm, sorted(kept.values(), key=lambda h: h.start), list(seen_allowed.values())
