"""How a page shows in search: result-snippet widths (SERP preview), the meta tags of a page's
head, and search URLs with operators and time filters of each engine. Pure functions."""

from __future__ import annotations

import html
import unicodedata
from urllib.parse import urlencode, urlsplit

# Heuristic glyph widths in px of Arial at 20 px (Google's desktop title) by character class.
# Google publishes no limit; the ~600 px title and ~920 px description (two lines of 14 px text)
# are the widths commonly measured on result pages.
TITLE_PX, TITLE_FONT = 600, 20
DESCRIPTION_PX, DESCRIPTION_FONT = 920, 14
NARROW = set("iljtf.,;:!|'\"()[]{}/\\ ")
WIDE = set("mwMW@%")
ELLIPSIS = " ..."


def glyph_em(ch: str) -> float:
    """Width of one character in em (font-size units), a heuristic per character class."""
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 1.0  # CJK ideographs, kana, hangul and full-width forms: one em
    if unicodedata.combining(ch):
        return 0.0
    if ch in NARROW:
        return 0.28
    if ch in WIDE:
        return 0.83
    if ch.isupper():
        return 0.67
    if ch.isdigit():
        return 0.56
    return 0.5


def text_px(text: str, font_px: int) -> float:
    return sum(glyph_em(ch) for ch in text) * font_px


def truncate_px(text: str, limit_px: int, font_px: int) -> tuple[str, bool, float]:
    """The text as shown within limit_px: cut before the limit (at a space for spaced scripts) with ' ...'."""
    width = text_px(text, font_px)
    if width <= limit_px:
        return text, False, round(width, 1)
    room = limit_px - text_px(ELLIPSIS, font_px)
    used, cut = 0.0, 0
    for i, ch in enumerate(text):
        used += glyph_em(ch) * font_px
        if used > room:
            break
        cut = i + 1
    shown = text[:cut]
    space = shown.rfind(" ")
    if space > cut * 0.6 and not any(unicodedata.east_asian_width(c) in ("W", "F") for c in shown[space:]):
        shown = shown[:space]
    shown = shown.rstrip() + ELLIPSIS
    return shown, True, round(text_px(shown, font_px), 1)


def display_url(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    crumbs = [p for p in parts.path.split("/") if p]
    return " › ".join([f"{parts.scheme}://{parts.netloc}", *crumbs])


# --- meta tags ---------------------------------------------------------------------------------


def meta_tags(title: str, description: str, url: str, image: str | None) -> list[tuple[str, str, str]]:
    """(element, attribute name, value) triples before escaping."""
    tags = [
        ("meta", "name=description", description),
        ("link", "rel=canonical", url),
        ("meta", "property=og:type", "website"),
        ("meta", "property=og:title", title),
        ("meta", "property=og:description", description),
        ("meta", "property=og:url", url),
        ("meta", "name=twitter:card", "summary_large_image" if image else "summary"),
        ("meta", "name=twitter:title", title),
        ("meta", "name=twitter:description", description),
    ]
    if image:
        tags.insert(6, ("meta", "property=og:image", image))
        tags.append(("meta", "name=twitter:image", image))
    return tags


def render_tag(element: str, key: str, value: str) -> str:
    attr, _, name = key.partition("=")
    v = html.escape(value, quote=True)
    if element == "link":
        return f'<link rel="{name}" href="{v}">'
    return f'<meta {attr}="{name}" content="{v}">'


def render_head(title: str, tags: list[tuple[str, str, str]]) -> str:
    return "\n".join([f"<title>{html.escape(title, quote=True)}</title>", *(render_tag(*t) for t in tags)])


# --- search URLs -------------------------------------------------------------------------------


def search_query(q: str, site: str | None, filetype: str | None) -> str:
    parts = [q]
    if site:
        parts.append(f"site:{site}")
    if filetype:
        parts.append(f"filetype:{filetype}")
    return " ".join(parts)


def search_url(base: str, query_param: str, query: str, time_filter: dict[str, str] | None) -> str:
    params = {query_param: query, **(time_filter or {})}
    return f"{base}?{urlencode(params)}"
