"""Mobile01 topic pages, parsed into a thread. Pure: bytes in, thread out.

A topic lives at `https://www.mobile01.com/topicdetail.php?f=<forum>&t=<topic>` (`&p=<page>` for
its later pages). The page is HTML; what is read here, as the open-source Mobile01 scrapers in the
stored code index read it (no stored copy of a whole page was found, so the structure is theirs,
confirmed by several independent ones; see docs/services/opinions.md):

- the title in `<h1 class="t2">`;
- one `<div class="l-articlePage">` per floor: the author's handle in `<div class="c-authorInfo__id">`
  (an `<a href="userinfo.php?id=N" class="c-link c-link--gn u-ellipsis">` link), the post in
  `<article id="article_N">` inside `<div class="l-articlePage__publish">` (the opening post's text
  is marked `itemprop="articleBody"`), other floors quoted in `<blockquote>`, and small notes
  (`<span class="o-fNotes o-fSubMini">`, the opening post's `<li class="l-toolBar__item">`) with the
  time as `YYYY-MM-DD HH:MM` (Taiwan time) and the floor as `#N`;
- the pages of the topic linked as `topicdetail.php?f=..&t=..&p=N` (`<ul class="l-pagination">`).

Kept as the forum shows it: the title, the opening post's author handle, its time, the opening of
the post in the author's own words (quoted floors left out, at most QUOTE_CHARS characters) and the
link. The reply count is the last floor's number less one when the page read is the topic's last;
otherwise it is not known from the copy read (null). Mobile01 shows no vote score for a topic here.

The page does not name its own address where the scrapers looked, so the forum and topic numbers
come from the name the file is saved under (`mobile01-<forum>-<topic>.html`, or the page's address)
and, when the topic has several pages, from its page links; the two must agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from html.parser import HTMLParser

from twlookup.services.opinions.parsers.taiwan import TAIPEI, quote_opening, read_page
from twlookup.services.opinions.records import Thread

LICENCE = "Copyright of the authors (Mobile01); title, handle, a short quote and link only"
BASE = "https://www.mobile01.com/"
TOPIC_LINK = re.compile(r"topicdetail\.php\?f=(\d+)&t=(\d+)(?:&p=(\d+))?")
SAVED_NAME = re.compile(r"mobile01-(\d+)-(\d+)(?:-p(\d+))?")
WHEN = re.compile(r"(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2})")
FLOOR = re.compile(r"#(\d+)")
VOID = {"br", "img", "meta", "link", "input", "hr", "source", "wbr"}
BLOCK = {"p", "div", "li", "br", "tr", "h1", "h2", "h3", "h4"}


def topic_url(forum: int, topic: int) -> str:
    return f"{BASE}topicdetail.php?f={forum}&t={topic}"


def saved_name(forum: int, topic: int) -> str:
    """The file name a saved topic page is given (the importer reads the numbers from it)."""
    return f"mobile01-{forum}-{topic}.html"


@dataclass
class _Floor:
    handle: str = ""
    notes: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    has_body: bool = False


class _Page(HTMLParser):
    """Collects the title, the floors (handle, notes, own text) and the topic's page links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []  # (tag, role)
        self.title: list[str] = []
        self.floors: list[_Floor] = []
        self.links: list[tuple[int, int, int]] = []  # (forum, topic, page)

    def _roles(self) -> set[str]:
        return {role for _, role in self.stack if role}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        classes = set(a.get("class", "").split())
        roles = self._roles()
        role = None
        if tag == "a" and (m := TOPIC_LINK.search(a.get("href", ""))):
            self.links.append((int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)))
        if tag == "h1" and "t2" in classes:
            role = "title"
        elif tag == "div" and "l-articlePage" in classes:
            role = "floor"
            self.floors.append(_Floor())
        elif "floor" in roles:
            if "c-authorInfo__id" in classes:
                role = "handle"
            elif "o-fNotes" in classes or "l-toolBar__item" in classes:
                role = "note"
                self.floors[-1].notes.append("")
            elif tag == "blockquote":
                role = "quoted"
            elif tag in ("script", "style"):
                role = "skip"
            elif (tag == "article" or a.get("itemprop") == "articleBody") and "body" not in roles:
                role = "body"
                self.floors[-1].has_body = True
        if tag in BLOCK and "body" in roles and self.floors:
            self.floors[-1].text.append("\n")
        if tag not in VOID:
            self.stack.append((tag, role))

    def handle_endtag(self, tag: str) -> None:
        if tag in BLOCK and "body" in self._roles() and self.floors:
            self.floors[-1].text.append("\n")
        for i in range(len(self.stack) - 1, -1, -1):  # close up to the matching open tag
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        roles = self._roles()
        if "title" in roles:
            self.title.append(data)
        if not self.floors or "floor" not in roles:
            return
        floor = self.floors[-1]
        if "handle" in roles:
            floor.handle += data
        elif "note" in roles:
            floor.notes[-1] += data
        elif "body" in roles and not roles & {"quoted", "skip"}:
            floor.text.append(data)


def _numbers(where: str, page: _Page) -> tuple[int, int, int]:
    """(forum, topic, page) from the file's name or address, checked against the page's own links."""
    named = SAVED_NAME.search(where) or TOPIC_LINK.search(where)
    pages = {(f, t) for f, t, _ in page.links}
    if named:
        forum, topic, number = int(named.group(1)), int(named.group(2)), int(named.group(3) or 1)
        if pages and (forum, topic) not in pages:
            raise ValueError(f"{where}: the page links to topic {sorted(pages)[0]}, not f={forum}&t={topic}")
        return forum, topic, number
    if len(pages) == 1:
        forum, topic = next(iter(pages))
        return forum, topic, 1
    raise ValueError(
        f"{where}: cannot tell which topic this is; save the page as mobile01-<f>-<t>.html "
        "(the numbers of topicdetail.php?f=<f>&t=<t>)"
    )


def _when(floor: _Floor) -> datetime | None:
    for note in floor.notes:
        if m := WHEN.search(note):
            y, mo, d, h, mi = (int(x) for x in m.groups())
            return datetime(y, mo, d, h, mi, tzinfo=TAIPEI)
    return None


def _floor_number(floor: _Floor) -> int | None:
    for note in floor.notes:
        if m := FLOOR.fullmatch(note.strip()):
            return int(m.group(1))
    return None


def topic_part(raw: bytes, filename: str) -> str:
    """The feed part a saved page is: its topic (`<forum>-<topic>`), the same key the refresh uses."""
    named = SAVED_NAME.search(filename) or TOPIC_LINK.search(filename)
    if named is None:
        page = _Page()
        page.feed(raw.decode("utf-8", errors="replace"))
        found = {(f, t) for f, t, _ in page.links}
        return "-".join(map(str, found.pop())) if len(found) == 1 else "file"
    return f"{named.group(1)}-{named.group(2)}"


def parse_mobile01(raw: bytes, checked: date, where: str) -> Thread:
    """The topic of one saved page (its first page), `where` being the file name or the address read."""
    page = _Page()
    read_page(raw, page)
    title = re.sub(r"\s+", " ", "".join(page.title)).strip()
    floors = [f for f in page.floors if f.handle.strip() and f.has_body]
    if not title or not floors:
        raise ValueError(
            "no Mobile01 topic: an <h1 class='t2'> title and <div class='l-articlePage'> floors with an author and "
            "a post were not found (Mobile01 answers some clients with a browser check instead of the page)"
        )
    forum, topic, number = _numbers(where, page)
    first = floors[0]
    first_no = _floor_number(first)
    if number != 1 or (first_no is not None and first_no != 1):
        raise ValueError(f"{where}: this is not the topic's first page (it starts at floor #{first_no or '?'})")
    created = _when(first)
    if created is None:
        raise ValueError(f"{where}: the opening post shows no time as YYYY-MM-DD HH:MM")
    later = any((f, t) == (forum, topic) and p > number for f, t, p in page.links)
    last_floor = max((n for n in map(_floor_number, floors) if n is not None), default=None)
    comments = None if later or last_floor is None else last_floor - 1
    text = quote_opening("\n".join(line.strip() for line in "".join(first.text).splitlines()))
    url = topic_url(forum, topic)
    return Thread(
        id=f"mobile01:{forum}:{topic}",
        community="mobile01",
        site=f"mobile01.com/topiclist.php?f={forum}",
        title=title,
        url=url,
        created=created,
        score=None,
        comments=comments,
        author=re.sub(r"\s+", " ", first.handle).strip(),
        quote=text or None,
        source=url,
        source_title="Mobile01 topic page (web copy)",
        checked=checked,
        licence=LICENCE,
    )
