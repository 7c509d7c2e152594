"""Redirect targets fuzzed against the safe fetcher with a real local listener: whatever a site
puts in `Location`, the fetcher returns a result, refuses (422) or fails (503); no other
exception escapes it (the audit: `Location: http:127.0.0.1:PORT/` escaped as httpx.InvalidURL
and site-check and the paid seo audit answered 500).

The listener answers `/start` with a 302 to the target under test and any other path with 200.
Names resolve from a table to a public address, and connections to that address go to the
listener, so the address checks run as they do for real sites."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpcore
import pytest
from faults import RedirectListener, redirect_listener
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from twlookup.platform import fetch as fetch_module
from twlookup.platform.fetch import FetchFailed, FetchRefused, FetchResult, fetch, static_resolver

PUBLIC = "93.184.216.34"


@pytest.fixture(scope="module")
def listener() -> Iterator[RedirectListener]:
    with redirect_listener() as server:
        yield server


@pytest.fixture(scope="module")
def to_listener(listener: RedirectListener) -> Iterator[None]:
    """site.test and example.com resolve to a public address; connections to it reach the listener."""
    saved_resolve, saved_connect = fetch_module.resolve, httpcore.AnyIOBackend.connect_tcp
    fetch_module.resolve = static_resolver({"site.test": [PUBLIC], "example.com": [PUBLIC]})

    async def connect(self, host, port, **kwargs):  # type: ignore[no-untyped-def]
        if host == PUBLIC:
            host, port = "127.0.0.1", listener.port
        return await saved_connect(self, host, port, **kwargs)

    httpcore.AnyIOBackend.connect_tcp = connect  # type: ignore[method-assign]
    yield
    fetch_module.resolve = saved_resolve
    httpcore.AnyIOBackend.connect_tcp = saved_connect  # type: ignore[method-assign]


def outcome(listener: RedirectListener, location: bytes) -> FetchResult | FetchRefused | FetchFailed:
    listener.location = location
    try:
        return asyncio.run(fetch("http://site.test/start", timeout=5))
    except (FetchRefused, FetchFailed) as problem:
        return problem


@pytest.mark.parametrize(
    ("location", "status", "reason"),
    [
        (b"http:127.0.0.1:8080/", 200, None),  # the audit's form: as in browsers, a path on the same site
        (b"http://[::1", 422, "redirect"),  # not a URL: an unclosed IPv6 literal
        (b"http://\xef\xbd\x81.com/", 422, "redirect"),  # a fullwidth letter that IDNA refuses
        (b"http://xn--/", 422, "url"),  # a malformed A-label
        (b"http://1.2.3.4:99999/", 422, "port"),  # a port out of range
        (b"http://127.0.0.1/", 422, "address"),  # loopback
        (b"http://example.com/next", 200, None),
        (b"http://nowhere.test/", 503, None),  # does not resolve
    ],
)
def test_redirect_targets(to_listener, listener, location, status, reason):
    got = outcome(listener, location)
    assert got.status == status, got
    if isinstance(got, FetchRefused):
        assert got.reason == reason and got.errors[0]["parameter"] == "url", got.body()


# Header bytes a server can send in a Location: anything but CR, LF and NUL.
location_bytes = st.binary(max_size=60).map(lambda b: bytes(c for c in b if c not in (0, 10, 13)))
url_like = st.builds(
    lambda scheme, sep, host, port, path: (scheme + sep + host + port + path).encode("utf-8"),
    st.sampled_from(["http", "https", "HTTP", "ftp", "", "http:", "javascript"]),
    st.sampled_from(["://", ":", ":/", "//", ":///", ""]),
    st.sampled_from(["site.test", "example.com", "127.0.0.1", "[::1]", "[::1", "a b", "ａ.com", "xn--", "", "%41"]),
    st.sampled_from(["", ":", ":80", ":0", ":99999", ":-1", ":8o"]),
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FFF), max_size=12),
)


@hyp_settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(location=st.one_of(location_bytes, url_like))
@example(location=b"http:127.0.0.1:8080/")
@example(location=b"http://[::1")
def test_no_redirect_target_escapes_as_another_exception(to_listener, listener, location):
    got = outcome(listener, location)
    assert isinstance(got, FetchResult | FetchRefused | FetchFailed)
    if isinstance(got, FetchResult):  # followed to the listener's 200, or a 302 with no target to follow
        assert got.status == 200 or (got.status == 302 and not location.strip(b" \t")), got
