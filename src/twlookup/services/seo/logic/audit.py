"""The page audit: facts read from a page's HTML, its weighted items and score, and the three
site-level items (robots.txt, sitemap, AI crawler settings). Pure functions."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

from twlookup.services.seo.logic.serp import DESCRIPTION_FONT, DESCRIPTION_PX, TITLE_FONT, TITLE_PX, text_px


@dataclass
class PageFacts:
    title: str | None = None
    description: str | None = None
    robots_meta: list[str] = field(default_factory=list)
    canonical: str | None = None
    h1: list[str] = field(default_factory=list)
    images: int = 0
    images_without_alt: int = 0
    og: dict[str, str] = field(default_factory=dict)
    twitter: dict[str, str] = field(default_factory=dict)
    json_ld: int = 0
    json_ld_valid: int = 0
    links_internal: int = 0
    links_external: int = 0
    text: list[str] = field(default_factory=list)


def _parses(text: str) -> bool:
    """Whether a JSON-LD block is JSON. A block nested deeper than the parser recurses (a hostile
    page: "[[[[...") is not: it counts as invalid structured data, like any other that does not parse."""
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


class _PageParser(HTMLParser):
    def __init__(self, base: str) -> None:
        super().__init__(convert_charrefs=True)
        self.base = base
        self.host = urlsplit(base).hostname
        self.facts = PageFacts()
        self._in: list[str] = []
        self._buffer: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        f = self.facts
        if tag in ("script", "style", "noscript", "template"):
            self._skip += 1
            if tag == "script" and a.get("type", "").lower() == "application/ld+json":
                f.json_ld += 1
                self._in.append("ld")
                self._buffer = []
            return
        if tag in ("title", "h1"):
            self._in.append(tag)
            self._buffer = []
        elif tag == "meta":
            name = (a.get("name") or a.get("property") or "").lower()
            content = a.get("content", "")
            if name == "description":
                f.description = content
            elif name in ("robots", "googlebot"):
                f.robots_meta += [t.strip().lower() for t in content.split(",") if t.strip()]
            elif name.startswith("og:"):
                f.og[name] = content
            elif name.startswith("twitter:"):
                f.twitter[name] = content
        elif tag == "link" and "canonical" in a.get("rel", "").lower().split():
            f.canonical = urljoin(self.base, a.get("href", ""))
        elif tag == "img":
            f.images += 1
            if "alt" not in a:
                f.images_without_alt += 1
        elif tag == "a" and a.get("href"):
            href = urljoin(self.base, a["href"])
            if urlsplit(href).scheme in ("http", "https"):
                if urlsplit(href).hostname == self.host:
                    f.links_internal += 1
                else:
                    f.links_external += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "noscript", "template"):
            self._skip = max(self._skip - 1, 0)
            if self._in and self._in[-1] == "ld":
                self._in.pop()
                if _parses("".join(self._buffer)):
                    self.facts.json_ld_valid += 1
            return
        if self._in and self._in[-1] == tag:
            self._in.pop()
            text = " ".join("".join(self._buffer).split())
            if tag == "title" and self.facts.title is None:
                self.facts.title = text
            elif tag == "h1":
                self.facts.h1.append(text)

    def handle_data(self, data: str) -> None:
        if self._in:
            self._buffer.append(data)
        if not self._skip and not (self._in and self._in[-1] == "title"):
            self.facts.text.append(data)


def page_facts(html_text: str, base: str) -> PageFacts:
    parser = _PageParser(base)
    parser.feed(html_text)
    parser.close()
    return parser.facts


def word_count(text: str) -> int:
    """Words of spaced scripts plus one per CJK character (Chinese is not written with spaces)."""
    cjk = sum(1 for ch in text if unicodedata.east_asian_width(ch) == "W" and ch.isalpha())
    spaced = re.sub(r"[^\W\d_]", lambda m: " " if unicodedata.east_asian_width(m.group()) == "W" else m.group(), text)
    return cjk + len(re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", spaced))


# Titles: Google asks for descriptive, concise titles and names "Home" and "Profile" as vague ones
# (https://developers.google.com/search/docs/appearance/title-link); it publishes no length. A title of
# fewer than three words (a CJK character counting as one, as in word_count) is read here as too short
# to describe a page: a heuristic, stated in the answer.
TITLE_MIN_WORDS = 3
VAGUE_TITLES = {
    "home",
    "home page",
    "homepage",
    "index",
    "profile",
    "untitled",
    "untitled document",
    "new page",
    "首頁",
    "主頁",
    "無標題",
}
# Open Graph's four required properties (https://ogp.me/, "Basic Metadata"), and X's card type.
OG_REQUIRED = ("og:title", "og:type", "og:image", "og:url")

# The audit's thirteen items (spec document 2, seo) and their weights (sum 100).
AUDIT_WEIGHTS = {
    "title": 12,
    "description": 10,
    "noindex": 12,
    "canonical": 8,
    "h1": 8,
    "image_alt": 6,
    "social_tags": 6,
    "structured_data": 6,
    "word_count": 6,
    "links": 6,
    "robots_txt": 8,
    "sitemap": 6,
    "ai_crawlers": 6,
}


@dataclass
class AuditItem:
    item: str
    weight: int
    score: float  # 0 to 1
    detail: str
    fix: str | None


def audit_page(facts: PageFacts, url: str) -> list[AuditItem]:
    items: list[AuditItem] = []

    def add(item: str, score: float, detail: str, fix: str | None = None) -> None:
        items.append(AuditItem(item, AUDIT_WEIGHTS[item], score, detail, fix if score < 1 else None))

    t = facts.title or ""
    tw = text_px(t, TITLE_FONT)
    if not t:
        add("title", 0, "no <title>", "Add a <title> that names the page.")
    elif t.strip().lower() in VAGUE_TITLES:
        add(
            "title",
            0.5,
            f"{t!r} is a vague title that does not say what the page is",
            "Write a descriptive title (Google: avoid vague titles such as 'Home' or 'Profile').",
        )
    elif word_count(t) < TITLE_MIN_WORDS:
        add(
            "title",
            0.5,
            f"{len(t)} characters, {word_count(t)} word(s): too short to say what the page is",
            "Describe the page in the title (Google asks for descriptive, concise titles).",
        )
    elif tw > TITLE_PX:
        add(
            "title",
            0.5,
            f"{len(t)} characters, about {tw:.0f} px: cut off in results",
            f"Shorten the title under about {TITLE_PX} px.",
        )
    else:
        add("title", 1, f"{len(t)} characters, about {tw:.0f} px")
    d = facts.description or ""
    dw = text_px(d, DESCRIPTION_FONT)
    if not d:
        add("description", 0, "no meta description", 'Add <meta name="description"> summarising the page.')
    elif dw > DESCRIPTION_PX:
        add(
            "description",
            0.5,
            f"{len(d)} characters, about {dw:.0f} px: cut off",
            f"Keep the description under about {DESCRIPTION_PX} px.",
        )
    else:
        add("description", 1, f"{len(d)} characters, about {dw:.0f} px")
    noindex = "noindex" in facts.robots_meta or "none" in facts.robots_meta
    add(
        "noindex",
        0 if noindex else 1,
        "robots meta: " + (", ".join(facts.robots_meta) or "none"),
        "Remove noindex if the page should appear in search.",
    )
    if not facts.canonical:
        add("canonical", 0, "no canonical link", 'Add <link rel="canonical"> with the page\'s preferred URL.')
    elif facts.canonical.rstrip("/") != url.rstrip("/"):
        add(
            "canonical",
            0.5,
            f"canonical points elsewhere: {facts.canonical}",
            "Check that the canonical URL is the one you want indexed.",
        )
    else:
        add("canonical", 1, f"canonical: {facts.canonical}")
    if len(facts.h1) == 1:
        add("h1", 1, f"one H1: {facts.h1[0][:80]!r}")
    else:
        add("h1", 0.5 if facts.h1 else 0, f"{len(facts.h1)} H1 elements", "Give the page exactly one H1.")
    if facts.images:
        share = 1 - facts.images_without_alt / facts.images
        add(
            "image_alt",
            share,
            f"{facts.images_without_alt} of {facts.images} images without alt",
            'Add alt text (alt="" for decoration).',
        )
    else:
        add("image_alt", 1, "no images")
    og = {**facts.og, "og:image": facts.og.get("og:image") or facts.og.get("og:image:url", "")}  # ogp.me: the same
    og_missing = [k for k in OG_REQUIRED if not og.get(k)]
    card = bool(facts.twitter.get("twitter:card"))
    missing = og_missing + ([] if card else ["twitter:card"])
    names = ", ".join(missing[:-1]) + " and " + missing[-1] if len(missing) > 1 else "".join(missing)
    add(
        "social_tags",
        1 - len(missing) / (len(OG_REQUIRED) + 1),
        f"Open Graph {len(OG_REQUIRED) - len(og_missing)}/{len(OG_REQUIRED)} required, X card {'yes' if card else 'no'}"
        + (f"; missing {names}" if missing else ""),
        f"Add {names}." if missing else None,
    )
    if facts.json_ld_valid:
        add("structured_data", 1, f"{facts.json_ld_valid} JSON-LD block(s)")
    else:
        add(
            "structured_data",
            0,
            f"{facts.json_ld} JSON-LD block(s), {facts.json_ld_valid} valid",
            "Add schema.org JSON-LD for the page type.",
        )
    words = word_count(" ".join(facts.text))
    add(
        "word_count",
        1 if words >= 300 else words / 300,
        f"about {words} words (a CJK character counts as one)",
        "Thin page: add substantive text.",
    )
    links = facts.links_internal + facts.links_external
    add(
        "links",
        1 if facts.links_internal else (0.5 if links else 0),
        f"{facts.links_internal} internal, {facts.links_external} external links",
        "Link to related pages of the site.",
    )
    return items


def audit_site(
    items: list[AuditItem], robots: dict[str, Any], sitemap_found: bool, ai_tokens: list[str]
) -> list[AuditItem]:
    """The three site-level items: robots.txt, sitemap, AI crawler settings."""
    status = robots["status"]
    if status == "unreachable":
        items.append(
            AuditItem(
                "robots_txt",
                8,
                0,
                "robots.txt unreachable or 5xx: crawlers treat the site as disallowed",
                "Serve robots.txt with 200 (or 404).",
            )
        )
    elif not robots["page_allowed"]:
        items.append(
            AuditItem("robots_txt", 8, 0, "robots.txt blocks Googlebot from this page", "Allow the page for Googlebot.")
        )
    else:
        items.append(AuditItem("robots_txt", 8, 1, f"robots.txt {status}; page allowed for Googlebot", None))
    items.append(
        AuditItem(
            "sitemap",
            6,
            1 if sitemap_found else 0,
            "sitemap found" if sitemap_found else "no sitemap declared or at /sitemap.xml",
            None if sitemap_found else "Publish a sitemap and declare it in robots.txt.",
        )
    )
    parsed = robots.get("parsed")
    named = [t for t in ai_tokens if parsed and any(t.lower() in (a.lower() for a in g.agents) for g in parsed.groups)]
    items.append(
        AuditItem(
            "ai_crawlers",
            6,
            1 if named else 0.5,
            f"robots.txt names {len(named)} AI crawler(s): {', '.join(named) or 'none'}",
            None if named else "Decide on AI crawlers and say so in robots.txt (see /api/robots/generate).",
        )
    )
    return items


def score(items: list[AuditItem]) -> int:
    total = sum(i.weight for i in items)
    return round(100 * sum(i.weight * i.score for i in items) / total)
