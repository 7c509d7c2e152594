"""A site whose robots.txt, sitemap, llms.txt and home page redirect to a malformed URL, checked
by site-check on a real server process (the audit: `Location: http:127.0.0.1:PORT/` made
site-check and the paid seo audit answer 500, httpx.InvalidURL escaping the safe fetcher).

The server process loads tests/server/fetch_shim (names ending in .test reach the local
listener); everything else is the real server."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from faults import redirect_listener
from live_server import serve, server_env

pytestmark = pytest.mark.slow
SHIM = Path(__file__).parent / "fetch_shim"
PATHS = (b"/", b"/robots.txt", b"/sitemap.xml", b"/llms.txt")


@pytest.fixture(scope="module")
def site():
    with redirect_listener(PATHS) as listener:
        yield listener


@pytest.fixture(scope="module")
def server(db_url, site, tmp_path_factory):
    env = server_env(db_url, FETCH_SHIM_PORT=str(site.port), PYTHONPATH=str(SHIM))
    with serve(env, tmp_path_factory.mktemp("fetch-redirect"), "--no-access-log") as s:
        yield s


def site_check(server) -> httpx.Response:
    return httpx.get(f"{server.url}/seo/api/site-check", params={"url": "http://site.test/"}, timeout=60)


def test_a_redirect_to_an_invalid_url_is_a_422_naming_the_url(server, site):
    site.location = b"http://[::1"
    r = site_check(server)
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json", r.text[:300]
    body = r.json()
    assert body["errors"][0]["parameter"] == "url" and body["reason"] == "redirect", body
    assert "which is not a valid URL" in body["detail"]
    assert server.alive()


def test_the_audits_redirect_is_followed_as_a_path_on_the_same_site(server, site):
    site.location = f"http:127.0.0.1:{site.port}/".encode()
    r = site_check(server)
    assert r.status_code == 200, r.text[:300]
    assert r.json()["robots"]["status"] == "ok"  # robots.txt -> /127.0.0.1:PORT/ on site.test -> 200
    assert server.alive()
