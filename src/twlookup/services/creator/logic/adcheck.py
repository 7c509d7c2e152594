"""Matching ad copy against the regulators' word lists.

Text is normalised first: NFKC folds full-width letters, digits and punctuation to their usual
forms, and spaces are dropped so that a term split by spacing still matches. Simplified characters
are read as Traditional ones character by character, and a term whose Simplified spelling that
reading gets wrong (头发 is read 頭發, the term says 頭髮) is also found by that spelling where
OpenCC's s2tw would read it as the term (`twlookup.domain.script_match`: generated tables, so no
serving process loads OpenCC). Phrases the annex allows are found first, and a prohibited word
that lies wholly inside an allowed phrase is not flagged.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from twlookup.domain.script_match import phrase_spans, traditional
from twlookup.services.creator.records import AdTerm

_SPACE = re.compile(r"\s+")


def folded(text: str) -> str:
    """NFKC-folded, without spaces (still in the script it was written in)."""
    return _SPACE.sub("", unicodedata.normalize("NFKC", text))


def normalise(text: str) -> str:
    """Folded and read as Traditional characters (one character for one)."""
    return traditional(folded(text))


@dataclass(frozen=True)
class Hit:
    term: AdTerm
    matched: str
    start: int
    end: int


def scan(text: str, terms: list[AdTerm], category: str) -> tuple[str, list[Hit], list[Hit]]:
    """(normalised text, prohibited hits, allowed hits) for `category`."""
    text = folded(text)
    reading = traditional(text)
    shown = list(reading)  # the reading, with each term found by its Simplified spelling as the term
    allowed: list[Hit] = []
    prohibited: list[Hit] = []
    for term in terms:
        if term.category != category:
            continue
        for form in term.match:
            phrase = folded(form)
            for start, end, by_spelling in phrase_spans(text, reading, phrase):
                hit = Hit(term, form, start, end)
                (allowed if term.list == "allowed" else prohibited).append(hit)
                if by_spelling and end - start == len(phrase):
                    shown[start:end] = phrase
    norm = "".join(shown)
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
