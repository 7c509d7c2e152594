"""The seo service's operations: thin adapters from parameters to the rules and the safe fetcher."""

from __future__ import annotations

import secrets
from datetime import date
from typing import Any

import httpx

from twlookup.platform.errors import InvalidParameter, Problem
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.fetch import fetch
from twlookup.platform.operations import NoParams
from twlookup.platform.schemas import Source, today_taipei
from twlookup.platform.service import Service
from twlookup.services.seo import parsers as airobots
from twlookup.services.seo.data import CATALOG, seed_seo
from twlookup.services.seo.feeds import AIROBOTS, IPRANGES
from twlookup.services.seo.logic import audit as logic
from twlookup.services.seo.logic import robots
from twlookup.services.seo.operations import dns, site
from twlookup.services.seo.schemas import (
    Audit,
    AuditItemOut,
    Bots,
    BotsQuery,
    BulkSubmitBody,
    CrawlerCheck,
    CrawlerOut,
    DnsCheck,
    EngineOperators,
    EngineUrl,
    FindingOut,
    Fix,
    Generated,
    GenerateQuery,
    GroupOut,
    GuideEntry,
    InstantKey,
    LlmsStatus,
    MetaQuery,
    MetaTags,
    Operators,
    OperatorsQuery,
    RangeMatch,
    RobotsStatus,
    RobotsTest,
    RobotsTestBody,
    RuleOut,
    SearchUrls,
    SearchUrlsQuery,
    SerpPreview,
    SerpQuery,
    Share,
    ShareData,
    SiteCheck,
    SitemapStatus,
    SubmitBody,
    SubmitGuideOut,
    SubmitResult,
    Truncated,
    UrlQuery,
    VerifyIp,
    VerifyIpQuery,
    VideoBody,
    VideoCheck,
    VideoFindingOut,
)

SERVICE = Service(
    name="seo",
    title="SEO and crawler tools",
    description=(
        "Search URLs and operators of four engines, robots.txt generation and RFC 9309 testing, site "
        "crawler checks through a safe fetcher, the crawler list with IP verification, SERP preview, "
        "meta tags, video chapter checks and IndexNow (instantindex) submission."
    ),
    network="testnet",
)
SERVICE.seeder(seed_seo)
SERVICE.feed(IPRANGES)  # the operators' crawler IP-range files (twlookup refresh seo.ipranges)
SERVICE.feed(AIROBOTS)  # ai.robots.txt's AI-crawler list (twlookup refresh seo.airobots)
add_status_route(SERVICE)

CHECKED = date(2026, 11, 23)
INDEXNOW_SOURCE = Source(
    url="https://www.indexnow.org/documentation",
    title="IndexNow documentation (key format, key file, POST of up to 10,000 URLs, response codes); the key-file "
    "folder scope as Yandex documents it: https://yandex.ru/support/webmaster/indexnow/key.html",
    checked=CHECKED,
)
VIDEO_SOURCE = Source(
    url="https://support.google.com/youtube/answer/9884579", title="YouTube Help: Video chapters", checked=CHECKED
)
VIDEO_API_SOURCE = Source(
    url="https://developers.google.com/youtube/v3/docs/videos",
    title="YouTube Data API reference, videos resource: snippet.title (100 characters), snippet.description "
    "(5,000 bytes), snippet.tags[] (500 characters); no < or > in title or description",
    checked=CHECKED,
)
VIDEO_PAGES = {"chapters": VIDEO_SOURCE, "api": VIDEO_API_SOURCE}
RFC9309 = "https://www.rfc-editor.org/rfc/rfc9309.html"
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
AI_TYPES = ("ai_search", "train", "user")


def _findings(found: list[robots.Finding]) -> list[FindingOut]:
    return [FindingOut(line=f.line, severity=f.severity, message=f.message) for f in found]


@SERVICE.operation("GET", "/api/search-urls", tool="build_search_urls")
def search_urls(p: SearchUrlsQuery) -> SearchUrls:
    """Search URLs for Google, Bing, DuckDuckGo and Yahoo, with site:, filetype: and a time filter."""
    catalog = CATALOG.get()
    query = logic.search_query(p.q, p.site, p.filetype)
    urls = []
    for e in catalog.engines.values():
        tf = e.time_filters.get(p.time) if p.time else None
        urls.append(
            EngineUrl(engine=e.id, url=logic.search_url(e.search_url, e.query_param, query, tf), time_filter=tf)
        )
    return SearchUrls(
        query=query,
        urls=urls,
        note="Google's tbs=qdr filter is documented; the other engines' time parameters are those their result pages use and may change.",
        source=[e.source_ref for e in catalog.engines.values()],
    )


@SERVICE.operation("GET", "/api/operators", tool="search_operators")
def operators(p: OperatorsQuery) -> Operators:
    """Search operators of one engine (google, bing, duckduckgo, yahoo) or of all four."""
    engines = CATALOG.get().engines
    chosen = [engines[p.engine]] if p.engine else list(engines.values())
    return Operators(
        engines=[EngineOperators(engine=e.id, name=e.name, operators=e.operators, source=e.source_ref) for e in chosen]
    )


@SERVICE.operation("GET", "/api/robots/generate", tool="generate_robots_txt")
def generate(p: GenerateQuery) -> Generated:
    """A robots.txt for a mode (allow_all, block_all, block_ai_training, block_ai), optionally
    declaring a sitemap; the file is run back through the tester for every crawler of the list."""
    catalog = CATALOG.get()
    blocked = catalog.tokens(*logic.BLOCKED_TYPES[p.mode])
    text = logic.generate_robots(p.mode, blocked, p.sitemap)
    parsed = robots.parse(text)
    check = []
    for c in catalog.crawlers:
        d = robots.decide(parsed, c.token, "/")
        check.append(CrawlerCheck(token=c.token, type=c.type, allowed=d.allowed, reason=d.reason))
    listed = [c for c in catalog.crawlers if c.docs == airobots.LIST_DOCS]
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
    sources = [Source(url=RFC9309, title="RFC 9309, Robots Exclusion Protocol", checked=CHECKED)]
    if list_source:
        sources.append(list_source)
    blocked_set = {t.lower() for t in blocked}
    return Generated(
        mode=p.mode,
        meaning=logic.MODES[p.mode],
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
        group=GroupOut(agents=d.group.agents, line=d.group.lines[0], kind=d.group_kind) if d.group else None,  # type: ignore[arg-type]
        rule=RuleOut(kind=d.rule.kind, pattern=d.rule.pattern, line=d.rule.line) if d.rule else None,
        reason=d.reason,
        token_valid=token == p.user_agent.strip(),
        findings=_findings(parsed.findings),
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
        address, hits = logic.ip_in_ranges(p.ip, catalog.networks)
    except ValueError:
        raise InvalidParameter(
            "ip", f"{p.ip!r} is not an IPv4 or IPv6 address", "e.g. 66.249.64.1 or 2001:4860:4801:10::1"
        ) from None
    matches = [
        RangeMatch(
            file=f.id,
            operator=f.operator,
            crawlers=f.crawlers,
            prefix=str(net),
            creation_time=f.creation_time,
            source=f.source_ref,
        )
        for net, f in hits
    ]
    settings = get_settings()
    if settings.seo_verify_dns:
        c = await dns.confirm(address, _dns_suffixes(catalog), settings.seo_dns_timeout_seconds)
        dns_check = DnsCheck(
            enabled=True,
            hostname=c.hostname,
            forward_addresses=c.forward_addresses,
            forward_confirmed=c.forward_confirmed,
            operator_suffix=c.suffix,
            crawlers=c.crawlers,
            verified=c.verified,
            note=c.note,
        )
    else:
        dns_check = DnsCheck(
            enabled=False, note="Reverse-and-forward DNS confirmation is off (TWLOOKUP_SEO_VERIFY_DNS)."
        )
    crawlers = list(dict.fromkeys([t for m in matches for t in m.crawlers] + dns_check.crawlers))
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


@SERVICE.operation("GET", "/api/serp-preview", tool="serp_preview")
def serp_preview(p: SerpQuery) -> SerpPreview:
    """How a title and description show in a search result, truncated by rendered width."""

    def cut(text: str, limit: int, font: int) -> Truncated:
        shown, truncated, _width = logic.truncate_px(text, limit, font)
        return Truncated(
            text=text, shown=shown, truncated=truncated, width_px=round(logic.text_px(text, font), 1), limit_px=limit
        )

    return SerpPreview(
        title=cut(p.title, logic.TITLE_PX, logic.TITLE_FONT),
        description=cut(p.description, logic.DESCRIPTION_PX, logic.DESCRIPTION_FONT),
        display_url=logic.display_url(p.url),
        method=(
            "Heuristic: widths per character class of Arial (CJK and full-width characters 1 em, capitals 0.67 em, "
            f"lower case 0.5 em, narrow 0.28 em); title at {logic.TITLE_FONT} px within about {logic.TITLE_PX} px, "
            f"description at {logic.DESCRIPTION_FONT} px within about {logic.DESCRIPTION_PX} px. Search engines publish no limit."
        ),
    )


@SERVICE.operation("GET", "/api/meta-tags", tool="generate_meta_tags")
def meta_tags(p: MetaQuery) -> MetaTags:
    """Escaped <title>, description, canonical, Open Graph and X card tags."""
    tags = logic.meta_tags(p.title, p.description, p.url, p.image)
    notes = []
    if not p.image:
        notes.append("og:image is required by the Open Graph protocol; add image= for a complete card.")
    if logic.text_px(p.title, logic.TITLE_FONT) > logic.TITLE_PX:
        notes.append("The title is wider than about 600 px and will be cut in search results.")
    return MetaTags(
        html=logic.render_head(p.title, tags),
        tags=[{"element": e, "key": k, "value": v} for e, k, v in tags],
        notes=notes,
    )


@SERVICE.operation("POST", "/api/video-check", tool="video_seo_check")
def video_check(p: VideoBody) -> VideoCheck:
    """Chapters, title, description and tags checked against the video platform's published rules."""
    found = logic.video_check([(c.time, c.title) for c in p.chapters], p.duration, p.title, p.description, p.tags)
    return VideoCheck(
        ok=all(f.ok for f in found),
        findings=[
            VideoFindingOut(
                rule=f.rule,
                text=logic.VIDEO_RULES[f.rule],
                ok=f.ok,
                detail=f.detail,
                source=VIDEO_PAGES[logic.VIDEO_RULE_PAGE[f.rule]],
            )
            for f in found
        ],
        source=VIDEO_SOURCE,
    )


@SERVICE.operation("GET", "/api/instantindex/key")
def instantindex_key(p: NoParams) -> InstantKey:
    """A new IndexNow key (32 hexadecimal characters) and where its key file goes."""
    key = secrets.token_hex(16)
    return InstantKey(
        key=key,
        key_file=f"/{key}.txt",
        content=key,
        steps=[
            f"Save a UTF-8 text file named {key}.txt containing only the key at the root of the site.",
            "Check that https://{host}/" + key + ".txt answers 200 with the key.",
            "Submit URLs with POST /api/instantindex {host, key, urls}.",
        ],
        source=INDEXNOW_SOURCE,
    )


def _check_submission(p: SubmitBody) -> None:
    host = p.host.lower()
    if p.key_location and logic.url_host(p.key_location) != host:
        raise InvalidParameter("key_location", f"the key file must be on host {host}", f"https://{host}/...")
    scope = logic.key_scope(p.key_location) if p.key_location else "/"
    for i, url in enumerate(p.urls):
        if logic.url_host(url) != host:
            raise InvalidParameter(f"urls[{i}]", f"{url!r} is not an http(s) URL on host {host}", f"URLs on {host}")
        if not logic.url_path(url).startswith(scope):
            raise InvalidParameter(
                f"urls[{i}]",
                f"{url!r} is outside {scope}, the folder of key_location: a key file outside the root "
                "only covers URLs in its own folder",
                f"URLs under https://{host}{scope}",
            )


async def _submit(p: SubmitBody) -> SubmitResult:
    from twlookup.settings import get_settings

    _check_submission(p)
    settings = get_settings()
    endpoint = settings.indexnow_endpoint
    upstream = httpx.URL(endpoint).host
    out: list[dict[str, Any]] = []
    async with httpx.AsyncClient(timeout=settings.indexnow_timeout_seconds, trust_env=False) as client:
        for batch in logic.batches(list(p.urls)):
            body: dict[str, Any] = {"host": p.host.lower(), "key": p.key, "urlList": batch}
            if p.key_location:
                body["keyLocation"] = p.key_location
            try:
                response = await client.post(
                    endpoint, json=body, headers={"Content-Type": "application/json; charset=utf-8"}
                )
            except httpx.HTTPError as exc:
                raise Problem(
                    503,
                    f"IndexNow endpoint {upstream} could not be reached ({type(exc).__name__}).",
                    kind="upstream-unavailable",
                    headers={"Retry-After": "30"},
                    extra={"upstream": upstream},
                ) from None
            code = response.status_code
            meaning = logic.INDEXNOW_CODES.get(code, f"Unexpected answer {code}.")
            if code == 429 or code >= 500:
                raise Problem(
                    503,
                    f"IndexNow endpoint {upstream} answered {code}: {meaning}",
                    kind="upstream-unavailable",
                    headers={"Retry-After": response.headers.get("retry-after", "60")},
                    extra={"upstream": upstream},
                )
            if code in (400, 403, 422):
                param = "key" if code == 403 else "urls"
                raise Problem(
                    422,
                    f"{param}: IndexNow endpoint {upstream} answered {code}: {meaning}",
                    kind="invalid-parameter",
                    errors=[{"parameter": param, "message": meaning, "upstream_status": code}],
                )
            out.append({"urls": len(batch), "status": code, "meaning": meaning})
    return SubmitResult(
        endpoint=endpoint,
        host=p.host.lower(),
        submitted=len(p.urls),
        batches=out,
        meaning=out[-1]["meaning"] if out else "",
        source=INDEXNOW_SOURCE,
    )


@SERVICE.operation("POST", "/api/instantindex", tool="instant_index_submit", writes=True)
async def instantindex(p: SubmitBody) -> SubmitResult:
    """Submit up to 100 changed URLs of one host to IndexNow (the key file must be on the site)."""
    return await _submit(p)


@SERVICE.operation(
    "POST",
    "/api/pro/instantindex-bulk",
    price="$0.01",
    example={"host": "example.com", "key": "abcdef0123456789", "urls": ["https://example.com/a"]},
    writes=True,
)
async def instantindex_bulk(p: BulkSubmitBody) -> SubmitResult:
    """Submit up to 10,000 URLs of one host to IndexNow, in the protocol's batches."""
    return await _submit(p)


STATCOUNTER_TW = "https://gs.statcounter.com/search-engine-market-share/all/taiwan"


@SERVICE.operation("GET", "/api/share", tool="search_engine_market_share")
def share(p: NoParams) -> ShareData:
    """Search-engine market share with source and month (worldwide; Taiwan only when a sourced figure is held)."""
    shares = CATALOG.get().shares
    held = {s.region for s in shares}
    missing = [r for r in ("TW", "worldwide") if r not in held]
    note = (
        "Figures are StatCounter's (page views from sites running its tracker), as quoted by the page in each source."
    )
    if "TW" in missing:
        note += (
            " No Taiwan figure is held: none quoting StatCounter's Taiwan page (or another measurement) could be "
            f"found, so none is given. StatCounter's own Taiwan page: {STATCOUNTER_TW}"
        )
    return ShareData(
        regions=[
            Share(region=s.region, month=s.month, shares=s.shares, note=s.note, source=s.source_ref) for s in shares
        ],
        sample=any(s.sample for s in shares),
        missing=missing,
        note=note,
    )


@SERVICE.operation("GET", "/api/submit-guide", tool="search_submit_guide")
def submit_guide(p: NoParams) -> SubmitGuideOut:
    """How to get a site into each of the four engines."""
    engines = CATALOG.get().engines.values()
    return SubmitGuideOut(
        engines=[GuideEntry(engine=e.id, name=e.name, submit=e.submit, source=e.source_ref) for e in engines],
        instantindex="Engines taking part in IndexNow share submissions with each other; use /api/instantindex/key and /api/instantindex.",
    )


# --- site-check and audit (through the safe fetcher) -------------------------------------------


def _robots_status(files: site.SiteFiles) -> tuple[RobotsStatus, robots.Parsed | None]:
    got = files.robots
    result = got.result
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
            status=status,  # type: ignore[arg-type]
            meaning=meaning,
            findings=_findings(parsed.findings) if parsed else [],
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
        findings=logic.llms_txt_findings(result.text) if present and result else [],
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
            allowed, reason = logic.robots_verdicts(None, status.status, [c.token])[c.token]
            out.append(CrawlerCheck(token=c.token, type=c.type, allowed=allowed, reason=reason))
    return out


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
    errors = [f for f in robots_status.findings if f.severity == "error"]
    if errors:
        fixes.append(
            Fix(
                impact="high",
                what=f"robots.txt has {len(errors)} format error(s), first at line {errors[0].line}: {errors[0].message}",
            )
        )
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
    warnings = [f for f in robots_status.findings if f.severity == "warning"]
    if warnings:
        fixes.append(
            Fix(
                impact="low",
                what=f"robots.txt has {len(warnings)} warning(s), first at line {warnings[0].line}: {warnings[0].message}",
            )
        )
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
    page = await fetch(p.url)
    if page.status >= 400:
        raise Problem(
            422,
            f"url: the page answered HTTP {page.status}; only a page that loads can be audited.",
            kind="invalid-parameter",
            errors=[{"parameter": "url", "message": f"HTTP {page.status}"}],
        )
    facts = logic.page_facts(page.text, page.final_url)
    items = logic.audit_page(facts, page.final_url)
    # The page just loaded from this site: robots.txt not coming is the site's "unreachable", not our failure.
    files = await site.fetch_site(
        site.origin(page.final_url), _fetch_bound(), sitemap_limit=3, llms=False, unreached_is_ours=False
    )
    robots_status, parsed = _robots_status(files)
    path = httpx.URL(page.final_url).raw_path.decode("ascii")
    allowed = _verdicts(robots_status, parsed, path)
    googlebot = next((c for c in allowed if c.token == "Googlebot"), None)
    sitemaps = [_sitemap_status(u, d, g) for u, d, g in files.sitemaps]
    logic.audit_site(
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
        score=logic.score(items),
        weights=logic.AUDIT_WEIGHTS,
        items=out,
        fixes=fixes,
        sources=AUDIT_SOURCES,
    )


# Discovery shows no answer to these examples: running them would fetch a site or submit URLs.
for _op in SERVICE.operations:
    if _op.path in ("/api/pro/seo-audit", "/api/pro/instantindex-bulk"):
        _op.example_output = False
