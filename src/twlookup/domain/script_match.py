"""Finding a Taiwan phrase in text written in Traditional or Simplified characters, without OpenCC.

The text is read character by character into Traditional (Taiwan) forms with the search's table
(`search_text.traditional`: one character for one, so a place in the reading is the same place in
the text). A phrase is found where its reading occurs, and, for a phrase whose Simplified spelling
the character table reads otherwise (头发 -> 頭發, not 頭髮), where that spelling occurs in the text
and OpenCC's `s2tw` would read it as the phrase: unless the character just before or just after
it is one that makes OpenCC read it otherwise (`script_spellings.py`, generated from OpenCC with
the search's tables). Loading OpenCC itself would cost a serving process about 45 MB and 0.1 s.
"""

from __future__ import annotations

from twlookup.domain.script_spellings import SPELLINGS
from twlookup.domain.search_text import traditional

__all__ = ["phrase_spans", "traditional"]


def _starts(text: str, sub: str) -> list[int]:
    """Where `sub` occurs in `text`, left to right, not overlapping (as `re.finditer` finds it)."""
    found, at = [], text.find(sub)
    while at >= 0:
        found.append(at)
        at = text.find(sub, at + len(sub))
    return found


def phrase_spans(text: str, reading: str, phrase: str) -> list[tuple[int, int, bool]]:
    """(start, end, by_spelling) of each place `phrase` occurs in `text`, whose reading
    (`traditional(text)`) is `reading`: as read, and as a Simplified spelling OpenCC reads as the
    phrase there (`by_spelling`: the span holds that spelling, of its own length)."""
    if not phrase:
        return []
    key = traditional(phrase)
    spans = {(at, at + len(key), False) for at in _starts(reading, key)}
    for spelling, before, after in SPELLINGS.get(phrase, ()):
        for at in _starts(text, spelling):
            end = at + len(spelling)
            if (at > 0 and text[at - 1] in before) or (end < len(text) and text[end] in after):
                continue
            spans.add((at, end, True))
    return sorted(spans)
