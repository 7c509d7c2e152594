"""Link canonicalisation: one video is one share however its URL is written (research notes §9)."""

import pytest

from twlookup.services.share.links import canonical


@pytest.mark.parametrize(
    ("url", "key", "canonical_url"),
    [
        ("https://youtu.be/dQw4w9WgXcQ?si=abc", "youtube:dQw4w9WgXcQ", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
        (
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
            "youtube:dQw4w9WgXcQ",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        ),
        (
            "https://m.youtube.com/shorts/dQw4w9WgXcQ",
            "youtube:dQw4w9WgXcQ",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        ),
        (
            "https://www.youtube.com/embed/dQw4w9WgXcQ",
            "youtube:dQw4w9WgXcQ",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        ),
        (
            "youtube.com/watch?feature=share&v=dQw4w9WgXcQ",
            "youtube:dQw4w9WgXcQ",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        ),
        (
            "https://www.tiktok.com/@user/video/7234567890123456789?lang=zh-Hant-TW",
            "tiktok:7234567890123456789",
            "https://www.tiktok.com/@user/video/7234567890123456789",
        ),
        (
            "https://www.instagram.com/reel/C0abcDEF123/?igsh=x",
            "instagram:C0abcDEF123",
            "https://www.instagram.com/p/C0abcDEF123/",
        ),
        ("https://instagram.com/p/C0abcDEF123", "instagram:C0abcDEF123", "https://www.instagram.com/p/C0abcDEF123/"),
        (
            "https://www.facebook.com/watch/?v=1234567890",
            "facebook:1234567890",
            "https://www.facebook.com/watch/?v=1234567890",
        ),
        (
            "https://m.facebook.com/somepage/videos/1234567890/",
            "facebook:1234567890",
            "https://www.facebook.com/watch/?v=1234567890",
        ),
        (
            "https://twitter.com/someone/status/1790000000000000000?s=20",
            "x:1790000000000000000",
            "https://x.com/someone/status/1790000000000000000",
        ),
        (
            "https://x.com/someone/status/1790000000000000000",
            "x:1790000000000000000",
            "https://x.com/someone/status/1790000000000000000",
        ),
        (
            "https://www.threads.net/@someone/post/C1xYz_abc12",
            "threads:C1xYz_abc12",
            "https://www.threads.com/@someone/post/C1xYz_abc12",
        ),
        ("https://vimeo.com/76979871", "vimeo:76979871", "https://vimeo.com/76979871"),
        (
            "https://www.bilibili.com/video/BV1GJ411x7h7?p=1",
            "bilibili:BV1GJ411x7h7",
            "https://www.bilibili.com/video/BV1GJ411x7h7",
        ),
    ],
)
def test_canonical_forms(url, key, canonical_url):
    link = canonical(url)
    assert (link.key, link.url) == (key, canonical_url)


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("https://www.youtube.com/watch?v=short", "11 characters"),
        ("https://www.youtube.com/channel/UC123", "not a YouTube video"),
        ("https://vt.tiktok.com/ZSabc123/", "short link"),
        ("https://fb.watch/abc123/", "short link"),
        ("https://example.com/video/1", "not a supported platform"),
        ("https://www.tiktok.com/@user", "not a TikTok video"),
    ],
)
def test_refused_links_say_why(url, why):
    with pytest.raises(ValueError, match=why):
        canonical(url)
