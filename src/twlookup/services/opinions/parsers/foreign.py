"""The two outside communities' public API formats, parsed into threads. Pure: bytes in, threads out.

Hacker News, through its Algolia search API (`https://hn.algolia.com/api/v1/search?query=...
&tags=story`, no key): {"hits": [{"objectID": "1003052", "title": "...", "url": "...", "author":
"...", "points": 43, "num_comments": 51, "created_at": "2009-12-18T...Z", "created_at_i":
1261...}], "nbHits": ..., ...}. Stories are the authors' own; only title, summary and link are kept.

Stack Exchange API 2.3 (`https://api.stackexchange.com/2.3/search/advanced?q=...&site=...`, no
key for light use): {"items": [{"question_id": 1, "title": "...", "link": "https://superuser.com/
questions/1/...", "score": 5, "answer_count": 2, "creation_date": 1261..., "tags": [...]}],
"has_more": false, "quota_remaining": 299}. Titles arrive HTML-escaped. Content is CC BY-SA:
4.0 for posts from 2018-05-02, 3.0 from 2011-04-08, 2.5 before.
"""

from __future__ import annotations

import html
import json
from datetime import UTC, date, datetime
from urllib.parse import urlparse

from twlookup.services.opinions.records import Thread

HN_LICENCE = "Copyright of the authors (Hacker News); title, summary and link only"


def se_licence(created: datetime) -> str:
    if created.date() >= date(2018, 5, 2):
        return "CC BY-SA 4.0"
    if created.date() >= date(2011, 4, 8):
        return "CC BY-SA 3.0"
    return "CC BY-SA 2.5"


def _load(raw: bytes, key: str) -> list[dict]:
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ValueError("not JSON") from None
    if not isinstance(doc, dict) or not isinstance(doc.get(key), list):
        raise ValueError(f"expected an object with a list under {key!r}")
    return doc[key]


def _int(item: dict, name: str, where: str) -> int:
    value = item.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: {name} must be an integer, got {value!r}")
    return value


def parse_hn(raw: bytes, checked: date) -> list[Thread]:
    out = []
    for i, hit in enumerate(_load(raw, "hits")):
        where = f"hit {i + 1}"
        ident = str(hit.get("objectID") or "").strip()
        title = hit.get("title") or hit.get("story_title")
        if not ident.isdigit() or not isinstance(title, str) or not title.strip():
            raise ValueError(f"{where}: needs a numeric objectID and a title")
        created = datetime.fromtimestamp(_int(hit, "created_at_i", where), tz=UTC)
        out.append(
            Thread(
                id=f"hn:{ident}",
                community="hackernews",
                site="news.ycombinator.com",
                title=title.strip(),
                url=f"https://news.ycombinator.com/item?id={ident}",
                created=created,
                score=_int(hit, "points", where),
                comments=hit.get("num_comments") or 0,
                source=f"https://hn.algolia.com/api/v1/items/{ident}",
                source_title="Hacker News Search API (Algolia)",
                checked=checked,
                licence=HN_LICENCE,
            )
        )
    return out


def parse_se(raw: bytes, checked: date) -> list[Thread]:
    out = []
    for i, item in enumerate(_load(raw, "items")):
        where = f"item {i + 1}"
        qid = _int(item, "question_id", where)
        link = item.get("link")
        title = item.get("title")
        if not isinstance(link, str) or not link.startswith("https://") or not isinstance(title, str):
            raise ValueError(f"{where}: needs an https link and a title")
        site = urlparse(link).hostname or ""
        created = datetime.fromtimestamp(_int(item, "creation_date", where), tz=UTC)
        out.append(
            Thread(
                id=f"se:{site}:{qid}",
                community="stackexchange",
                site=site,
                title=html.unescape(title).strip(),
                url=link,
                created=created,
                score=_int(item, "score", where),
                comments=_int(item, "answer_count", where),
                source=f"https://api.stackexchange.com/2.3/questions/{qid}?site={site}",
                source_title="Stack Exchange API 2.3",
                checked=checked,
                licence=se_licence(created),
            )
        )
    return out
