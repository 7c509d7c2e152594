"""Link canonicalisation: one video is one share however its URL is written (research notes §9)."""

import pytest

from twlookup.services.share.logic.links import canonical


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


# Every platform's other forms and every platform's refusal: the table of per-platform parsers
# (share/logic/links.py) must answer each exactly as the one long function it replaced did.
@pytest.mark.parametrize(
    ("url", "key", "canonical_url"),
    [
        (
            "https://www.facebook.com/reel/987654321",
            "facebook:987654321",
            "https://www.facebook.com/watch/?v=987654321",
        ),
        (
            "https://www.facebook.com/somepage/posts/pfbid02abcDEF",
            "facebook:somepage/posts/pfbid02abcDEF",
            "https://www.facebook.com/somepage/posts/pfbid02abcDEF",
        ),
        ("https://fb.com/watch?v=12345", "facebook:12345", "https://www.facebook.com/watch/?v=12345"),
        ("https://www.twitch.tv/videos/2012345678", "twitch:2012345678", "https://www.twitch.tv/videos/2012345678"),
        (
            "https://clips.twitch.tv/FunnyClipSlug-abc_1",
            "twitch:clip:FunnyClipSlug-abc_1",
            "https://clips.twitch.tv/FunnyClipSlug-abc_1",
        ),
        (
            "https://www.twitch.tv/somestreamer/clip/AnotherClip-xyz",
            "twitch:clip:AnotherClip-xyz",
            "https://clips.twitch.tv/AnotherClip-xyz",
        ),
        (
            "https://www.dailymotion.com/video/x8abcde",
            "dailymotion:x8abcde",
            "https://www.dailymotion.com/video/x8abcde",
        ),
        ("https://dai.ly/x8abcde", "dailymotion:x8abcde", "https://www.dailymotion.com/video/x8abcde"),
        ("https://player.vimeo.com/video/76979871", "vimeo:76979871", "https://vimeo.com/76979871"),
        (
            "https://www.youtube.com/live/dQw4w9WgXcQ",
            "youtube:dQw4w9WgXcQ",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        ),
        (
            "https://youtube-nocookie.com/embed/dQw4w9WgXcQ",
            "youtube:dQw4w9WgXcQ",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        ),
        (
            "https://music.youtube.com/watch?v=dQw4w9WgXcQ",
            "youtube:dQw4w9WgXcQ",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        ),
        (
            "HTTP://WWW.YOUTUBE.COM/watch?v=dQw4w9WgXcQ",
            "youtube:dQw4w9WgXcQ",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        ),
        (
            "https://www.instagram.com/tv/C0abcDEF123",
            "instagram:C0abcDEF123",
            "https://www.instagram.com/p/C0abcDEF123/",
        ),
        (
            "https://www.threads.com/@someone/post/C1xYz_abc12",
            "threads:C1xYz_abc12",
            "https://www.threads.com/@someone/post/C1xYz_abc12",
        ),
        (
            "https://www.tiktok.com/@user/photo/7234567890123456789",
            "tiktok:7234567890123456789",
            "https://www.tiktok.com/@user/photo/7234567890123456789",
        ),
        ("https://user@www.x.com:443/a/status/123", "x:123", "https://x.com/a/status/123"),
    ],
)
def test_every_platforms_other_forms(url, key, canonical_url):
    link = canonical(url)
    assert (link.key, link.url) == (key, canonical_url)


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("https://www.instagram.com/someone/", "not an Instagram post URL"),
        ("https://www.facebook.com/somepage", "not a Facebook video or post URL"),
        ("https://www.facebook.com/watch/?v=abc", "not a Facebook video or post URL"),
        ("https://x.com/someone", "not an X post URL"),
        ("https://www.threads.net/@someone", "not a Threads post URL"),
        ("https://www.twitch.tv/somestreamer", "not a Twitch video or clip URL"),
        ("https://vimeo.com/channels/staffpicks", "not a Vimeo video URL"),
        ("https://www.dailymotion.com/user/x", "not a Dailymotion video URL"),
        ("https://www.bilibili.com/video/av170001", "not a bilibili video URL"),
        ("https://youtu.be/", "not a YouTube video URL"),
        ("https://t.co/abc", "t.co is a short link"),
        ("https://b23.tv/abc", "b23.tv is a short link"),
        ("", "this link is not a supported platform"),
    ],
)
def test_every_platform_refuses_what_it_cannot_read(url, why):
    with pytest.raises(ValueError, match=why):
        canonical(url)
