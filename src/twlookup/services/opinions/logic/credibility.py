"""Credibility of an opinion item by a stated rule, and the digest of a set of items. Pure."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from twlookup.services.opinions.logic import aicheck

# ChatGPT's public release, 2022-11-30, taken at 00:00 UTC (unix 1669766400). Used only by the `before`
# filter a user may ask for; it is not a credibility part (a post is not more credible for being old).
AI_CUTOFF = datetime(2022, 11, 30, tzinfo=UTC)
AI_CUTOFF_DATE = AI_CUTOFF.date()

# Specificity: measurable, checkable detail in the post's own words.
_NUMBER_UNIT = re.compile(
    r"\d+(?:[.,]\d+)?\s*(?:%|mAh|mm|cm|kg|g|W|Hz|dB|GB|TB|小時|分鐘|天|週|個月|年|公斤|公克|公分|元|塊|hours?|days?|"
    r"weeks?|months?|years?|NT\$?|\$)",
    re.IGNORECASE,
)
_MODEL = re.compile(r"\b[A-Za-z]{1,6}-?\d{2,5}[A-Za-z]?\b")
# Disclosure of sponsorship or a free product, in the post's own words (Taiwan forum usage and English).
DISCLOSURE = re.compile(
    r"業配|廠商(?:提供|贊助|邀請)|贊助|合作文|公關品|試用品|#ad\b|sponsored|paid partnership|"
    r"(?:provided|sent) (?:to me )?(?:free )?by the (?:maker|manufacturer|brand)",
    re.IGNORECASE,
)


Label = Literal["high", "medium", "low"]


@dataclass(frozen=True)
class Part:
    name: str
    points: float
    max_points: float
    why: str


def specificity(text: str) -> tuple[int, str]:
    """How many concrete details (numbers with a unit, model numbers) the text holds."""
    units = _NUMBER_UNIT.findall(text)
    models = _MODEL.findall(text)
    return len(units) + len(models), f"{len(units)} measured values, {len(models)} model numbers in the post"


def _count(name: str, count: int | None, weight: float, full_at: float, shown: str, unknown: str) -> Part:
    """A part that grows with the log of a count: `weight` x min(1, log10(1 + count) / full_at)."""
    points = round(weight * min(1.0, math.log10(1 + max(count or 0, 0)) / full_at), 4)
    return Part(name, points, weight, shown if count is not None else unknown)


def credibility(
    score: int | None, comments: int | None, own_text: str | None, missing: str = "site post"
) -> tuple[float, Label, list[Part]]:
    """Sum of five parts (maximum 1.0), none of which depends on the item's age or date:

    community   0.35 x min(1, log10(1 + score) / 3)      (1000 points, votes or likes = full)
    replies     0.25 x min(1, log10(1 + comments) / 2.5) (about 316 comments or pushes = full)
    specificity 0.15 x min(1, details / 5), details = numbers with a unit + model numbers in the post's own text
    disclosure  0.15 when the post's own text declares no sponsorship, 0 when it says it is sponsored
                (業配, 廠商提供, sponsored, ...): a declared sponsorship is honest but not independent
    ai_check    0.10 when the AI-text check on the post's own text says likely-human, 0.05 uncertain, 0 likely-ai
    Label: high >= 0.60, medium >= 0.35, low otherwise. A part whose input is unknown is 0, never guessed:
    a count the copy read does not show (`missing` says why), or a post whose own text is not stored
    (then specificity, disclosure and the AI check are not applied: this site never checks its own summary).
    """
    parts = [
        _count("community", score, 0.35, 3, f"score {score}", f"no community score ({missing})"),
        _count("replies", comments, 0.25, 2.5, f"{comments} comments or answers", f"no reply count ({missing})"),
    ]
    text = (own_text or "").strip()
    if not text:
        why = "the post's own text is not stored; not checked"
        parts += [
            Part("specificity", 0.0, 0.15, why),
            Part("disclosure", 0.0, 0.15, why),
            Part("ai_check", 0.0, 0.10, why),
        ]
    else:
        n, why = specificity(text)
        parts.append(Part("specificity", round(0.15 * min(1.0, n / 5), 4), 0.15, why))
        found = DISCLOSURE.search(text)
        parts.append(
            Part(
                "disclosure",
                0.0 if found else 0.15,
                0.15,
                f"declares sponsorship ({found.group(0)!r})" if found else "no sponsorship declared in the post",
            )
        )
        check = aicheck.check(text)
        pts = {"likely-human": 0.10, "uncertain": 0.05, "likely-ai": 0.0}[check.label]
        parts.append(
            Part("ai_check", pts, 0.10, f"AI-text check on the post's own text: {check.label} ({check.score})")
        )
    total = round(sum(p.points for p in parts), 4)
    label: Label = "high" if total >= 0.60 else "medium" if total >= 0.35 else "low"
    return total, label, parts


def ratio(stances: list[str]) -> tuple[int, int, int, float | None]:
    """(recommend, not-recommend, mixed, share recommending among those that take a side)."""
    rec = stances.count("recommend")
    nrec = stances.count("not-recommend")
    mixed = stances.count("mixed")
    return rec, nrec, mixed, round(rec / (rec + nrec), 4) if rec + nrec else None
