"""Fetching a site's robots.txt, sitemaps and llms.txt through the safe fetcher, concurrently and
within one overall bound (`TWLOOKUP_FETCH_TIMEOUT_SECONDS`, the bound of one fetch).

robots.txt, /sitemap.xml and /llms.txt are fetched at once; sitemaps that robots.txt declares are
fetched when it arrives, with the time left. A hanging site therefore costs one bound, not three.
A robots.txt larger than the fetcher reads (`TWLOOKUP_FETCH_MAX_BYTES`) is asked for again with a
Range header for its first 500 KiB, all Google reads; only a server that then still sends too much
gets the fetcher's 422.

Whose failure it is decides the answer (issue 23): when the site could not be reached at all
(its name does not resolve, or the connection is refused or fails before anything is sent) the
failure is ours to report, a 503 with Retry-After (`FetchFailed`), never a verdict about the
site. When the site accepted the connection but robots.txt did not come (no answer in time, the
answer broke off) or answered 5xx, that is RFC 9309 2.3.1.4's "unreachable": crawlers must assume
complete disallow, and that is the verdict. A target the fetcher may not fetch is its 422
(`FetchRefused`).

What this relies on in `twlookup.platform.fetch`: `fetch()` raising `FetchRefused` (422) and
`FetchFailed` (503, Retry-After) only; the httpx or resolver exception that caused a
`FetchFailed` is kept on it as `__cause__` or `__context__` (`raise ... from None` keeps the
context), which is how a failure while connecting is told from one after the site accepted the
connection. A failure whose cause is not kept is read as the site's (a verdict, not a 503).
And `FetchRefused.reason == "too-large"` for a body over `max_bytes` (the Range retry above).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable
from dataclasses import dataclass
from functools import cache
from typing import Any

from twlookup.platform.errors import InvalidParameter, Problem
from twlookup.platform.fetch import FetchFailed, FetchRefused, FetchResult, fetch


@cache
def connect_phase() -> tuple[type[BaseException], ...]:
    """Failures before the site answered anything: resolving its name or opening the connection
    (the HTTP client's classes, imported when a check first fails, not at start)."""
    import httpcore
    import httpx

    return (socket.gaierror, httpx.ConnectError, httpx.ConnectTimeout, httpcore.ConnectError, httpcore.ConnectTimeout)


OUT_OF_TIME = "not fetched: the check's time bound ran out before it could start"
ROBOTS_READ = 512_000  # 500 KiB: what Google reads of a robots.txt


def origin(url: str) -> str:
    """scheme://host[:port] of a URL, an IPv6 literal kept in brackets (http://[2001:db8::1]:8080)."""
    import httpx

    try:
        u = httpx.URL(url)
    except (httpx.InvalidURL, ValueError) as exc:
        raise InvalidParameter("url", f"not a valid URL ({exc})", "an http(s) URL of a public site") from None
    if not u.host:
        raise InvalidParameter("url", "the URL has no host", "an http(s) URL of a public site")
    host = u.raw_host.decode("ascii")
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    port = f":{u.port}" if u.port else ""
    return f"{u.scheme}://{host}{port}"


def before_answer(exc: BaseException) -> bool:
    """Whether a fetch failed before the site answered anything (name not resolved, connection not made)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, connect_phase()):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


@dataclass
class Got:
    """One fetch of the check: the result, or why there is none."""

    result: FetchResult | None = None
    failure: FetchFailed | None = None
    refused: Problem | None = None
    note: str | None = None

    @property
    def unreached(self) -> bool:
        return self.failure is not None and before_answer(self.failure)


class Bound:
    """One deadline for all the fetches of a check."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = asyncio.get_running_loop().time() + seconds

    def left(self) -> float:
        return self.deadline - asyncio.get_running_loop().time()

    async def get(self, url: str, max_bytes: int | None = None, headers: dict[str, str] | None = None) -> Got:
        left = self.left()
        if left <= 0.05:
            return Got(note=OUT_OF_TIME)
        try:
            return Got(result=await fetch(url, max_bytes=max_bytes, timeout=left, headers=headers))
        except FetchFailed as exc:
            return Got(failure=exc, note=exc.detail)
        except Problem as exc:  # refused (a redirect to a private address, too large): no content
            return Got(refused=exc, note=exc.detail)


@dataclass
class SiteFiles:
    robots_url: str
    robots: Got
    sitemaps: list[tuple[str, bool, Got]]  # url, declared in robots.txt, what came
    llms_url: str
    llms: Got


def declared_sitemaps(robots: Got, limit: int) -> list[str]:
    from twlookup.services.seo.logic.robots import parse

    result = robots.result
    if result is None or not 200 <= result.status < 300:
        return []
    return parse(result.text).sitemaps[:limit]


async def _cancel(tasks: list[asyncio.Task[Any]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def fetch_site(
    base: str, seconds: float, *, sitemap_limit: int = 5, llms: bool = True, unreached_is_ours: bool = True
) -> SiteFiles:
    """robots.txt, sitemaps and llms.txt of the site at `base`, within `seconds` in all.

    Raises the robots.txt fetch's `FetchFailed` (503) when the site could not be reached at all
    (unless `unreached_is_ours` is false: the audit has just loaded a page of the site), and its
    refusal (422) when the fetcher may not fetch it."""
    bound = Bound(seconds)
    robots_url, default_sitemap, llms_url = base + "/robots.txt", base + "/sitemap.xml", base + "/llms.txt"
    robots_task = asyncio.create_task(bound.get(robots_url))
    others: dict[str, asyncio.Task[Got]] = {default_sitemap: asyncio.create_task(bound.get(default_sitemap))}
    llms_task = asyncio.create_task(bound.get(llms_url)) if llms else None
    started: list[asyncio.Task[Any]] = [robots_task, *others.values(), *([llms_task] if llms_task else [])]
    try:
        robots = await robots_task
        if isinstance(robots.refused, FetchRefused) and robots.refused.reason == "too-large":
            # Larger than the fetcher reads: ask for the first 500 KiB only, all a crawler reads (Google).
            robots = await bound.get(robots_url, headers={"Range": f"bytes=0-{ROBOTS_READ - 1}"})
        if robots.refused is not None:
            raise robots.refused
        if robots.unreached and unreached_is_ours:
            assert robots.failure is not None
            raise robots.failure
        declared = declared_sitemaps(robots, sitemap_limit)
        for url in declared:
            if url not in others:
                others[url] = asyncio.create_task(bound.get(url))
                started.append(others[url])
        order = [*declared, *([default_sitemap] if default_sitemap not in declared else [])]
        fetched: list[Awaitable[Got]] = [others[u] for u in order]
        got = await asyncio.gather(*fetched)
        llms_got = await llms_task if llms_task else Got(note="not fetched")
    except BaseException:
        await _cancel(started)
        raise
    return SiteFiles(
        robots_url=robots_url,
        robots=robots,
        sitemaps=[(u, u in declared, g) for u, g in zip(order, got)],
        llms_url=llms_url,
        llms=llms_got,
    )
