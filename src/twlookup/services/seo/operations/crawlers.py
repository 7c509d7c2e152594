"""The seo service's crawler tools: robots.txt generation and testing (RFC 9309), the crawler
list, and whether an IP address belongs to a known crawler (published ranges, DNS)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from twlookup.platform.errors import InvalidParameter
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import Source
from twlookup.services.seo import parsers
from twlookup.services.seo.data import CATALOG
from twlookup.services.seo.logic import ip_ranges, robots
from twlookup.services.seo.logic.robots import RFC9309
from twlookup.services.seo.operations import dns
from twlookup.services.seo.operations.service import CHECKED, SERVICE
from twlookup.services.seo.schemas import (
    Bots,
    BotsQuery,
    CrawlerCheck,
    CrawlerOut,
    DnsCheck,
    FindingOut,
    Generated,
    GenerateQuery,
    GroupOut,
    RangeMatch,
    RobotsTest,
    RobotsTestBody,
    RuleOut,
    VerifyIp,
    VerifyIpQuery,
)

RFC9309_SOURCE = Source(url=RFC9309, title="RFC 9309, Robots Exclusion Protocol", checked=CHECKED)
AI_TYPES = ("ai_search", "train", "user")  # the crawler types that are AI's


def findings_out(found: list[robots.Finding]) -> list[FindingOut]:
    return [FindingOut(line=f.line, severity=f.severity, message=f.message) for f in found]


@SERVICE.operation("GET", "/api/robots/generate", tool="generate_robots_txt")
def generate(p: GenerateQuery) -> Generated:
    """A robots.txt for a mode (allow_all, block_all, block_ai_training, block_ai), optionally
    declaring a sitemap; the file is run back through the tester for every crawler of the list."""
    catalog = CATALOG.get()
    blocked = catalog.tokens(*robots.BLOCKED_TYPES[p.mode])
    text = robots.generate_robots(p.mode, blocked, p.sitemap)
    parsed = robots.parse(text)
    check = []
    for c in catalog.crawlers:
        d = robots.decide(parsed, c.token, "/")
        check.append(CrawlerCheck(token=c.token, type=c.type, allowed=d.allowed, reason=d.reason))
    listed = [c for c in catalog.crawlers if c.docs == parsers.LIST_DOCS]
    list_source = listed[0].source_ref if listed else None
    note = (
        f"The crawler list: {len(catalog.crawlers)} crawlers, {len(catalog.crawlers) - len(listed)} from their "
        f"operators' pages (data/seo/crawlers.yaml) and {len(listed)} more from ai.robots.txt's list"
        + (f" ({list_source.title}, checked {list_source.checked})" if list_source else "")
        + ". robots.txt is a request, not a lock: it binds only crawlers that honour it."
    )
    if p.mode in ("block_ai", "block_ai_training"):
        note += (
            " Search-engine crawlers (type search) keep access even where ai.robots.txt lists them (it lists "
            "Applebot, also Apple's search crawler): blocking them would take the site out of that search; the "
            "operators' AI-training tokens (Google-Extended, Applebot-Extended) are blocked instead."
        )
    sources = [RFC9309_SOURCE]
    if list_source:
        sources.append(list_source)
    blocked_set = {t.lower() for t in blocked}
    return Generated(
        mode=p.mode,
        meaning=robots.MODES[p.mode],
        robots_txt=text,
        blocked=blocked,
        not_honouring=[
            c.token for c in catalog.crawlers if c.honours_robots == "no" and c.token.lower() in blocked_set
        ],
        check=check,
        note=note,
        sources=sources,
    )


@SERVICE.operation("POST", "/api/robots/test", tool="test_robots_txt")
def robots_test(p: RobotsTestBody) -> RobotsTest:
    """Whether user_agent may fetch path under a robots.txt (RFC 9309), with the group and rule that decided."""
    token = robots.crawler_token(p.user_agent) or p.user_agent.strip()  # the schema refused anything else
    parsed = robots.parse(p.robots)
    d = robots.decide(parsed, token, p.path)
    return RobotsTest(
        allowed=d.allowed,
        user_agent=token,
        path=d.path,
        group=GroupOut(agents=d.group.agents, line=d.group.lines[0], kind=d.group_kind) if d.group else None,
        rule=RuleOut(kind=d.rule.kind, pattern=d.rule.pattern, line=d.rule.line) if d.rule else None,
        reason=d.reason,
        token_valid=token == p.user_agent.strip(),
        findings=findings_out(parsed.findings),
        differences_from_google=robots.DIFFERENCES_FROM_GOOGLE,
    )


@SERVICE.operation("GET", "/api/bots", tool="ai_crawler_list")
def bots(p: BotsQuery) -> Bots:
    """Known crawlers by type (search, ai_search, train, user): operator, token, docs, whether they honour robots.txt."""
    catalog = CATALOG.get()
    crawlers = [c for c in catalog.crawlers if p.type is None or c.type == p.type]
    return Bots(
        count=len(crawlers),
        types={
            "search": "search-engine crawlers",
            "ai_search": "crawlers that build AI search answers",
            "train": "crawlers or tokens for AI model training",
            "user": "fetchers an AI assistant sends when a user asks",
        },
        crawlers=[
            CrawlerOut(
                **c.model_dump(),
                verify_by_ip=c.fetches and bool(c.ip_ranges),
                verify_by_dns=c.fetches and bool(c.rdns),
            )
            for c in crawlers
        ],
    )


def _dns_suffixes(catalog: Any) -> dict[str, list[str]]:
    """Each documented reverse-DNS domain and the crawlers it stands for."""
    out: dict[str, list[str]] = {}
    for c in catalog.crawlers:
        for s in c.rdns:
            out.setdefault(s, []).append(c.token)
    return out


@SERVICE.operation("GET", "/api/verify-ip", tool="verify_crawler_ip")
async def verify_ip(p: VerifyIpQuery) -> VerifyIp:
    """Whether an IP belongs to a known crawler: the operators' published IP-range files, and
    reverse-then-forward DNS in the operators' documented domains when enabled."""
    from twlookup.settings import get_settings

    catalog = CATALOG.get()
    try:
        address, hits = ip_ranges.ip_in_ranges(p.ip, catalog.networks)
    except ValueError:
        raise InvalidParameter(
            "ip", f"{p.ip!r} is not an IPv4 or IPv6 address", "e.g. 66.249.64.1 or 2001:4860:4801:10::1"
        ) from None
    matches = [as_answer(f, RangeMatch, file=f.id, prefix=str(net)) for net, f in hits]
    settings = get_settings()
    if settings.seo_verify_dns:
        c = await dns.confirm(address, _dns_suffixes(catalog), settings.seo_dns_timeout_seconds)
        dns_check = DnsCheck(enabled=True, **asdict(c))
    else:
        dns_check = DnsCheck(
            enabled=False, note="Reverse-and-forward DNS confirmation is off (TWLOOKUP_SEO_VERIFY_DNS)."
        )
    crawlers = list(dict.fromkeys([t for _net, f in hits for t in f.crawlers] + dns_check.crawlers))
    sample = any(f.sample for f in catalog.ranges)
    if matches:
        note = "In a published range."
    elif dns_check.verified:
        note = "In no published range held here, but confirmed by reverse-and-forward DNS."
    else:
        note = (
            "Not in any published range held here"
            + ("" if dns_check.enabled else "; turn on DNS confirmation for crawlers without a range file")
            + ". Each file's date is in files_consulted: a range added since is not known here."
        )
    if sample:
        note += " Some range files are a shipped sample, not the operator's full file: a 'no' is not conclusive until they are imported."
    return VerifyIp(
        ip=str(address),
        known_crawler=bool(matches) or dns_check.verified,
        crawlers=crawlers,
        matches=matches,
        dns=dns_check,
        files_consulted=[f.source_ref for f in catalog.ranges],
        sample=sample,
        note=note,
    )
