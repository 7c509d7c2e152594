"""Live search of the two outside communities, off by default.

Enabled by TWLOOKUP_OPINIONS_LIVE=1. The hosts are fixed (no user-given URL is fetched); the
query is passed as a parameter. Every call is bounded by a timeout; an unreachable community is a
503 naming it, with Retry-After. When the platform's safe fetcher lands, these calls move to it.
"""

from __future__ import annotations

import os
from datetime import date

import httpx

from twlookup.platform.errors import Problem
from twlookup.services.opinions import feeds
from twlookup.services.opinions.records import Thread

HN_SEARCH = "https://hn.algolia.com/api/v1/search"
SE_SEARCH = "https://api.stackexchange.com/2.3/search/advanced"
SE_SITES = ("superuser", "softwarerecs", "hardwarerecs")
CUTOFF_UNIX = 1669766400  # 2022-11-30T00:00:00Z
TIMEOUT = httpx.Timeout(5.0, connect=3.0)


def enabled() -> bool:
    return os.environ.get("TWLOOKUP_OPINIONS_LIVE", "") == "1"


async def search(q: str, before: bool, today: date, client: httpx.AsyncClient | None = None) -> list[Thread]:
    own = client is None
    client = client or httpx.AsyncClient(timeout=TIMEOUT, headers={"User-Agent": "twlookup-opinions"})
    try:
        hn_params = {"query": q, "tags": "story", "hitsPerPage": "20"}
        if before:
            hn_params["numericFilters"] = f"created_at_i<{CUTOFF_UNIX}"
        threads = await _get(client, "Hacker News search (hn.algolia.com)", HN_SEARCH, hn_params, feeds.parse_hn, today)
        for site in SE_SITES:
            se_params = {"q": q, "site": site, "order": "desc", "sort": "votes", "pagesize": "10"}
            if before:
                se_params["todate"] = str(CUTOFF_UNIX)
            threads += await _get(client, f"Stack Exchange API ({site})", SE_SEARCH, se_params, feeds.parse_se, today)
        return threads
    finally:
        if own:
            await client.aclose()


async def _get(client: httpx.AsyncClient, name: str, url: str, params: dict, parse, today: date) -> list[Thread]:
    try:
        r = await client.get(url, params=params, timeout=TIMEOUT)
    except httpx.HTTPError as exc:
        raise Problem(
            503,
            f"{name} could not be reached ({type(exc).__name__}); try again later.",
            kind="upstream-unavailable",
            headers={"Retry-After": "30"},
        ) from None
    if r.status_code != 200:
        raise Problem(
            503,
            f"{name} answered HTTP {r.status_code}; try again later.",
            kind="upstream-unavailable",
            headers={"Retry-After": "30"},
        )
    try:
        return parse(r.content, today)
    except ValueError as exc:
        raise Problem(
            503,
            f"{name} sent an answer in an unexpected format: {exc}",
            kind="upstream-unavailable",
            headers={"Retry-After": "300"},
        ) from None
