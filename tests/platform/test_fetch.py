"""The safe fetcher: every refused address class, redirects, mixed DNS answers, size and time caps,
no credentials, and connecting to the checked address (no second lookup)."""

from __future__ import annotations

import asyncio
import socket

import httpcore
import httpx
import pytest
import respx

from twlookup.platform import fetch as fetch_module
from twlookup.platform.fetch import (
    FetchFailed,
    FetchRefused,
    address_class,
    fetch,
    static_resolver,
)
from twlookup.platform.fetch_transport import PinnedTransport

PUBLIC = "93.184.216.34"
PUBLIC6 = "2606:2800:220:1:248:1893:25c8:1946"


@pytest.fixture(autouse=True)
def dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """No real DNS: names resolve from this table (tests add entries)."""
    table: dict[str, list[str]] = {"example.com": [PUBLIC], "www.example.com": [PUBLIC, PUBLIC6]}
    monkeypatch.setattr(fetch_module, "resolve", static_resolver(table))
    return table


# --- address classes, one by one ---------------------------------------------------------------

REFUSED = [
    ("127.0.0.1", "loopback"),
    ("127.255.0.9", "loopback"),
    ("::1", "loopback"),
    ("10.1.2.3", "private"),
    ("172.16.0.1", "private"),
    ("172.31.255.255", "private"),
    ("192.168.1.1", "private"),
    ("169.254.1.1", "link-local"),
    ("fe80::1", "link-local"),
    ("fc00::1", "unique-local"),
    ("fd12:3456::1", "unique-local"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("ff02::1", "multicast"),
    ("240.0.0.1", "broadcast or reserved"),
    ("255.255.255.255", "broadcast or reserved"),
    ("100.64.0.1", "CGNAT shared"),
    ("100.127.255.254", "CGNAT shared"),
    ("169.254.169.254", "cloud metadata"),
    ("fd00:ec2::254", "cloud metadata"),
    ("100.100.100.200", "cloud metadata"),
    ("0.0.0.0", "unspecified"),
    ("::", "unspecified"),
    ("::ffff:127.0.0.1", "IPv4-mapped IPv6"),
    ("::ffff:8.8.8.8", "IPv4-mapped IPv6"),
    ("192.0.2.10", "reserved or not globally routable"),  # TEST-NET-1
    ("198.18.0.1", "reserved or not globally routable"),  # benchmarking
    ("2001:db8::1", "reserved or not globally routable"),  # documentation
    ("64:ff9b::a00:1", "IPv6 wrapping a private IPv4 address"),  # NAT64 of 10.0.0.1
    ("2002:7f00:1::1", "IPv6 wrapping a loopback IPv4 address"),  # 6to4 of 127.0.0.1
]


@pytest.mark.parametrize(("address", "why"), REFUSED)
def test_address_class(address: str, why: str) -> None:
    import ipaddress

    assert address_class(ipaddress.ip_address(address)) == why


@pytest.mark.parametrize(
    "address", [PUBLIC, "8.8.8.8", "1.1.1.1", PUBLIC6, "2001:4860:4860::8888", "100.128.0.1", "172.32.0.1"]
)
def test_public_addresses_pass(address: str) -> None:
    import ipaddress

    assert address_class(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize(("address", "why"), REFUSED)
async def test_literal_refused_before_any_connection(address: str, why: str) -> None:
    host = f"[{address}]" if ":" in address else address
    with respx.mock(assert_all_called=False) as mock:
        route = mock.route().respond(200)
        with pytest.raises(FetchRefused) as err:
            await fetch(f"http://{host}/")
    assert not route.called
    problem = err.value
    assert problem.status == 422 and problem.reason == "address"
    assert why in problem.detail and problem.errors[0]["parameter"] == "url"


@pytest.mark.parametrize(("address", "why"), REFUSED)
async def test_name_resolving_to_forbidden_address_refused(dns: dict, address: str, why: str) -> None:
    dns["inside.example"] = [address]
    with respx.mock(assert_all_called=False) as mock:
        route = mock.route().respond(200)
        with pytest.raises(FetchRefused) as err:
            await fetch("https://inside.example/page")
    assert not route.called
    assert f"resolves to {address}" in err.value.detail and why in err.value.detail


async def test_mixed_public_and_private_answer_refused(dns: dict) -> None:
    dns["mixed.example"] = [PUBLIC, "10.0.0.5"]
    dns["mixed6.example"] = [PUBLIC6, "fd00::5"]
    with respx.mock(assert_all_called=False) as mock:
        route = mock.route().respond(200)
        for host in ("mixed.example", "mixed6.example"):
            with pytest.raises(FetchRefused) as err:
                await fetch(f"http://{host}/")
            assert "private" in err.value.detail or "unique-local" in err.value.detail
    assert not route.called


async def test_numeric_host_forms_resolved_by_system_resolver(monkeypatch: pytest.MonkeyPatch) -> None:
    """2130706433 and 0x7f.1 are 127.0.0.1 to getaddrinfo (no DNS query for numeric forms)."""
    monkeypatch.setattr(fetch_module, "resolve", fetch_module.system_resolve)
    for host in ("2130706433", "0x7f.0.0.1", "127.1"):
        with pytest.raises(FetchRefused) as err:
            await fetch(f"http://{host}/")
        assert "loopback" in err.value.detail


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("file:///etc/passwd", "scheme"),
        ("ftp://example.com/", "scheme"),
        ("gopher://example.com/", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("http://example.com:22/", "port"),
        ("https://example.com:6379/", "port"),
        ("http://example.com:8080/", "port"),
        ("http://user:pw@example.com/", "credentials"),
        ("http://localhost/", "address"),
        ("http://api.localhost:80/", "address"),
        ("http:///nohost", "host"),
    ],
)
async def test_url_rules(url: str, reason: str) -> None:
    with respx.mock(assert_all_called=False) as mock:
        route = mock.route().respond(200)
        with pytest.raises(FetchRefused) as err:
            await fetch(url)
    assert not route.called
    assert err.value.reason == reason, err.value.detail


async def test_extra_port_allowed_by_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from twlookup.settings import Settings

    monkeypatch.setattr(fetch_module, "_settings", lambda: Settings(_env_file=None, fetch_extra_ports=[8080]))
    with respx.mock() as mock:
        mock.get("http://example.com:8080/").respond(200, text="ok")
        result = await fetch("http://example.com:8080/")
    assert result.status == 200 and result.text == "ok"


# --- a normal fetch ----------------------------------------------------------------------------


async def test_fetch_returns_result_with_user_agent_and_no_credentials() -> None:
    with respx.mock() as mock:
        route = mock.get("https://example.com/robots.txt").respond(
            200, text="User-agent: *\nDisallow:", headers={"content-type": "text/plain; charset=utf-8"}
        )
        result = await fetch(
            "https://example.com/robots.txt",
            headers={"Cookie": "a=b", "Authorization": "Bearer x", "Accept": "text/plain"},
        )
    sent = route.calls.last.request
    assert sent.headers["user-agent"].startswith("twlookup-fetcher/")
    assert "cookie" not in sent.headers and "authorization" not in sent.headers
    assert sent.headers["accept"] == "text/plain"
    assert sent.headers["host"] == "example.com"
    assert result.status == 200 and result.text.startswith("User-agent")
    assert result.final_url == result.url == "https://example.com/robots.txt"
    assert result.redirects == [] and result.elapsed >= 0


async def test_non_2xx_is_a_result() -> None:
    with respx.mock() as mock:
        mock.get("https://example.com/missing").respond(404, text="nope")
        result = await fetch("https://example.com/missing")
    assert result.status == 404 and result.body == b"nope"


# --- redirects ---------------------------------------------------------------------------------


async def test_redirect_into_private_address_refused(dns: dict) -> None:
    dns["internal.example"] = ["192.168.0.10"]
    with respx.mock(assert_all_called=False) as mock:
        mock.get("https://example.com/go").respond(302, headers={"location": "http://internal.example/admin"})
        inner = mock.get("http://internal.example/admin").respond(200)
        with pytest.raises(FetchRefused) as err:
            await fetch("https://example.com/go")
    assert not inner.called
    assert "redirected from https://example.com/go" in err.value.detail and "private" in err.value.detail


async def test_redirect_to_metadata_literal_refused() -> None:
    with respx.mock(assert_all_called=False) as mock:
        mock.get("https://example.com/go").respond(
            301, headers={"location": "http://169.254.169.254/latest/meta-data/"}
        )
        with pytest.raises(FetchRefused) as err:
            await fetch("https://example.com/go")
    assert "cloud metadata" in err.value.detail


async def test_redirect_to_other_scheme_refused() -> None:
    with respx.mock(assert_all_called=False) as mock:
        mock.get("https://example.com/go").respond(302, headers={"location": "file:///etc/passwd"})
        with pytest.raises(FetchRefused) as err:
            await fetch("https://example.com/go")
    assert err.value.reason == "scheme"


async def test_five_redirects_followed_sixth_refused() -> None:
    with respx.mock() as mock:
        for i in range(5):
            mock.get(f"https://example.com/r{i}").respond(302, headers={"location": f"/r{i + 1}"})
        mock.get("https://example.com/r5").respond(200, text="end")
        result = await fetch("https://example.com/r0")
    assert result.final_url == "https://example.com/r5" and len(result.redirects) == 5 and result.text == "end"

    with respx.mock() as mock:
        for i in range(6):
            mock.get(f"https://example.com/r{i}").respond(302, headers={"location": f"/r{i + 1}"})
        with pytest.raises(FetchRefused) as err:
            await fetch("https://example.com/r0")
    assert err.value.reason == "redirects"


async def test_303_turns_post_into_get() -> None:
    with respx.mock() as mock:
        mock.post("https://example.com/form").respond(303, headers={"location": "https://www.example.com/done"})
        done = mock.get("https://www.example.com/done").respond(200, text="ok")
        result = await fetch("https://example.com/form", method="POST")
    assert done.called and result.final_url == "https://www.example.com/done"


# --- size and time caps ------------------------------------------------------------------------


async def test_declared_oversized_body_refused() -> None:
    with respx.mock() as mock:
        mock.get("https://example.com/big").respond(200, content=b"x" * 5000)
        with pytest.raises(FetchRefused) as err:
            await fetch("https://example.com/big", max_bytes=1024)
    assert err.value.reason == "too-large" and "1024" in err.value.detail


async def test_streamed_oversized_body_cut_off() -> None:
    sent = 0

    async def endless():
        nonlocal sent
        while True:
            sent += 1
            yield b"y" * 1000
            if sent > 1000:  # the test would fail on the assertion below, not hang
                return

    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=endless()))
    with pytest.raises(FetchRefused) as err:
        await fetch("https://example.com/stream", max_bytes=4096, transport=transport)
    assert err.value.reason == "too-large"
    assert sent <= 6


async def test_slow_body_hits_total_time_cap() -> None:
    async def slow():
        yield b"first"
        await asyncio.sleep(5)
        yield b"never"

    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=slow()))
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(FetchFailed) as err:
        await fetch("https://example.com/slow", timeout=0.3, transport=transport)
    assert loop.time() - start < 2
    problem = err.value
    assert problem.status == 503 and problem.headers["Retry-After"] == "30" and "example.com" in problem.detail


async def test_refusal_rules_stay_on_with_injected_transport(dns: dict) -> None:
    dns["inside.example"] = ["10.0.0.1"]
    calls = []
    transport = httpx.MockTransport(lambda request: calls.append(request) or httpx.Response(200))
    with pytest.raises(FetchRefused):
        await fetch("http://inside.example/", transport=transport)
    assert calls == []


# --- failures ----------------------------------------------------------------------------------


async def test_unresolvable_name_is_503_naming_host() -> None:
    with pytest.raises(FetchFailed) as err:
        await fetch("https://nowhere.example/")
    assert err.value.status == 503 and "nowhere.example" in err.value.detail and err.value.headers["Retry-After"]


async def test_connect_error_is_503() -> None:
    with respx.mock() as mock:
        mock.get("https://example.com/").mock(side_effect=httpx.ConnectError("refused"))
        with pytest.raises(FetchFailed) as err:
            await fetch("https://example.com/")
    assert "example.com" in err.value.detail


# --- no second lookup: the connection goes to the checked address ------------------------------


async def test_connects_to_checked_address_with_one_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    lookups: list[str] = []

    async def rebinding(host: str, port: int) -> list[str]:
        lookups.append(host)
        return [PUBLIC] if len(lookups) == 1 else ["127.0.0.1"]  # a second lookup would be rebound

    monkeypatch.setattr(fetch_module, "resolve", rebinding)
    connects: list[tuple[str, int]] = []

    async def fake_connect(self, host, port, **kwargs):
        connects.append((host, port))
        raise httpcore.ConnectError("test: no network")

    monkeypatch.setattr(httpcore.AnyIOBackend, "connect_tcp", fake_connect)
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: pytest.fail("second lookup"))
    with pytest.raises(FetchFailed):
        await fetch("http://rebind.example/")
    assert lookups == ["rebind.example"]
    assert connects == [(PUBLIC, 80)]


async def test_pinned_transport_keeps_host_header() -> None:
    """A real loopback server reached through a pin: the request names the original host."""
    seen: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        seen.append(head)
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        transport = PinnedTransport()
        transport.backend.pins["pinned.example"] = ["127.0.0.1"]
        async with httpx.AsyncClient(transport=transport) as client:
            response = await client.get(f"http://pinned.example:{port}/x")
            assert response.text == "ok"
            with pytest.raises(httpx.ConnectError):
                await client.get(f"http://unpinned.example:{port}/x")
    finally:
        server.close()
        await server.wait_closed()
    assert b"host: pinned.example" in seen[0].lower()
