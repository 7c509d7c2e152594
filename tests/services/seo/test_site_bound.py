"""site-check against a real hanging site (issue 28 item 6): a local listener that accepts every
connection and never answers. The safe fetcher resolves the site's name to a public address (the
static resolver) and checks it; only the network backend's connect is pointed at the listener."""

from __future__ import annotations

import asyncio
import time

import httpcore
import pytest

from twlookup.platform import fetch as fetch_module

PUBLIC = "93.184.216.34"
BOUND = 2.0  # TWLOOKUP_FETCH_TIMEOUT_SECONDS for these tests


@pytest.fixture
async def hanging(monkeypatch: pytest.MonkeyPatch):
    """A listener that accepts and never answers; the public address's connections land on it."""
    state = {"open": 0, "most": 0, "paths": []}
    held: list[asyncio.StreamWriter] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)
        state["open"] += 1
        state["most"] = max(state["most"], state["open"])
        try:
            line = await reader.readline()
            state["paths"].append(line.split(b" ")[1].decode() if b" " in line else "")
            await reader.read()  # until the client gives up; never a byte back
        finally:
            state["open"] -= 1

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    connect = httpcore.AnyIOBackend.connect_tcp

    async def to_listener(self, host, port_, **kwargs):
        assert host == PUBLIC, host  # only the checked address is ever connected to
        return await connect(self, "127.0.0.1", port, **kwargs)

    monkeypatch.setattr(httpcore.AnyIOBackend, "connect_tcp", to_listener)
    monkeypatch.setattr(fetch_module, "resolve", fetch_module.static_resolver({"hang.example": [PUBLIC]}))
    from twlookup.settings import get_settings

    monkeypatch.setattr(get_settings(), "fetch_timeout_seconds", BOUND)
    yield state
    for writer in held:
        writer.close()
    server.close()
    await server.wait_closed()


async def test_site_check_answers_its_verdict_within_one_bound_against_a_hanging_site(client, hanging) -> None:
    started = time.monotonic()
    r = await client.get("/seo/api/site-check", params={"url": "http://hang.example/"})
    elapsed = time.monotonic() - started
    body = r.json()
    assert r.status_code == 200, body
    assert body["robots"]["status"] == "unreachable" and body["robots"]["http_status"] is None
    assert {c["token"]: c["allowed"] for c in body["crawlers"]}["Googlebot"] is False
    assert body["fixes"][0]["impact"] == "critical"
    assert body["llms_txt"]["present"] is False and body["llms_txt"]["note"]
    # robots.txt, /sitemap.xml and /llms.txt were all waiting at once, not one after another ...
    assert hanging["most"] == 3 and sorted(hanging["paths"]) == ["/llms.txt", "/robots.txt", "/sitemap.xml"]
    # ... so the answer came within about one bound: one after another takes at least two (three before),
    # which leaves a whole bound of slack for a loaded machine.
    assert elapsed < 2 * BOUND


async def test_the_paid_audit_keeps_its_bound_too(hanging, monkeypatch) -> None:
    # The page itself hangs: the audit's fetch fails as ours (503), within the bound, nothing to charge.
    from twlookup.platform.fetch import FetchFailed
    from twlookup.services.seo.operations.site_check import seo_audit
    from twlookup.services.seo.schemas import UrlQuery

    started = time.monotonic()
    with pytest.raises(FetchFailed) as caught:
        await seo_audit(UrlQuery(url="http://hang.example/page"))
    assert caught.value.status == 503 and caught.value.headers["Retry-After"]
    assert time.monotonic() - started < 2 * BOUND
