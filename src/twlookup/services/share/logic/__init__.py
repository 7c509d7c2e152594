"""The ranking score, period windows and the Markdown pack of the share service. Pure functions;
`now` is always passed in.

Score (a Hacker-News-style gravity over the site's own engagement):

    points = votes + 2 x comments + 0.1 x clicks
    score  = points / (age_hours + 2) ^ 1.8

A comment weighs two votes (it took more effort), a click-through a tenth of one (it is cheap).
Age is counted from publication (approval). A ranking of a period lists the shares published in
the rolling window ending now: day 24 h, week 7 days, month 30 days, year 365 days.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

Period = Literal["day", "week", "month", "year"]
PERIOD_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
VOTE_WEIGHT, COMMENT_WEIGHT, CLICK_WEIGHT = 1.0, 2.0, 0.1
GRAVITY, TIMEBASE_HOURS = 1.8, 2.0
FORMULA = "score = (votes + 2·comments + 0.1·clicks) / (age_hours + 2)^1.8"


@dataclass(frozen=True)
class Counts:
    votes: int
    comments: int
    clicks: int


def points(c: Counts) -> float:
    return VOTE_WEIGHT * c.votes + COMMENT_WEIGHT * c.comments + CLICK_WEIGHT * c.clicks


def score(c: Counts, published: datetime, now: datetime) -> float:
    age_hours = max(0.0, (now - published).total_seconds() / 3600)
    return points(c) / (age_hours + TIMEBASE_HOURS) ** GRAVITY


def window_start(period: Period, now: datetime) -> datetime:
    return now - timedelta(days=PERIOD_DAYS[period])


def distribution(values: Iterable[str]) -> dict[str, int]:
    return dict(sorted(Counter(values).items(), key=lambda kv: (-kv[1], kv[0])))


def markdown_pack(shares: Sequence[dict], generated: datetime) -> str:
    """The whole public site as one Markdown document: every share with its counts and comments."""
    lines = [
        "# twlookup share：台灣網友分享的影片與貼文",
        "",
        f"產生時間：{generated.isoformat()}。分享只含連結、標題、分享者的說明與本站的互動數；影片與貼文的著作權屬於原作者。",
        "",
    ]
    for s in shares:
        title = s["title"] or s["url"]
        lines += [
            f"## {title}",
            "",
            f"- 連結：<{s['url']}>",
            f"- 平台：{s['platform']}　分類：{s['category']}",
            f"- 投票 {s['votes']}　留言 {s['comments']}　點擊 {s['clicks']}",
            f"- 發布：{s['published_at']}",
        ]
        if s.get("sample"):
            lines.append("- 範例資料（sample），非真實分享")
        if s.get("description"):
            lines += ["", s["description"]]
        for c in s.get("comment_list", []):
            lines += ["", f"> {c['body']}", f"> — 留言於 {c['published_at']}"]
        lines.append("")
    return "\n".join(lines)
