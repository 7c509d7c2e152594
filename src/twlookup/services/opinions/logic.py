"""Credibility of an opinion item by a stated rule, and the digest of a set of items. Pure."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime

from twlookup.services.opinions import aicheck

# ChatGPT's public release, 2022-11-30, taken at 00:00 UTC (unix 1669766400): discussion created
# before it cannot have been written with a public AI chat assistant.
AI_CUTOFF = datetime(2022, 11, 30, tzinfo=UTC)
AI_CUTOFF_DATE = AI_CUTOFF.date()


@dataclass(frozen=True)
class Part:
    name: str
    points: float
    max_points: float
    why: str


def credibility(
    created: date, today: date, score: int | None, comments: int | None, text: str, missing: str = "site post"
) -> tuple[float, str, list[Part]]:
    """Sum of five parts (maximum 1.0):

    community  0.30 x min(1, log10(1 + score) / 3)      (1000 points or votes = full)
    replies    0.25 x min(1, log10(1 + comments) / 2.5) (about 316 comments = full)
    pre_ai     0.20 when created before 2022-11-30 (UTC), else 0
    age        0.15 when at most 3 years old, 0.10 up to 6 years, 0.05 older (opinions date)
    ai_check   0.10 when the AI-text check labels the item's text likely-human, 0.05 uncertain, 0 likely-ai
    Label: high >= 0.60, medium >= 0.35, low otherwise. Site posts have no community score or
    replies yet, and some outside threads were read from a copy that shows neither (`missing` says
    which): those parts are then 0, never guessed.
    """
    parts: list[Part] = []
    s = max(score or 0, 0)
    c = max(comments or 0, 0)
    parts.append(
        Part(
            "community",
            round(0.30 * min(1.0, math.log10(1 + s) / 3), 4),
            0.30,
            f"score {score}" if score is not None else f"no community score ({missing})",
        )
    )
    parts.append(
        Part(
            "replies",
            round(0.25 * min(1.0, math.log10(1 + c) / 2.5), 4),
            0.25,
            f"{comments} comments or answers" if comments is not None else f"no reply count ({missing})",
        )
    )
    before = created < AI_CUTOFF_DATE
    parts.append(
        Part(
            "pre_ai",
            0.20 if before else 0.0,
            0.20,
            "before 2022-11-30" if before else "on or after 2022-11-30, when AI chat assistants were public",
        )
    )
    years = (today - created).days / 365.25
    age = 0.15 if years <= 3 else 0.10 if years <= 6 else 0.05
    parts.append(Part("age", age, 0.15, f"{years:.1f} years old"))
    check = aicheck.check(text) if text.strip() else None
    if check is None:
        parts.append(Part("ai_check", 0.05, 0.10, "no text to check"))
    else:
        pts = {"likely-human": 0.10, "uncertain": 0.05, "likely-ai": 0.0}[check.label]
        parts.append(Part("ai_check", pts, 0.10, f"AI-text check: {check.label} ({check.score})"))
    total = round(sum(p.points for p in parts), 4)
    label = "high" if total >= 0.60 else "medium" if total >= 0.35 else "low"
    return total, label, parts


def ratio(stances: list[str]) -> tuple[int, int, int, float | None]:
    """(recommend, not-recommend, mixed, share recommending among those that take a side)."""
    rec = stances.count("recommend")
    nrec = stances.count("not-recommend")
    mixed = stances.count("mixed")
    return rec, nrec, mixed, round(rec / (rec + nrec), 4) if rec + nrec else None
