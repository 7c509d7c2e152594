"""The safe fetcher: the one way a service fetches a URL that a user gave it.

    from twlookup.platform.fetch import fetch, FetchRefused, FetchFailed

    result = await fetch(url)                 # GET; FetchResult(url, final_url, status, headers, body, elapsed, redirects)
    result.text                               # body decoded with the response's charset (utf-8 by default)
    await fetch(url, method="HEAD", max_bytes=65_536, timeout=5.0, param="url")

What it guarantees, for the first URL and for every redirect it follows:

- only `http` and `https`, only on ports 80 and 443 plus `TWLOOKUP_FETCH_EXTRA_PORTS`; no
  user:password in the URL, no `localhost` names;
- the host is resolved here (the event loop's getaddrinfo, or an IP literal as given) and the
  whole answer is checked: if ANY address is loopback, private, link-local, unique-local,
  multicast, unspecified, CGNAT (100.64.0.0/10), cloud metadata (169.254.169.254,
  fd00:ec2::254, 100.100.100.200), IPv4-mapped/NAT64/6to4 around such an address, or otherwise
  not globally routable, the URL is refused;
- the connection goes to the checked address itself (a network backend pinned to it), so no
  second lookup can be rebound; the URL, the Host header and TLS SNI/certificate checks keep the
  real host name;
- at most 5 redirects (301, 302, 303, 307, 308), each re-checked as above;
- the body is read as a stream and cut off past `max_bytes` (default
  `TWLOOKUP_FETCH_MAX_BYTES`); the whole exchange, redirects included, is bounded by `timeout`
  (default `TWLOOKUP_FETCH_TIMEOUT_SECONDS`);
- no cookies, no credentials, no environment proxies; `User-Agent` is
  `TWLOOKUP_FETCH_USER_AGENT`.

Errors are problems the platform already renders:
- `FetchRefused` (422, kind `fetch-refused`, `errors[0].parameter` = `param`, `reason` one of
  `url`, `scheme`, `port`, `credentials`, `host`, `address`, `redirect`, `redirects`,
  `too-large`): the target is not allowed, not a valid URL (or redirects to one that is not), or
  too big; the detail says why.
- `FetchFailed` (503, kind `upstream-unavailable`, `Retry-After: 30`, names the host): DNS
  failure, connection failure, TLS failure, the time cap, or any other error of the HTTP client
  (logged): our fetch failed, never a 500.

Tests: monkeypatch `twlookup.platform.fetch.resolve` (an async `(host, port) -> list[str]`;
`static_resolver({...})` builds one) so that no DNS is asked, and mock the target with respx
(which replaces the connection pool, so URLs stay as the user gave them) or pass `transport=`.
The refusal rules run in both cases: they do not depend on the transport.
"""

from __future__ import annotations

import asyncio
import codecs
import ipaddress
import logging
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from twlookup.platform.errors import Problem, Unreachable

if TYPE_CHECKING:
    import httpx

log = logging.getLogger("twlookup.fetch")

MAX_REDIRECTS = 5
REDIRECT_CODES = {301, 302, 303, 307, 308}
DEFAULT_PORTS = {"http": 80, "https": 443}
# Headers a caller may not pass on: the fetcher sends no credentials or cookies.
FORBIDDEN_HEADERS = {"cookie", "authorization", "proxy-authorization", "host"}

Resolver = Callable[[str, int], Awaitable[list[str]]]
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_net = ipaddress.ip_network
# Ordered: the first class that holds names the refusal.
METADATA = {
    ipaddress.ip_address("169.254.169.254"),  # AWS, GCP, Azure, OpenStack instance metadata
    ipaddress.ip_address("fd00:ec2::254"),  # AWS instance metadata over IPv6
    ipaddress.ip_address("100.100.100.200"),  # Alibaba Cloud instance metadata
}
ADDRESS_CLASSES: list[tuple[str, list[ipaddress.IPv4Network | ipaddress.IPv6Network]]] = [
    ("unspecified", [_net("0.0.0.0/8"), _net("::/128")]),
    ("loopback", [_net("127.0.0.0/8"), _net("::1/128")]),
    ("private", [_net("10.0.0.0/8"), _net("172.16.0.0/12"), _net("192.168.0.0/16")]),
    ("CGNAT shared", [_net("100.64.0.0/10")]),
    ("link-local", [_net("169.254.0.0/16"), _net("fe80::/10")]),
    ("unique-local", [_net("fc00::/7")]),
    ("multicast", [_net("224.0.0.0/4"), _net("ff00::/8")]),
    ("broadcast or reserved", [_net("240.0.0.0/4")]),
    ("IPv4-mapped IPv6", [_net("::ffff:0:0/96")]),
    ("IPv4-compatible IPv6", [_net("::/96")]),
]
# IPv6 prefixes that carry an IPv4 address inside (NAT64 well-known prefix, 6to4).
NAT64 = _net("64:ff9b::/96")
SIX_TO_FOUR = _net("2002::/16")


@dataclass
class FetchResult:
    url: str  # the URL asked for
    final_url: str  # after redirects
    status: int
    headers: httpx.Headers
    body: bytes
    elapsed: float  # seconds, redirects included
    redirects: list[str] = field(default_factory=list)  # each Location followed, in order

    @property
    def text(self) -> str:
        charset = _charset(self.headers.get("content-type", "")) or "utf-8"
        try:
            codecs.lookup(charset)
        except LookupError:
            charset = "utf-8"
        return self.body.decode(charset, errors="replace").removeprefix("\ufeff")


class FetchRefused(Problem):
    """The target may not be fetched (422): `reason` says which rule refused it."""

    def __init__(self, url: str, reason: str, message: str, param: str = "url") -> None:
        super().__init__(
            422,
            f"{param}: refused to fetch {url}: {message}",
            kind="fetch-refused",
            errors=[{"parameter": param, "message": message, "reason": reason}],
            extra={"reason": reason},
        )
        self.reason = reason


class FetchFailed(Unreachable):
    """The target could not be reached in time (503 with Retry-After), naming the host."""

    def __init__(self, host: str, message: str) -> None:
        super().__init__(host, f"Could not fetch from {host}: {message}. Try again later.", "30")
        self.host = host


def address_class(ip: IPAddress) -> str | None:
    """Why an address may not be fetched from, or None when it is a public unicast address."""
    if ip in METADATA:
        return "cloud metadata"
    for name, networks in ADDRESS_CLASSES:
        if any(ip in net for net in networks if net.version == ip.version):
            return name
    if isinstance(ip, ipaddress.IPv6Address):
        inner: IPAddress | None = None
        if ip in NAT64:
            inner = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        elif ip in SIX_TO_FOUR:
            inner = ip.sixtofour
        if inner is not None and address_class(inner):
            return f"IPv6 wrapping a {address_class(inner)} IPv4 address"
    if not ip.is_global:
        return "reserved or not globally routable"
    return None


async def system_resolve(host: str, port: int) -> list[str]:
    """All addresses the system resolver gives for host (the event loop's getaddrinfo)."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


resolve: Resolver = system_resolve  # tests replace this (monkeypatch) so that no DNS is asked


def static_resolver(table: Mapping[str, Iterable[str]]) -> Resolver:
    """A resolver answering from a table (for tests); an unknown name fails like NXDOMAIN."""

    async def lookup(host: str, port: int) -> list[str]:
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return list(table[host])

    return lookup


def _charset(content_type: str) -> str | None:
    for part in content_type.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        if key.strip().lower() == "charset" and value:
            return value.strip().strip('"').lower()
    return None


def _settings() -> Any:
    from twlookup.settings import get_settings

    return get_settings()


def check_url(url: str, extra_ports: Iterable[int] = (), param: str = "url") -> httpx.URL:
    """The URL parsed, or FetchRefused for a scheme, port, credentials or host that is not allowed."""
    import httpx

    try:
        parsed = httpx.URL(url)
        parsed_host = parsed.host  # decodes an IDNA name: a malformed A-label fails here
    except (httpx.InvalidURL, ValueError, TypeError) as exc:  # IDNA errors are ValueErrors too
        raise FetchRefused(url, "url", f"not a valid URL ({exc})", param) from None
    if parsed.scheme not in DEFAULT_PORTS:
        raise FetchRefused(
            url, "scheme", f"scheme {parsed.scheme or '(none)'!r} is not allowed; only http and https", param
        )
    if not parsed_host:
        raise FetchRefused(url, "host", "the URL has no host", param)
    if parsed.userinfo:
        raise FetchRefused(url, "credentials", "a user name or password in the URL is not sent", param)
    port = parsed.port or DEFAULT_PORTS[parsed.scheme]
    allowed = {80, 443, *extra_ports}
    if port not in allowed:
        raise FetchRefused(
            url, "port", f"port {port} is not allowed; allowed: {', '.join(map(str, sorted(allowed)))}", param
        )
    host = parsed_host.lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        raise FetchRefused(url, "address", f"{host} names the loopback interface", param)
    return parsed


async def check_host(url: str, host: str, port: int, param: str = "url") -> list[str]:
    """Resolve host once and check every address; the checked addresses, or FetchRefused/FetchFailed."""
    try:
        literal: IPAddress | None = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [str(literal)]
    else:
        try:
            addresses = await resolve(host, port)
        except (OSError, UnicodeError) as exc:
            raise FetchFailed(host, f"the name does not resolve ({exc})") from None
        if not addresses:
            raise FetchFailed(host, "the name resolves to no address")
    for address in addresses:
        try:
            ip = ipaddress.ip_address(address.split("%")[0])
        except ValueError:
            raise FetchRefused(
                url, "address", f"{host} resolves to {address!r}, which is not an IP address", param
            ) from None
        why = address_class(ip)
        if why:
            where = "is" if literal is not None else f"resolves to {address}, which is"
            raise FetchRefused(url, "address", f"{host} {where} a {why} address", param)
    return addresses


async def fetch(
    url: str,
    *,
    method: str = "GET",
    max_bytes: int | None = None,
    timeout: float | None = None,
    headers: Mapping[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    param: str = "url",
) -> FetchResult:
    """Fetch a user-given URL under the rules in this module's docstring.

    Any status is returned (a 404 is a result, not an error); only refusals and failures raise.
    `transport` replaces the pinned transport (tests); the address checks still run.
    """
    import httpx  # the HTTP client is imported when a service first fetches, not at start

    from twlookup.platform.fetch_transport import PinnedTransport

    settings = _settings()
    max_bytes = settings.fetch_max_bytes if max_bytes is None else max_bytes
    timeout = settings.fetch_timeout_seconds if timeout is None else timeout
    send_headers = {k: v for k, v in (headers or {}).items() if k.lower() not in FORBIDDEN_HEADERS}
    send_headers.setdefault("User-Agent", settings.fetch_user_agent)
    via = PinnedTransport() if transport is None else transport
    started = time.monotonic()
    host = httpx.URL(url).host if _parses(url) else url
    try:
        async with asyncio.timeout(timeout):
            async with httpx.AsyncClient(
                transport=via, trust_env=False, follow_redirects=False, timeout=timeout
            ) as client:
                return await _follow(
                    client, via, url, method.upper(), send_headers, max_bytes, settings, param, started
                )
    except TimeoutError:
        raise FetchFailed(host, f"no complete answer within {timeout:g} s") from None
    except Problem:
        raise
    except Exception as exc:  # whatever else the HTTP client raises is our fetch failing, never a 500
        log.warning("fetch of %s failed: %s: %s", host, type(exc).__name__, exc)
        raise FetchFailed(host, f"the fetch failed ({type(exc).__name__})") from None


def _parses(url: str) -> bool:
    import httpx

    try:
        httpx.URL(url)
    except Exception:
        return False
    return True


async def _follow(
    client: httpx.AsyncClient,
    transport: httpx.AsyncBaseTransport,
    url: str,
    method: str,
    headers: dict[str, str],
    max_bytes: int,
    settings: Any,
    param: str,
    started: float,
) -> FetchResult:
    import httpx

    from twlookup.platform.fetch_transport import PinnedTransport

    current = url
    followed: list[str] = []
    while True:
        parsed = check_url(current, settings.fetch_extra_ports, param)
        port = parsed.port or DEFAULT_PORTS[parsed.scheme]
        host = parsed.raw_host.decode("ascii")  # IDNA-encoded, as the connection pool sees it
        shown = current if current == url else f"{current} (redirected from {url})"
        addresses = await check_host(shown, host, port, param)
        if isinstance(transport, PinnedTransport):
            transport.backend.pins[host.lower().strip("[]")] = addresses
        request = client.build_request(method, parsed, headers=headers)
        try:
            # the transport itself, not client.send: the client would parse a Location header on
            # its own (even with redirects off) and raise on a malformed one; here that is ours
            response = await transport.handle_async_request(request)
            response.request = request
        except httpx.TimeoutException:
            raise FetchFailed(parsed.host, "the connection timed out") from None
        except httpx.HTTPError as exc:
            raise FetchFailed(parsed.host, f"the connection failed ({type(exc).__name__}: {exc})") from None
        try:
            location = response.headers.get("location")
            if response.status_code in REDIRECT_CODES and location:
                if len(followed) >= MAX_REDIRECTS:
                    raise FetchRefused(url, "redirects", f"more than {MAX_REDIRECTS} redirects", param)
                try:
                    current = str(parsed.join(location))
                except (httpx.InvalidURL, ValueError) as exc:  # IDNA errors are ValueErrors too
                    raise FetchRefused(
                        url, "redirect", f"it redirects to {location[:200]!r}, which is not a valid URL ({exc})", param
                    ) from None
                followed.append(current)
                if response.status_code == 303 or (response.status_code in (301, 302) and method == "POST"):
                    method = "GET"
                continue
            body = await _read_capped(response, max_bytes, url, param, parsed.host)
            return FetchResult(
                url=url,
                final_url=current,
                status=response.status_code,
                headers=response.headers,
                body=body,
                elapsed=time.monotonic() - started,
                redirects=followed,
            )
        finally:
            await response.aclose()


async def _read_capped(response: httpx.Response, max_bytes: int, url: str, param: str, host: str) -> bytes:
    import httpx

    declared = response.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise FetchRefused(url, "too-large", f"the answer is {declared} bytes; at most {max_bytes} are read", param)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in response.aiter_bytes():  # decoded: a compressed bomb is cut off too
            size += len(chunk)
            if size > max_bytes:
                raise FetchRefused(url, "too-large", f"the answer is larger than the {max_bytes} bytes read", param)
            chunks.append(chunk)
    except httpx.TimeoutException:
        raise FetchFailed(host, "the answer stopped arriving") from None
    except httpx.HTTPError as exc:
        raise FetchFailed(host, f"the answer broke off ({type(exc).__name__})") from None
    return b"".join(chunks)
