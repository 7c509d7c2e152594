"""The seo service's site tools: the crawler check of a site (robots.txt, sitemaps, llms.txt and
each known crawler's access) and the paid page audit, both through the safe fetcher."""

from __future__ import annotations

from datetime import date
from typing import Literal

from twlookup.platform.errors import Problem
from twlookup.platform.fetch import fetch
from twlookup.platform.schemas import Source, today_taipei
from twlookup.services.seo.data import CATALOG
from twlookup.services.seo.logic import audit, llms_txt, robots
from twlookup.services.seo.logic.robots import RFC9309
from twlookup.services.seo.operations import site
from twlookup.services.seo.operations.crawlers import AI_TYPES, findings_out
from twlookup.services.seo.operations.service import SERVICE
from twlookup.services.seo.schemas import (
    Audit,
    AuditItemOut,
    CrawlerCheck,
    FindingOut,
    Fix,
    LlmsStatus,
    RobotsState,
    RobotsStatus,
    SiteCheck,
    SitemapStatus,
    UrlQuery,
)

AUDIT_CHECKED = date(2026, 11, 26)
AUDIT_SOURCES = [
    Source(
        url="https://developers.google.com/search/docs/appearance/title-link",
        title="Google Search Central, Influencing your title links: descriptive and concise titles, no vague "
        "ones such as 'Home' (no length limit is published; the width and word thresholds here are heuristics)",
        checked=AUDIT_CHECKED,
    ),
    Source(
        url="https://ogp.me/",
        title="The Open Graph protocol: the four required properties og:title, og:type, og:image, og:url",
        checked=AUDIT_CHECKED,
    ),
    Source(url=RFC9309, title="RFC 9309, Robots Exclusion Protocol", checked=AUDIT_CHECKED),
]


def _robots_status(files: site.SiteFiles) -> tuple[RobotsStatus, robots.Parsed | None]:
    got = files.robots
    result = got.result
    status: RobotsState
    if result is None or result.status >= 500:
        why = f" ({got.note})" if result is None and got.note else ""
        status, meaning = (
            "unreachable",
            f"Unreachable{why} or 5xx: crawlers must treat the whole site as disallowed (RFC 9309 2.3.1.4).",
        )
    elif result.status >= 400:
        status, meaning = "unavailable", "4xx: crawlers may fetch everything (RFC 9309 2.3.1.3)."
    elif result.status == 206:
        status, meaning = (
            "ok",
            "Larger than this service reads: its first 500 KiB, all Google reads, were fetched and parsed.",
        )
    else:
        status, meaning = "ok", "Found and parsed."
    parsed = robots.parse(result.text) if status == "ok" and result else None
    return (
        RobotsStatus(
            url=files.robots_url,
            http_status=result.status if result else None,
            status=status,
            meaning=meaning,
            findings=findings_out(parsed.findings) if parsed else [],
            sitemaps=parsed.sitemaps if parsed else [],
        ),
        parsed,
    )


def _sitemap_status(url: str, declared: bool, got: site.Got) -> SitemapStatus:
    result = got.result
    head = result.body[:2000].lower() if result and result.status < 400 else b""
    return SitemapStatus(
        url=url,
        declared=declared,
        http_status=result.status if result else None,
        looks_like_sitemap=b"<urlset" in head or b"<sitemapindex" in head,
        note=got.note,
    )


def _llms_status(files: site.SiteFiles) -> LlmsStatus:
    result = files.llms.result
    present = bool(result and 200 <= result.status < 300)
    return LlmsStatus(
        url=files.llms_url,
        http_status=result.status if result else None,
        present=present,
        findings=llms_txt.llms_txt_findings(result.text) if present and result else [],
        note=files.llms.note,
    )


def _fetch_bound() -> float:
    from twlookup.settings import get_settings

    return float(get_settings().fetch_timeout_seconds)


def _verdicts(status: RobotsStatus, parsed: robots.Parsed | None, path: str = "/") -> list[CrawlerCheck]:
    catalog = CATALOG.get()
    out = []
    for c in catalog.crawlers:
        if status.status == "ok" and parsed is not None:
            d = robots.decide(parsed, c.token, path)
            out.append(CrawlerCheck(token=c.token, type=c.type, allowed=d.allowed, reason=d.reason))
        else:
            allowed, reason = robots.robots_verdicts(None, status.status, [c.token])[c.token]
            out.append(CrawlerCheck(token=c.token, type=c.type, allowed=allowed, reason=reason))
    return out


def _robots_findings(findings: list[FindingOut], severity: str, impact: Literal["high", "low"], what: str) -> list[Fix]:
    """One fix for the robots.txt findings of a severity: how many, and the first."""
    found = [f for f in findings if f.severity == severity]
    if not found:
        return []
    first = found[0]
    return [Fix(impact=impact, what=f"robots.txt has {len(found)} {what}, first at line {first.line}: {first.message}")]


@SERVICE.operation("GET", "/api/site-check", tool="check_site_crawlers")
async def site_check(p: UrlQuery) -> SiteCheck:
    """robots.txt (status and format errors with line numbers), sitemaps, llms.txt and each known
    crawler's access to the home page, fetched through the safe fetcher; then fixes by impact."""
    files = await site.fetch_site(site.origin(p.url), _fetch_bound())
    robots_status, parsed = _robots_status(files)
    declared = robots_status.sitemaps[:5]
    sitemaps = [_sitemap_status(u, d, g) for u, d, g in files.sitemaps]
    llms = _llms_status(files)
    crawlers = _verdicts(robots_status, parsed)
    fixes: list[Fix] = []
    if robots_status.status == "unreachable":
        fixes.append(
            Fix(
                impact="critical",
                what="robots.txt is unreachable or answers 5xx, so crawlers treat the whole site as disallowed: serve it with 200, or 404 if you have none.",
            )
        )
    for c in crawlers:
        if c.type == "search" and not c.allowed and robots_status.status == "ok":
            fixes.append(
                Fix(
                    impact="critical",
                    what=f"{c.token} may not fetch the home page; the site cannot appear in its search results.",
                )
            )
    fixes += _robots_findings(robots_status.findings, "error", "high", "format error(s)")
    if not any(s.looks_like_sitemap for s in sitemaps):
        fixes.append(
            Fix(
                impact="medium",
                what="No sitemap found (declared in robots.txt or at /sitemap.xml): publish one and add a Sitemap: line.",
            )
        )
    elif not declared:
        fixes.append(
            Fix(impact="low", what="The sitemap is not declared in robots.txt: add 'Sitemap: <absolute URL>'.")
        )
    fixes += _robots_findings(robots_status.findings, "warning", "low", "warning(s)")
    ai_named = parsed is not None and any(
        t.lower() in (a.lower() for g in parsed.groups for a in g.agents) for t in CATALOG.get().tokens(*AI_TYPES)
    )
    if robots_status.status == "ok" and not ai_named:
        fixes.append(
            Fix(
                impact="low",
                what="robots.txt names no AI crawler: decide on AI training and AI search access (see /api/robots/generate).",
            )
        )
    if not llms.present:
        fixes.append(
            Fix(
                impact="low",
                what="No /llms.txt: optional, a Markdown summary with links for AI assistants (llmstxt.org).",
            )
        )
    elif any(f["severity"] == "error" for f in llms.findings):
        fixes.append(Fix(impact="low", what="llms.txt does not follow the format: it must start with an H1."))
    return SiteCheck(
        url=p.url,
        checked_on=today_taipei(),
        robots=robots_status,
        sitemaps=list(sitemaps),
        llms_txt=llms,
        crawlers=crawlers,
        fixes=fixes,
    )


@SERVICE.operation("GET", "/api/pro/seo-audit", price="$0.02", example={"url": "https://example.com/"})
async def seo_audit(p: UrlQuery) -> Audit:
    """One page audited on 13 weighted items (title, description, noindex, canonical, H1, image alt,
    social tags, structured data, word count, links, robots.txt, sitemap, AI crawler settings)."""
    import httpx  # imported by the first audit, not when the app starts

    page = await fetch(p.url)
    if page.status >= 400:
        raise Problem(
            422,
            f"url: the page answered HTTP {page.status}; only a page that loads can be audited.",
            kind="invalid-parameter",
            errors=[{"parameter": "url", "message": f"HTTP {page.status}"}],
        )
    facts = audit.page_facts(page.text, page.final_url)
    items = audit.audit_page(facts, page.final_url)
    # The page just loaded from this site: robots.txt not coming is the site's "unreachable", not our failure.
    files = await site.fetch_site(
        site.origin(page.final_url), _fetch_bound(), sitemap_limit=3, llms=False, unreached_is_ours=False
    )
    robots_status, parsed = _robots_status(files)
    path = httpx.URL(page.final_url).raw_path.decode("ascii")
    allowed = _verdicts(robots_status, parsed, path)
    googlebot = next((c for c in allowed if c.token == "Googlebot"), None)
    sitemaps = [_sitemap_status(u, d, g) for u, d, g in files.sitemaps]
    audit.audit_site(
        items,
        {"status": robots_status.status, "page_allowed": googlebot.allowed if googlebot else True, "parsed": parsed},
        any(s.looks_like_sitemap for s in sitemaps),
        CATALOG.get().tokens(*AI_TYPES),
    )
    out = [
        AuditItemOut(item=i.item, weight=i.weight, score=round(i.score, 2), detail=i.detail, fix=i.fix) for i in items
    ]
    fixes = [i.fix for i in sorted(items, key=lambda i: -(i.weight * (1 - i.score))) if i.fix]
    return Audit(
        url=p.url,
        final_url=page.final_url,
        http_status=page.status,
        score=audit.score(items),
        weights=audit.AUDIT_WEIGHTS,
        items=out,
        fixes=fixes,
        sources=AUDIT_SOURCES,
    )
