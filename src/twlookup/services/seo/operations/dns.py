"""Forward-confirmed reverse DNS, as the crawler operators document it (Google, Bing, Apple,
Yandex, Baidu): look up the name of the address (PTR), check that the name lies in one of the
operator's domains, then look the name up again and check that it resolves back to the same address.
Only both steps together confirm a crawler: anyone can publish a PTR record naming googlebot.com for
an address they control, but only Google can make a googlebot.com name resolve to it.

The resolver is a small protocol so that tests (and a deployment with its own resolver) can swap it;
the default asks the operating system's resolver through the event loop's thread pool."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol


class NoName(LookupError):
    """The address has no reverse DNS name (no PTR record), or the name has no address."""


class Resolver(Protocol):
    async def reverse(self, ip: str) -> str:
        """The PTR name of `ip`; raises NoName when there is none."""

    async def forward(self, host: str) -> list[str]:
        """The addresses `host` resolves to (A and AAAA); raises NoName when there are none."""


class SystemResolver:
    """The operating system's resolver, run off the event loop by asyncio."""

    async def reverse(self, ip: str) -> str:
        loop = asyncio.get_running_loop()
        try:
            host, _ = await loop.getnameinfo((ip, 0), socket.NI_NAMEREQD)
        except socket.gaierror as exc:
            raise NoName(f"no reverse DNS name for {ip} ({exc.strerror or exc})") from None
        return host

    async def forward(self, host: str) -> list[str]:
        loop = asyncio.get_running_loop()
        try:
            infos = await loop.getaddrinfo(host, None, type=socket.SOCK_STREAM)
        except socket.gaierror as exc:
            raise NoName(f"{host} does not resolve ({exc.strerror or exc})") from None
        return [str(i[4][0]).split("%")[0] for i in infos]


RESOLVER: Resolver = SystemResolver()


@dataclass(frozen=True)
class Confirmation:
    hostname: str | None = None
    forward_addresses: list[str] = field(default_factory=list)
    forward_confirmed: bool | None = None
    operator_suffix: str | None = None  # the operator's documented domain the name lies in
    crawlers: list[str] = field(default_factory=list)
    verified: bool = False
    note: str = ""


def _same_address(a: str, b: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    try:
        x = ipaddress.ip_address(a)
    except ValueError:
        return False
    if isinstance(x, ipaddress.IPv6Address) and x.ipv4_mapped:
        x = x.ipv4_mapped
    return x == b


def domain_suffix(hostname: str, suffixes: Sequence[str]) -> str | None:
    """The longest of `suffixes` that `hostname` is, or lies under, label by label:
    crawl-1.googlebot.com is under googlebot.com; evilgooglebot.com and googlebot.com.evil.example are not."""
    host = hostname.rstrip(".").lower()
    best = None
    for s in suffixes:
        s = s.strip(".").lower()
        if (host == s or host.endswith("." + s)) and (best is None or len(s) > len(best)):
            best = s
    return best


async def confirm(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address,
    suffixes: Mapping[str, Sequence[str]],
    timeout: float,
    resolver: Resolver | None = None,
) -> Confirmation:
    """Reverse-then-forward DNS for `address`; `suffixes` maps each documented domain to the crawler
    tokens it stands for. Never raises: a failure is a Confirmation that says what went wrong."""
    resolver = resolver or RESOLVER
    ip = str(address)
    try:
        async with asyncio.timeout(timeout):
            hostname = (await resolver.reverse(ip)).rstrip(".")
            suffix = domain_suffix(hostname, list(suffixes))
            if suffix is None:
                return Confirmation(
                    hostname=hostname,
                    note=f"The reverse DNS name {hostname} is in none of the crawler operators' documented domains.",
                )
            try:
                forward = await resolver.forward(hostname)
            except NoName as exc:
                return Confirmation(
                    hostname=hostname,
                    forward_confirmed=False,
                    operator_suffix=suffix,
                    note=f"The name is in {suffix}, but the forward lookup failed: {exc}. Not confirmed.",
                )
    except NoName as exc:
        return Confirmation(note=f"Not confirmed: {exc}.")
    except TimeoutError:
        return Confirmation(note=f"DNS confirmation not possible: no answer within {timeout:g} s.")
    except OSError as exc:
        return Confirmation(note=f"DNS confirmation not possible: {type(exc).__name__}.")
    confirmed = any(_same_address(a, address) for a in forward)
    crawlers = list(suffixes[suffix])
    if confirmed:
        note = f"{ip} → {hostname} → {ip}: forward-confirmed in {suffix} ({', '.join(crawlers)})."
    else:
        note = (
            f"{hostname} is in {suffix} but resolves to {', '.join(forward) or 'nothing'}, not to {ip}: "
            "the PTR record is not backed by the operator. Not confirmed."
        )
    return Confirmation(
        hostname=hostname,
        forward_addresses=forward,
        forward_confirmed=confirmed,
        operator_suffix=suffix,
        crawlers=crawlers if confirmed else [],
        verified=confirmed,
        note=note,
    )
