"""Taiwan forums' public formats, parsed into threads. Pure: bytes in, threads out.

PTT, the web copy of an article page (`https://www.ptt.cc/bbs/<board>/M.<unix>.A.<hex>.html`):
`<div id="main-content">` holds four `article-metaline` divs (作者 / 看板 / 標題 / 時間, each a
`article-meta-tag` and `article-meta-value` span), the body as plain text, the `※ 發信站` and
`※ 文章網址` lines in `f2` spans, and one `<div class="push">` per reply (`push-tag` 推, 噓 or →,
`push-userid`, `push-content`, `push-ipdatetime`). The file name's `M.<unix>` is the post's
creation instant (UTC); the 時間 line is the same instant in Taiwan time. Score = 推 minus 噓 (the
net count PTT's board list shows), comments = every push line.

Dcard, its public JSON for one post (`https://www.dcard.tw/service/api/v2/posts/<id>`) or a
forum's list (`.../v2/forums/<alias>/posts`, a list of the same objects without `content`, with
`excerpt`): id, title, content or excerpt, createdAt (ISO 8601, UTC), commentCount, likeCount,
forumAlias, forumName, school, department, anonymousSchool, withNickname. The post lives at
`https://www.dcard.tw/f/<forumAlias>/p/<id>`. The author is shown as Dcard shows them: the
nickname (`school` when `withNickname`, with `@department` as the persona id), else the school,
else 匿名.

Both keep what the forum shows: the title, the author's handle, the link, the counts and the
opening of the post in the author's own words (quoted, at most QUOTE_CHARS characters; lines
quoting someone else and the signature are left out). Nothing is summarised here.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime, timedelta, timezone
from html.parser import HTMLParser

from twlookup.services.opinions.records import Thread

QUOTE_CHARS = 300
PTT_LICENCE = "Copyright of the authors (PTT); title, handle, a short quote and link only"
DCARD_LICENCE = "Copyright of the authors (Dcard); title, handle, a short quote and link only"
TAIPEI = timezone(timedelta(hours=8))
PTT_URL = re.compile(r"https://www\.ptt\.cc/bbs/([A-Za-z0-9_-]+)/(M\.(\d+)\.A\.[0-9A-F]{3})\.html")


def quote_opening(text: str) -> str:
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r"\n{2,}", "\n", text).strip()
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1].rstrip() + "…"


class _PttPage(HTMLParser):
    """Collects the meta lines, the body text and the push lines of `#main-content`."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, set[str], str | None]] = []  # (tag, classes, role)
        self.depth_main: int | None = None
        self.meta: dict[str, str] = {}
        self._tag: str | None = None
        self.body: list[str] = []
        self.pushes: list[dict[str, str]] = []
        self.links: list[str] = []

    def _role(self) -> str | None:
        for _, _, role in reversed(self.stack):
            if role:
                return role
        return None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        role = None
        if a.get("id") == "main-content":
            self.depth_main = len(self.stack)
            role = "main"
        elif self.depth_main is not None:
            if classes & {"article-metaline", "article-metaline-right"}:
                role = "meta"
            elif "article-meta-tag" in classes:
                role = "meta-tag"
            elif "article-meta-value" in classes:
                role = "meta-value"
            elif tag == "div" and "push" in classes:
                role = "push"
                self.pushes.append({"tag": "", "user": "", "content": "", "time": ""})
            elif "push-tag" in classes:
                role = "push-tag"
            elif "push-userid" in classes:
                role = "push-user"
            elif "push-content" in classes:
                role = "push-content"
            elif "push-ipdatetime" in classes:
                role = "push-time"
            elif "f2" in classes:
                role = "f2"
            if tag == "a" and a.get("href"):
                self.links.append(a["href"] or "")
        if tag in ("br", "img", "meta", "link", "input", "hr"):
            return
        self.stack.append((tag, classes, role))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            t, _, role = self.stack.pop()
            if role == "main":
                self.depth_main = None
            if t == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.depth_main is None:
            return
        role = self._role()
        if role == "meta-tag":
            self._tag = data.strip()
        elif role == "meta-value" and self._tag:
            self.meta[self._tag] = self.meta.get(self._tag, "") + data
        elif role in ("push-tag", "push-user", "push-content", "push-time") and self.pushes:
            key = {"push-tag": "tag", "push-user": "user", "push-content": "content", "push-time": "time"}[role]
            self.pushes[-1][key] += data
        elif role == "main" or role is None:
            self.body.append(data)


def _ptt_own_words(body: str) -> str:
    body = body.split("\n--\n")[0]  # the signature and the 發信站 lines follow the last "--"
    keep = [
        line
        for line in body.splitlines()
        if not line.startswith((": ", "※ 引述", "※ 發信站", "※ 編輯", "※ 文章網址", "--"))
    ]
    return "\n".join(keep)


def read_page(raw: bytes, page: HTMLParser) -> str:
    """Feed a page's UTF-8 text to `page` (a collecting parser); the text, for what the parser leaves."""
    try:
        html = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    page.feed(html)
    page.close()
    return html


def parse_ptt(raw: bytes, checked: date) -> Thread:
    page = _PttPage()
    html = read_page(raw, page)
    if "作者" not in page.meta or "標題" not in page.meta:
        raise ValueError("no PTT article: #main-content with 作者 and 標題 lines was not found")
    url = next((m for m in (PTT_URL.fullmatch(link) for link in page.links) if m), None)
    if url is None:
        found = PTT_URL.search(html)
        if found is None:
            raise ValueError("no ※ 文章網址 line with the article's https://www.ptt.cc/bbs/... address")
        url = found
    board, article, unix = url.group(1), url.group(2), int(url.group(3))
    created = datetime.fromtimestamp(unix, tz=UTC)
    stamp = page.meta.get("時間", "").strip()
    if stamp:
        try:
            shown = datetime.strptime(re.sub(r"\s+", " ", stamp), "%a %b %d %H:%M:%S %Y").replace(tzinfo=TAIPEI)
        except ValueError:
            raise ValueError(f"時間 {stamp!r} is not PTT's 'Www Mmm dd hh:mm:ss yyyy'") from None
        if abs((shown - created).total_seconds()) > 86400:
            raise ValueError(f"時間 {stamp} does not match the article id {article} ({created.isoformat()})")
    author = page.meta["作者"].strip()
    handle = author.split(" (", 1)[0].strip()
    tags = [p["tag"].strip() for p in page.pushes]
    return Thread(
        id=f"ptt:{board}:{article}",
        community="ptt",
        site=f"ptt.cc/bbs/{board}",
        title=page.meta["標題"].strip(),
        url=url.group(0),
        created=created,
        score=tags.count("推") - tags.count("噓"),
        comments=len(tags),
        author=handle or None,
        quote=quote_opening(_ptt_own_words("".join(page.body))) or None,
        source=url.group(0),
        source_title="PTT article page (web copy)",
        checked=checked,
        licence=PTT_LICENCE,
    )


def _dcard_author(post: dict) -> str:
    school = str(post.get("school") or "").strip()
    if post.get("withNickname") and school:
        persona = str(post.get("department") or "").strip()
        return f"{school} @{persona}" if persona else school
    if post.get("anonymousSchool") or not school:
        return "匿名"
    return school


def _int(post: dict, name: str, where: str) -> int:
    value = post.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{where}: {name} must be a non-negative integer, got {value!r}")
    return value


def parse_dcard(raw: bytes, checked: date) -> list[Thread]:
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ValueError("not JSON") from None
    posts = doc if isinstance(doc, list) else [doc]
    out = []
    for i, post in enumerate(posts):
        where = f"post {i + 1}"
        if not isinstance(post, dict):
            raise ValueError(f"{where}: expected an object")
        ident = _int(post, "id", where)
        alias = post.get("forumAlias")
        title = post.get("title")
        if not isinstance(alias, str) or not re.fullmatch(r"[a-z0-9_-]+", alias) or not isinstance(title, str):
            raise ValueError(f"{where}: needs a forumAlias and a title")
        try:
            created = datetime.fromisoformat(str(post.get("createdAt")).replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"{where}: createdAt {post.get('createdAt')!r} is not an ISO 8601 time") from None
        if created.tzinfo is None:
            raise ValueError(f"{where}: createdAt has no time zone")
        text = post.get("content") if isinstance(post.get("content"), str) else post.get("excerpt")
        link = f"https://www.dcard.tw/f/{alias}/p/{ident}"
        out.append(
            Thread(
                id=f"dcard:{ident}",
                community="dcard",
                site=f"dcard.tw/f/{alias}",
                title=title.strip(),
                url=link,
                created=created,
                score=_int(post, "likeCount", where),
                comments=_int(post, "commentCount", where),
                author=_dcard_author(post),
                quote=quote_opening(text) if isinstance(text, str) and text.strip() else None,
                source=f"https://www.dcard.tw/service/api/v2/posts/{ident}",
                source_title="Dcard public post API (v2)",
                checked=checked,
                licence=DCARD_LICENCE,
            )
        )
    return out
