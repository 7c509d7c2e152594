"""Example inputs of the seo service for the whole-app e2e tests (see tests/service_examples.py)."""

from contextlib import contextmanager

import respx

TOOL_ARGS = {
    "build_search_urls": {"q": "robots.txt", "site": "gov.tw", "time": "week"},
    "search_operators": {"engine": "google"},
    "generate_robots_txt": {"mode": "block_ai_training"},
    "test_robots_txt": {
        "robots": "User-agent: *\nDisallow: /private/\n",
        "user_agent": "Googlebot",
        "path": "/private/x",
    },
    "verify_crawler_ip": {"ip": "66.249.64.1"},
    "serp_preview": {
        "title": "臺灣國定假日一覽",
        "description": "2027 年連假與補班日",
        "url": "https://example.com/a/b",
    },
    "generate_meta_tags": {"title": 'A "quoted" <title>', "description": "d", "url": "https://example.com/"},
    "check_site_crawlers": {"url": "https://example.com/"},
    "instant_index_submit": {"host": "example.com", "key": "abcdef0123456789", "urls": ["https://example.com/a"]},
    "video_seo_check": {
        "chapters": [
            {"time": "00:00", "title": "Intro"},
            {"time": "00:30", "title": "A"},
            {"time": "01:00", "title": "B"},
        ],
        "duration": 120,
        "title": "t",
    },
}
PRO_CALLS = {
    "/api/pro/seo-audit": {"params": {"url": "https://example.com/"}},
    "/api/pro/instantindex-bulk": {
        "json": {"host": "example.com", "key": "abcdef0123456789", "urls": ["https://example.com/a"]}
    },
}
# Schema-valid input that still gets a 422: an address that is not one (verify-ip), URLs not on
# the host (IndexNow), a URL the safe fetcher refuses (site-check).
CROSS_PARAMETER_RULES = {"/api/verify-ip", "/api/instantindex", "/api/site-check"}
# A site that cannot be reached at all (every name but example.com fails to resolve here) is
# site-check's documented 503 with Retry-After, not a verdict about the site (issue 23).
UPSTREAM_PATHS = {"/api/site-check"}

PAGE = (
    "<html><head><title>Example page</title><meta name=description content='An example.'>"
    "<link rel=canonical href='https://example.com/'></head><body><h1>Example</h1><p>text</p></body></html>"
)
ROBOTS = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\nSitemap: https://example.com/sitemap.xml\n"
SITEMAP = '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>'


@contextmanager
def MOCKS():
    """example.com and the IndexNow endpoint, mocked; the app's own loopback traffic passes."""
    from twlookup.platform import fetch

    old = fetch.resolve
    fetch.resolve = fetch.static_resolver({"example.com": ["93.184.216.34"]})  # other names: NXDOMAIN
    try:
        with respx.mock(assert_all_called=False) as mock:
            mock.route(host="127.0.0.1").pass_through()
            mock.get("https://example.com/").respond(200, html=PAGE)
            mock.get("https://example.com/robots.txt").respond(200, text=ROBOTS)
            mock.get("https://example.com/sitemap.xml").respond(200, text=SITEMAP)
            mock.get("https://example.com/llms.txt").respond(404)
            mock.post("https://api.indexnow.org/indexnow").respond(202)
            mock.route().respond(404)  # any other public address: no traffic leaves the machine
            yield mock
    finally:
        fetch.resolve = old
