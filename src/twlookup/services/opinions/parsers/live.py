"""Live search of the two outside communities, off by default.

Enabled by `TWLOOKUP_OPINIONS_LIVE=true`. Only two fixed official API hosts are asked (Hacker
News' Algolia search API and the Stack Exchange API); no user-given URL is fetched, the query is
passed as a parameter. Every call goes through the platform's safe fetcher (`platform/fetch.py`):
the host's addresses are checked (no private, loopback or metadata address even for these fixed
hosts), no redirect leaves that check, the body is cut off past `TWLOOKUP_OPINIONS_LIVE_MAX_BYTES`
and each call is bounded by `TWLOOKUP_OPINIONS_LIVE_TIMEOUT_SECONDS`. A community that cannot be
reached, answers with an error, sends too much or sends an unexpected format is a 503 naming it,
with Retry-After.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from twlookup.platform import fetch as safe
from twlookup.platform.errors import Problem
from twlookup.services.opinions.parsers import foreign
from twlookup.services.opinions.records import Thread

HN_SEARCH = "https://hn.algolia.com/api/v1/search"
SE_SEARCH = "https://api.stackexchange.com/2.3/search/advanced"
SE_SITES = ("superuser", "softwarerecs", "hardwarerecs")
CUTOFF_UNIX = 1669766400  # 2022-11-30T00:00:00Z


def _settings():
    from twlookup.settings import get_settings

    return get_settings()


def enabled() -> bool:
    return bool(_settings().opinions_live)


async def search(q: str, before: bool, today: date) -> list[Thread]:
    hn_params = {"query": q, "tags": "story", "hitsPerPage": "20"}
    if before:
        hn_params["numericFilters"] = f"created_at_i<{CUTOFF_UNIX}"
    threads = await _get("Hacker News search (hn.algolia.com)", HN_SEARCH, hn_params, foreign.parse_hn, today)
    for site in SE_SITES:
        se_params = {"q": q, "site": site, "order": "desc", "sort": "votes", "pagesize": "10"}
        if before:
            se_params["todate"] = str(CUTOFF_UNIX)
        threads += await _get(f"Stack Exchange API ({site})", SE_SEARCH, se_params, foreign.parse_se, today)
    return threads


def _unavailable(name: str, why: str, retry: str = "30") -> Problem:
    return Problem(503, f"{name} {why}; try again later.", kind="upstream-unavailable", headers={"Retry-After": retry})


async def _get(
    name: str, base: str, params: dict[str, str], parse: Callable[[bytes, date], list[Thread]], today: date
) -> list[Thread]:
    import httpx  # imported when a live search first runs, not when the app starts

    settings = _settings()
    url = str(httpx.URL(base, params=params))
    try:
        r = await safe.fetch(
            url,
            max_bytes=settings.opinions_live_max_bytes,
            timeout=settings.opinions_live_timeout_seconds,
            headers={"Accept": "application/json"},
            param="q",
        )
    except safe.FetchRefused as exc:  # a fixed official host: a refusal is the upstream's fault, not the query's
        raise _unavailable(name, f"could not be used ({exc.detail})") from None
    except safe.FetchFailed as exc:
        raise _unavailable(name, f"could not be reached ({exc.detail})") from None
    if r.status != 200:
        raise _unavailable(name, f"answered HTTP {r.status}")
    try:
        return parse(r.body, today)
    except ValueError as exc:
        raise _unavailable(name, f"sent an answer in an unexpected format: {exc}", retry="300") from None
