"""Link canonicalisation: one video or post is one share, however its URL is written.

Each supported platform has a small parser below, found by the link's host in `PARSERS`;
`canonical(url)` returns the platform, the canonical id (e.g. youtube:dQw4w9WgXcQ) and the canonical
URL, or raises ValueError saying why not. Short links that only a redirect can resolve
(vt.tiktok.com, fb.watch, ...) are refused with that reason: the full URL is needed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

PLATFORMS = ("youtube", "tiktok", "instagram", "facebook", "x", "threads", "twitch", "vimeo", "dailymotion", "bilibili")
SHORT_LINK_HOSTS = {"vt.tiktok.com", "vm.tiktok.com", "fb.watch", "t.co", "bit.ly", "reurl.cc", "b23.tv"}
YOUTUBE_ID = re.compile(r"^[A-Za-z0-9_-]{11}$")
POST_CODE = re.compile(r"[A-Za-z0-9_-]{5,40}")  # Instagram and Threads post codes


@dataclass(frozen=True)
class Link:
    platform: str
    key: str  # the canonical id, e.g. youtube:dQw4w9WgXcQ
    url: str  # the canonical URL


@dataclass(frozen=True)
class Parts:
    """A link taken apart: its host without www. and the like, its path segments and its query."""

    host: str
    path: list[str]
    query: dict[str, list[str]]

    def param(self, name: str) -> str | None:
        values = self.query.get(name)
        return values[0] if values else None


def _host(netloc: str) -> str:
    host = netloc.rsplit("@", 1)[-1].split(":", 1)[0].lower().rstrip(".")
    for prefix in ("www.", "m.", "mobile.", "music.", "web."):
        if host.startswith(prefix):
            host = host[len(prefix) :]
    return host


def _youtube(u: Parts) -> Link:
    vid = None
    if u.host == "youtu.be" and u.path:
        vid = u.path[0]
    elif u.path[:1] == ["watch"]:
        vid = u.param("v")
    elif len(u.path) >= 2 and u.path[0] in ("shorts", "embed", "live", "v", "e"):
        vid = u.path[1]
    if not vid or not YOUTUBE_ID.match(vid):
        raise ValueError("not a YouTube video URL (a video id is 11 characters of A-Z, a-z, 0-9, _ and -)")
    return Link("youtube", f"youtube:{vid}", f"https://www.youtube.com/watch?v={vid}")


def _tiktok(u: Parts) -> Link:
    p = u.path
    if len(p) >= 3 and p[0].startswith("@") and p[1] in ("video", "photo") and p[2].isdigit():
        return Link("tiktok", f"tiktok:{p[2]}", f"https://www.tiktok.com/{p[0]}/{p[1]}/{p[2]}")
    raise ValueError("not a TikTok video URL (tiktok.com/@user/video/<digits>)")


def _instagram(u: Parts) -> Link:
    p = u.path
    if len(p) >= 2 and p[0] in ("p", "reel", "reels", "tv") and POST_CODE.fullmatch(p[1]):
        return Link("instagram", f"instagram:{p[1]}", f"https://www.instagram.com/p/{p[1]}/")
    raise ValueError("not an Instagram post URL (instagram.com/p/<code> or /reel/<code>)")


def _facebook_video(p: list[str], u: Parts) -> str | None:
    """The digits of a video link (watch?v=, reel/, <page>/videos/), or None."""
    if p[:1] == ["watch"]:
        return u.param("v")
    if len(p) >= 2 and p[0] == "reel":
        return p[1]
    if len(p) >= 3 and p[1] == "videos":
        return p[-1]
    return None


def _facebook(u: Parts) -> Link:
    p = u.path
    digits = _facebook_video(p, u)
    if digits and digits.isdigit():
        return Link("facebook", f"facebook:{digits}", f"https://www.facebook.com/watch/?v={digits}")
    if len(p) >= 3 and p[1] == "posts" and re.fullmatch(r"[A-Za-z0-9]{5,80}", p[2]):
        post = f"{p[0]}/posts/{p[2]}"
        return Link("facebook", f"facebook:{post}", f"https://www.facebook.com/{post}")
    raise ValueError(
        "not a Facebook video or post URL (facebook.com/watch/?v=<digits>, /reel/<digits>, /<page>/videos/<digits>, /<page>/posts/<id>)"
    )


def _x(u: Parts) -> Link:
    p = u.path
    if len(p) >= 3 and p[1] == "status" and p[2].isdigit():
        return Link("x", f"x:{p[2]}", f"https://x.com/{p[0]}/status/{p[2]}")
    raise ValueError("not an X post URL (x.com/<user>/status/<digits>)")


def _threads(u: Parts) -> Link:
    p = u.path
    if len(p) >= 3 and p[0].startswith("@") and p[1] == "post" and POST_CODE.fullmatch(p[2]):
        return Link("threads", f"threads:{p[2]}", f"https://www.threads.com/{p[0]}/post/{p[2]}")
    raise ValueError("not a Threads post URL (threads.com/@user/post/<code>)")


def _twitch_clip(u: Parts) -> str | None:
    """The slug of a clip link (clips.twitch.tv/<slug>, twitch.tv/<user>/clip/<slug>), or None."""
    p = u.path
    if u.host == "clips.twitch.tv":
        return p[0] if p else None
    return p[2] if len(p) >= 3 and p[1] == "clip" else None


def _twitch(u: Parts) -> Link:
    p = u.path
    if u.host == "twitch.tv" and len(p) >= 2 and p[0] == "videos" and p[1].isdigit():
        return Link("twitch", f"twitch:{p[1]}", f"https://www.twitch.tv/videos/{p[1]}")
    slug = _twitch_clip(u)
    if slug and re.fullmatch(r"[A-Za-z0-9_-]{3,100}", slug):
        return Link("twitch", f"twitch:clip:{slug}", f"https://clips.twitch.tv/{slug}")
    raise ValueError("not a Twitch video or clip URL")


def _vimeo(u: Parts) -> Link:
    if u.path and u.path[-1].isdigit():
        return Link("vimeo", f"vimeo:{u.path[-1]}", f"https://vimeo.com/{u.path[-1]}")
    raise ValueError("not a Vimeo video URL (vimeo.com/<digits>)")


def _dailymotion_id(u: Parts) -> str | None:
    p = u.path
    if u.host == "dai.ly":
        return p[0] if p else None
    return p[1] if len(p) >= 2 and p[0] == "video" else None


def _dailymotion(u: Parts) -> Link:
    vid = _dailymotion_id(u)
    if vid and re.fullmatch(r"[A-Za-z0-9]{5,20}", vid):
        return Link("dailymotion", f"dailymotion:{vid}", f"https://www.dailymotion.com/video/{vid}")
    raise ValueError("not a Dailymotion video URL")


def _bilibili(u: Parts) -> Link:
    p = u.path
    if len(p) >= 2 and p[0] == "video" and re.fullmatch(r"BV[0-9A-Za-z]{10}", p[1]):
        return Link("bilibili", f"bilibili:{p[1]}", f"https://www.bilibili.com/video/{p[1]}")
    raise ValueError("not a bilibili video URL (bilibili.com/video/BV...)")


# The parser of each platform's hosts (as `_host` gives them: no www., m., mobile., music., web.).
PARSERS: dict[str, Callable[[Parts], Link]] = {
    "youtube.com": _youtube,
    "youtu.be": _youtube,
    "youtube-nocookie.com": _youtube,
    "tiktok.com": _tiktok,
    "instagram.com": _instagram,
    "facebook.com": _facebook,
    "fb.com": _facebook,
    "x.com": _x,
    "twitter.com": _x,
    "threads.net": _threads,
    "threads.com": _threads,
    "twitch.tv": _twitch,
    "clips.twitch.tv": _twitch,
    "vimeo.com": _vimeo,
    "player.vimeo.com": _vimeo,
    "dailymotion.com": _dailymotion,
    "dai.ly": _dailymotion,
    "bilibili.com": _bilibili,
}


def canonical(raw: str) -> Link:
    text = raw.strip()
    if not re.match(r"^https?://", text, re.IGNORECASE):
        text = "https://" + text
    parts = urlsplit(text)
    host = _host(parts.netloc)
    if parts.netloc.split(":", 1)[0].lower() in SHORT_LINK_HOSTS or host in SHORT_LINK_HOSTS:
        raise ValueError(f"{host} is a short link that only a redirect resolves; open it and send the full URL")
    parser = PARSERS.get(host)
    if parser is None:
        raise ValueError(f"{host or 'this link'} is not a supported platform; supported: {', '.join(PLATFORMS)}")
    return parser(Parts(host, [p for p in parts.path.split("/") if p], parse_qs(parts.query)))


# oEmbed endpoints of the platforms that offer one without a key (title at submission time).
OEMBED = {
    "youtube": "https://www.youtube.com/oembed?format=json&url={url}",
    "tiktok": "https://www.tiktok.com/oembed?url={url}",
    "vimeo": "https://vimeo.com/api/oembed.json?url={url}",
    "dailymotion": "https://www.dailymotion.com/services/oembed?format=json&url={url}",
}
