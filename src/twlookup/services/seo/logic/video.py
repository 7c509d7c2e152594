"""Video chapters, title, description and tags checked against the video platform's published
rules. Pure functions."""

from __future__ import annotations

import re
from dataclasses import dataclass

TIMESTAMP = re.compile(r"^(?:(\d{1,2}):)?(\d{1,2}):(\d{2})$")
VIDEO_RULES = {
    "chapters-first": "The first chapter starts at 00:00.",
    "chapters-count": "There are at least three chapters.",
    "chapters-order": "Chapter times are in ascending order.",
    "chapters-length": "Each chapter lasts at least 10 seconds.",
    "chapters-duration": "Every chapter starts before the end of the video.",
    "title-length": "The title is at most 100 characters.",
    "title-empty": "The title is not empty.",
    "title-brackets": "The title contains no < or >.",
    "description-length": "The description is at most 5,000 bytes in UTF-8 (a CJK character takes 3 bytes).",
    "description-brackets": "The description contains no < or >.",
    "tags-length": "Tags take at most 500 characters in total: the commas between tags count, and a tag with a space counts the two quotes around it.",
}
# Which published page each rule comes from: the chapter rules from YouTube Help, the field limits
# from the YouTube Data API reference of the videos resource (snippet.title, .description, .tags[]).
VIDEO_RULE_PAGE = {rule: "chapters" if rule.startswith("chapters") else "api" for rule in VIDEO_RULES}


def seconds(stamp: str) -> int | None:
    m = TIMESTAMP.match(stamp.strip())
    if not m:
        return None
    h, mnt, s = int(m.group(1) or 0), int(m.group(2)), int(m.group(3))
    if s >= 60 or (m.group(1) is not None and mnt >= 60):
        return None
    return h * 3600 + mnt * 60 + s


def tags_length(tags: list[str]) -> int:
    """Characters tags take: each tag, a comma between them, quotes around a tag with a space."""
    total = sum(len(t) + (2 if " " in t else 0) for t in tags)
    return total + max(len(tags) - 1, 0)


@dataclass
class VideoFinding:
    rule: str
    ok: bool
    detail: str


def _brackets(text: str) -> str:
    found = sorted({c for c in text if c in "<>"})
    return " and ".join(found)


def video_check(
    chapters: list[tuple[str, str]], duration: int | None, title: str, description: str, tags: list[str]
) -> list[VideoFinding]:
    out: list[VideoFinding] = []
    starts = [seconds(t) for t, _ in chapters]
    if chapters:
        out.append(VideoFinding("chapters-first", starts[0] == 0, f"first chapter at {chapters[0][0]}"))
        out.append(VideoFinding("chapters-count", len(chapters) >= 3, f"{len(chapters)} chapters"))
        ascending = all(a is not None and b is not None and b > a for a, b in zip(starts, starts[1:]))
        out.append(VideoFinding("chapters-order", ascending, "ascending" if ascending else "not ascending"))
        ends = [*starts[1:], duration]
        short = [
            f"{chapters[i][0]} {chapters[i][1]!r} ({e - s} s)"
            for i, (s, e) in enumerate(zip(starts, ends))
            if s is not None and e is not None and e - s < 10
        ]
        out.append(VideoFinding("chapters-length", not short, "; ".join(short) or "every chapter at least 10 s"))
        if duration is not None:
            late = [t for (t, _), s in zip(chapters, starts) if s is not None and s >= duration]
            out.append(VideoFinding("chapters-duration", not late, ", ".join(late) or f"all before {duration} s"))
    out.append(VideoFinding("title-empty", bool(title.strip()), f"{len(title)} characters"))
    out.append(VideoFinding("title-length", len(title) <= 100, f"{len(title)} characters"))
    out.append(VideoFinding("title-brackets", not _brackets(title), _brackets(title) or "none"))
    size = len(description.encode("utf-8"))
    out.append(VideoFinding("description-length", size <= 5000, f"{size} bytes ({len(description)} characters)"))
    out.append(VideoFinding("description-brackets", not _brackets(description), _brackets(description) or "none"))
    out.append(VideoFinding("tags-length", tags_length(tags) <= 500, f"{tags_length(tags)} characters"))
    return out
