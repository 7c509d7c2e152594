"""Link canonicalisation: one video or post is one share, however its URL is written.

Each supported platform has its rules below; `canonical(url)` returns the platform, the canonical
id (e.g. youtube:dQw4w9WgXcQ) and the canonical URL, or raises ValueError saying why not. Short
links that only a redirect can resolve (vt.tiktok.com, fb.watch, ...) are refused with that reason:
the full URL is needed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

PLATFORMS = ("youtube", "tiktok", "instagram", "facebook", "x", "threads", "twitch", "vimeo", "dailymotion", "bilibili")
SHORT_LINK_HOSTS = {"vt.tiktok.com", "vm.tiktok.com", "fb.watch", "t.co", "bit.ly", "reurl.cc", "b23.tv"}
YOUTUBE_ID = re.compile(r"^[A-Za-z0-9_-]{11}$")


@dataclass(frozen=True)
class Link:
    platform: str
    key: str  # the canonical id, e.g. youtube:dQw4w9WgXcQ
    url: str  # the canonical URL


def _host(netloc: str) -> str:
    host = netloc.rsplit("@", 1)[-1].split(":", 1)[0].lower().rstrip(".")
    for prefix in ("www.", "m.", "mobile.", "music.", "web."):
        if host.startswith(prefix):
            host = host[len(prefix) :]
    return host


def canonical(raw: str) -> Link:
    text = raw.strip()
    if not re.match(r"^https?://", text, re.IGNORECASE):
        text = "https://" + text
    parts = urlsplit(text)
    host = _host(parts.netloc)
    path = [p for p in parts.path.split("/") if p]
    query = parse_qs(parts.query)
    if parts.netloc.split(":", 1)[0].lower() in SHORT_LINK_HOSTS or host in SHORT_LINK_HOSTS:
        raise ValueError(f"{host} is a short link that only a redirect resolves; open it and send the full URL")

    if host in ("youtube.com", "youtu.be", "youtube-nocookie.com"):
        vid = None
        if host == "youtu.be" and path:
            vid = path[0]
        elif path[:1] == ["watch"]:
            vid = (query.get("v") or [None])[0]
        elif len(path) >= 2 and path[0] in ("shorts", "embed", "live", "v", "e"):
            vid = path[1]
        if not vid or not YOUTUBE_ID.match(vid):
            raise ValueError("not a YouTube video URL (a video id is 11 characters of A-Z, a-z, 0-9, _ and -)")
        return Link("youtube", f"youtube:{vid}", f"https://www.youtube.com/watch?v={vid}")

    if host == "tiktok.com":
        if len(path) >= 3 and path[0].startswith("@") and path[1] in ("video", "photo") and path[2].isdigit():
            return Link("tiktok", f"tiktok:{path[2]}", f"https://www.tiktok.com/{path[0]}/{path[1]}/{path[2]}")
        raise ValueError("not a TikTok video URL (tiktok.com/@user/video/<digits>)")

    if host == "instagram.com":
        if len(path) >= 2 and path[0] in ("p", "reel", "reels", "tv") and re.fullmatch(r"[A-Za-z0-9_-]{5,40}", path[1]):
            return Link("instagram", f"instagram:{path[1]}", f"https://www.instagram.com/p/{path[1]}/")
        raise ValueError("not an Instagram post URL (instagram.com/p/<code> or /reel/<code>)")

    if host in ("facebook.com", "fb.com"):
        digits = None
        if path[:1] == ["watch"]:
            digits = (query.get("v") or [None])[0]
        elif len(path) >= 2 and path[0] == "reel":
            digits = path[1]
        elif len(path) >= 3 and path[1] == "videos":
            digits = path[-1]
        if digits and digits.isdigit():
            return Link("facebook", f"facebook:{digits}", f"https://www.facebook.com/watch/?v={digits}")
        if len(path) >= 3 and path[1] == "posts" and re.fullmatch(r"[A-Za-z0-9]{5,80}", path[2]):
            return Link(
                "facebook", f"facebook:{path[0]}/posts/{path[2]}", f"https://www.facebook.com/{path[0]}/posts/{path[2]}"
            )
        raise ValueError(
            "not a Facebook video or post URL (facebook.com/watch/?v=<digits>, /reel/<digits>, /<page>/videos/<digits>, /<page>/posts/<id>)"
        )

    if host in ("x.com", "twitter.com"):
        if len(path) >= 3 and path[1] == "status" and path[2].isdigit():
            return Link("x", f"x:{path[2]}", f"https://x.com/{path[0]}/status/{path[2]}")
        raise ValueError("not an X post URL (x.com/<user>/status/<digits>)")

    if host in ("threads.net", "threads.com"):
        if (
            len(path) >= 3
            and path[0].startswith("@")
            and path[1] == "post"
            and re.fullmatch(r"[A-Za-z0-9_-]{5,40}", path[2])
        ):
            return Link("threads", f"threads:{path[2]}", f"https://www.threads.com/{path[0]}/post/{path[2]}")
        raise ValueError("not a Threads post URL (threads.com/@user/post/<code>)")

    if host in ("twitch.tv", "clips.twitch.tv"):
        if host == "twitch.tv" and len(path) >= 2 and path[0] == "videos" and path[1].isdigit():
            return Link("twitch", f"twitch:{path[1]}", f"https://www.twitch.tv/videos/{path[1]}")
        slug = (
            path[0]
            if host == "clips.twitch.tv" and path
            else (path[2] if len(path) >= 3 and path[1] == "clip" else None)
        )
        if slug and re.fullmatch(r"[A-Za-z0-9_-]{3,100}", slug):
            return Link("twitch", f"twitch:clip:{slug}", f"https://clips.twitch.tv/{slug}")
        raise ValueError("not a Twitch video or clip URL")

    if host in ("vimeo.com", "player.vimeo.com"):
        digits = path[-1] if path and path[-1].isdigit() else None
        if digits:
            return Link("vimeo", f"vimeo:{digits}", f"https://vimeo.com/{digits}")
        raise ValueError("not a Vimeo video URL (vimeo.com/<digits>)")

    if host in ("dailymotion.com", "dai.ly"):
        vid = path[0] if host == "dai.ly" and path else (path[1] if len(path) >= 2 and path[0] == "video" else None)
        if vid and re.fullmatch(r"[A-Za-z0-9]{5,20}", vid):
            return Link("dailymotion", f"dailymotion:{vid}", f"https://www.dailymotion.com/video/{vid}")
        raise ValueError("not a Dailymotion video URL")

    if host == "bilibili.com":
        if len(path) >= 2 and path[0] == "video" and re.fullmatch(r"BV[0-9A-Za-z]{10}", path[1]):
            return Link("bilibili", f"bilibili:{path[1]}", f"https://www.bilibili.com/video/{path[1]}")
        raise ValueError("not a bilibili video URL (bilibili.com/video/BV...)")

    raise ValueError(f"{host or 'this link'} is not a supported platform; supported: {', '.join(PLATFORMS)}")


# oEmbed endpoints of the platforms that offer one without a key (title at submission time).
OEMBED = {
    "youtube": "https://www.youtube.com/oembed?format=json&url={url}",
    "tiktok": "https://www.tiktok.com/oembed?url={url}",
    "vimeo": "https://vimeo.com/api/oembed.json?url={url}",
    "dailymotion": "https://www.dailymotion.com/services/oembed?format=json&url={url}",
}
