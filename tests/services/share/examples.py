"""Example inputs of the share service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "get_rankings": {"period": "year"},
    "search_shares": {"q": "範例"},
    "get_share": {"id": 1},
}
# The site ships no share (only real ones, which arrive through review): get_share's example id is a
# 404 naming it on a fresh store.
TOOLS_EMPTY_BY_DESIGN = {"get_share"}
PRO_CALLS = {
    "/api/pro/trend": {"params": {"period": "year"}},
    "/api/pro/export": {},
    "/api/pro/pack": {},
}
# The operator routes need an operator token: schema-valid input without one is 401 (documented).
# Submissions refuse a link of an unsupported platform (a rule on the URL's content), a duplicate
# (409) and a share id that does not exist (404).
CROSS_PARAMETER_RULES = {
    "/api/review/queue",
    "/api/review/decide",
    "/api/shares",
    "/api/vote",
    "/api/comment",
    "/api/click",
}

from contextlib import contextmanager  # noqa: E402

import respx  # noqa: E402

# YouTube's oEmbed answer, in its real format (fields as https://www.youtube.com/oembed returns them).
YOUTUBE_OEMBED = {
    "title": "Rick Astley - Never Gonna Give You Up (Official Video) (4K Remaster)",
    "author_name": "Rick Astley",
    "author_url": "https://www.youtube.com/@RickAstleyYT",
    "type": "video",
    "height": 113,
    "width": 200,
    "version": "1.0",
    "provider_name": "YouTube",
    "provider_url": "https://www.youtube.com/",
    "thumbnail_height": 360,
    "thumbnail_width": 480,
    "thumbnail_url": "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg",
    "html": '<iframe width="200" height="113" src="https://www.youtube.com/embed/dQw4w9WgXcQ?feature=oembed" frameborder="0" '
    'allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" '
    'referrerpolicy="strict-origin-when-cross-origin" allowfullscreen title="Rick Astley - Never Gonna Give You Up (Official Video) (4K Remaster)"></iframe>',
}


@contextmanager
def MOCKS():
    """The oEmbed endpoints share asks, mocked; the app's own loopback traffic passes, nothing leaves."""
    from twlookup.platform import fetch

    old = fetch.resolve
    fetch.resolve = fetch.static_resolver(
        {
            "www.youtube.com": ["142.250.72.206"],
            "www.tiktok.com": ["23.45.67.89"],
            "vimeo.com": ["162.159.138.1"],
            "www.dailymotion.com": ["195.8.215.136"],
        }
    )
    try:
        with respx.mock(assert_all_called=False) as mock:
            mock.route(host="127.0.0.1").pass_through()
            mock.get(url__startswith="https://www.youtube.com/oembed").respond(200, json=YOUTUBE_OEMBED)
            mock.route().respond(404)  # other oEmbed endpoints: no title; no traffic leaves the machine
            yield mock
    finally:
        fetch.resolve = old
