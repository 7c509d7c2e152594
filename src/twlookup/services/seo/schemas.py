"""Parameters and results of the seo service."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import Field, field_validator

from twlookup.platform.operations import Params
from twlookup.platform.records import ANSWERS, RecordAnswer
from twlookup.platform.schemas import LazyModel, Source
from twlookup.services.seo.logic import robots as robots_txt  # a body field is named robots
from twlookup.services.seo.records import Crawler, CrawlerType, Engine, IpRangeFile, MarketShare

FREE_SUBMIT_LIMIT = 100  # spec document 1, Limits: free URL submission
PAID_SUBMIT_LIMIT = 10_000  # paid bulk submission
EngineId = Literal["google", "bing", "duckduckgo", "yahoo"]
RobotsState = Literal["ok", "unavailable", "unreachable"]  # RFC 9309 2.3.1: found, 4xx, unreachable or 5xx
Mode = Literal["allow_all", "block_all", "block_ai_training", "block_ai"]
HOST = r"^([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$"
URL = r"^https?://[^\x00-\x20\x7f-\x9f]+$"


# --- parameters --------------------------------------------------------------------------------


class SearchUrlsQuery(Params):
    q: str = Field(min_length=1, max_length=300, description="Search words")
    site: str | None = Field(None, pattern=HOST, max_length=253, description="Limit to one site or domain, e.g. gov.tw")
    filetype: str | None = Field(None, pattern=r"^[A-Za-z0-9]{1,10}$", description="File type, e.g. pdf")
    time: Literal["day", "week", "month", "year"] | None = Field(
        None, description="Only results from the past day, week, month or year"
    )


class OperatorsQuery(Params):
    engine: EngineId | None = Field(None, description="One engine; all four when omitted")


class GenerateQuery(Params):
    mode: Mode = Field(
        "allow_all",
        description="allow_all, block_all, block_ai_training (keep search and AI search), block_ai (keep search only)",
    )
    sitemap: str | None = Field(
        None, pattern=URL, max_length=2000, description="Absolute URL of the sitemap to declare"
    )


class RobotsTestBody(Params):
    robots: str = Field(
        max_length=1_048_576,
        description="The robots.txt text; only its first 500 KiB are read, as Google does (the rest is ignored and reported)",
    )
    user_agent: str = Field(
        min_length=1,
        max_length=500,
        pattern=robots_txt.CRAWLER_TOKEN_PATTERN,
        description="The crawler's product token, e.g. Googlebot; Googlebot/2.1 is read as Googlebot. A whole "
        "User-Agent header (Mozilla/5.0 (compatible; Googlebot/2.1; ...)) is refused: name the token it carries",
    )
    path: str = Field(min_length=1, max_length=4000, description="A path (/dir/page?x=1) or a full URL")

    @field_validator("user_agent", mode="before")
    @classmethod
    def _product_token(cls, value: Any) -> Any:
        # a whole User-Agent header matched as given would silently fall to the '*' group: refused, naming its tokens
        if isinstance(value, str) and value.strip() and robots_txt.crawler_token(value) is None:
            raise ValueError(robots_txt.not_a_token(value))
        return value


class UrlQuery(Params):
    url: str = Field(pattern=URL, max_length=2000, description="An http(s) URL of a public site")


class BotsQuery(Params):
    type: CrawlerType | None = Field(None, description="search, ai_search, train or user; all when omitted")


class VerifyIpQuery(Params):
    ip: str = Field(min_length=2, max_length=64, description="An IPv4 or IPv6 address (IPv4-mapped IPv6 accepted)")


class SerpQuery(Params):
    title: str = Field(min_length=1, max_length=500)
    description: str = Field("", max_length=2000)
    url: str = Field(pattern=URL, max_length=2000)


class MetaQuery(Params):
    title: str = Field(min_length=1, max_length=500)
    description: str = Field(min_length=1, max_length=2000)
    url: str = Field(pattern=URL, max_length=2000)
    image: str | None = Field(None, pattern=URL, max_length=2000)


class Chapter(LazyModel):
    time: str = Field(pattern=r"^(\d{1,2}:)?\d{1,2}:\d{2}$", description="Start, as MM:SS or H:MM:SS")
    title: str = Field(min_length=1, max_length=200)


class VideoBody(Params):
    chapters: list[Chapter] = Field(default_factory=list, max_length=200)
    duration: int | None = Field(None, ge=1, le=86_400 * 2, description="Length of the video in seconds")
    title: str = Field(max_length=1000, description="The video title (required; may be empty to check only the rest)")
    description: str = Field("", max_length=20_000)
    tags: list[str] = Field(default_factory=list, max_length=500)


class SubmitBody(Params):
    host: str = Field(pattern=HOST, max_length=253, description="The site's host name, e.g. www.example.com")
    key: str = Field(pattern=r"^[A-Za-z0-9-]{8,128}$", description="IndexNow key: 8 to 128 of a-z, A-Z, 0-9 and '-'")
    key_location: str | None = Field(
        None, pattern=URL, max_length=2000, description="URL of the key file when not https://{host}/{key}.txt"
    )
    urls: list[str] = Field(
        min_length=1, max_length=FREE_SUBMIT_LIMIT, description=f"At most {FREE_SUBMIT_LIMIT} URLs on host"
    )


class BulkSubmitBody(SubmitBody):
    urls: list[str] = Field(
        min_length=1, max_length=PAID_SUBMIT_LIMIT, description=f"At most {PAID_SUBMIT_LIMIT} URLs on host"
    )


class NoParams(Params):
    pass


# --- results -----------------------------------------------------------------------------------


class EngineUrl(LazyModel):
    engine: str
    url: str
    time_filter: dict[str, str] | None


class SearchUrls(LazyModel):
    query: str
    urls: list[EngineUrl]
    note: str
    source: list[Source]


class EngineOperators(
    RecordAnswer, record=Engine, exclude=("id", "search_url", "query_param", "time_filters", "submit")
):
    engine: str


class Operators(LazyModel):
    engines: list[EngineOperators]


class CrawlerCheck(LazyModel):
    token: str
    type: str
    allowed: bool
    reason: str


class Generated(LazyModel):
    mode: str
    meaning: str
    robots_txt: str
    blocked: list[str]
    not_honouring: list[str] = Field(
        description="Blocked crawlers whose operators (or the list) say they do not honour robots.txt: "
        "block them at the server as well"
    )
    check: list[CrawlerCheck] = Field(
        description="The generated file run back through the tester, for each crawler of the list"
    )
    note: str
    sources: list[Source] = Field(description="Where the crawler list comes from, with the day each was checked")


class RuleOut(LazyModel):
    kind: str
    pattern: str
    line: int


class GroupOut(LazyModel):
    agents: list[str]
    line: int
    kind: Literal["specific", "global", "none"]


class FindingOut(LazyModel):
    line: int
    severity: str
    message: str


class RobotsTest(LazyModel):
    allowed: bool
    user_agent: str
    path: str = Field(description="The path as matched (percent-encoded, no fragment)")
    group: GroupOut | None
    rule: RuleOut | None
    reason: str
    token_valid: bool = Field(
        description="user_agent was given as a bare product token (letters, '_' and '-') as RFC 9309 2.2.1 expects; "
        "false when a /version was dropped (user_agent then shows the token matched)"
    )
    findings: list[FindingOut]
    differences_from_google: list[str]


# The crawler list shows each crawler's provenance flat (source, source_title, checked, licence,
# sample), as it always has: its answer extends the record rather than nesting a Source, and is
# listed with the answers derived from records (tests/platform/test_record_tables.py).
class CrawlerOut(Crawler):
    verify_by_ip: bool = Field(
        description="Whether verify-ip can confirm this crawler (it fetches and has a published range file)"
    )
    verify_by_dns: bool = Field(
        description="Whether verify-ip can confirm it by forward-confirmed reverse DNS (its operator documents the domains)"
    )


ANSWERS.append((Crawler, CrawlerOut, frozenset()))


class Bots(LazyModel):
    count: int
    types: dict[str, str]
    crawlers: list[CrawlerOut]


class RangeMatch(RecordAnswer, record=IpRangeFile, exclude=("id", "prefixes")):
    file: str
    prefix: str


class DnsCheck(LazyModel):
    enabled: bool
    hostname: str | None = Field(None, description="The reverse DNS (PTR) name of the address")
    forward_addresses: list[str] = Field(default_factory=list, description="What that name resolves to")
    forward_confirmed: bool | None = Field(None, description="Whether the name resolves back to the address")
    operator_suffix: str | None = Field(None, description="The operator's documented domain the name lies in")
    crawlers: list[str] = Field(default_factory=list, description="Crawlers confirmed by DNS")
    verified: bool = Field(False, description="Name in an operator's domain and forward-confirmed")
    note: str


class VerifyIp(LazyModel):
    ip: str
    known_crawler: bool = Field(description="In a published range, or confirmed by reverse-and-forward DNS")
    crawlers: list[str] = Field(description="Crawler tokens the address belongs to, by either method")
    matches: list[RangeMatch]
    dns: DnsCheck
    files_consulted: list[Source]
    sample: bool
    note: str


class Truncated(LazyModel):
    text: str
    shown: str
    truncated: bool
    width_px: float
    limit_px: int


class SerpPreview(LazyModel):
    title: Truncated
    description: Truncated
    display_url: str
    method: str


class MetaTags(LazyModel):
    html: str
    tags: list[dict[str, str]]
    notes: list[str]


class VideoFindingOut(LazyModel):
    rule: str
    text: str
    ok: bool
    detail: str
    source: Source = Field(description="The published page the rule comes from")


class VideoCheck(LazyModel):
    ok: bool
    findings: list[VideoFindingOut]
    source: Source = Field(description="YouTube Help: Video chapters (the field limits cite their own page)")


class InstantKey(LazyModel):
    key: str
    key_file: str = Field(description="Where to put the key file, relative to the site root")
    content: str
    steps: list[str]
    source: Source


class SubmitResult(LazyModel):
    endpoint: str
    host: str
    submitted: int
    batches: list[dict[str, Any]]
    meaning: str
    source: Source


class Share(RecordAnswer, record=MarketShare):
    pass


class ShareData(LazyModel):
    regions: list[Share]
    sample: bool
    missing: list[str] = Field(description="Regions the spec asks for that no sourced figure is held for")
    note: str


class GuideEntry(RecordAnswer, record=Engine, exclude=("id", "search_url", "query_param", "time_filters", "operators")):
    engine: str


class SubmitGuideOut(LazyModel):
    engines: list[GuideEntry]
    instantindex: str


class RobotsStatus(LazyModel):
    url: str
    http_status: int | None
    status: RobotsState
    meaning: str
    findings: list[FindingOut]
    sitemaps: list[str]


class SitemapStatus(LazyModel):
    url: str
    declared: bool
    http_status: int | None
    looks_like_sitemap: bool
    note: str | None = Field(
        None, description="Why there is no answer (no answer in time, refused), when there is none"
    )


class LlmsStatus(LazyModel):
    url: str
    http_status: int | None
    present: bool
    findings: list[dict[str, Any]]
    note: str | None = Field(
        None, description="Why there is no answer (no answer in time, refused), when there is none"
    )


class Fix(LazyModel):
    impact: Literal["critical", "high", "medium", "low"]
    what: str


class SiteCheck(LazyModel):
    url: str
    checked_on: date
    robots: RobotsStatus
    sitemaps: list[SitemapStatus]
    llms_txt: LlmsStatus
    crawlers: list[CrawlerCheck]
    fixes: list[Fix]


class AuditItemOut(LazyModel):
    item: str
    weight: int
    score: float
    detail: str
    fix: str | None


class Audit(LazyModel):
    url: str
    final_url: str
    http_status: int
    score: int
    weights: dict[str, int]
    items: list[AuditItemOut]
    fixes: list[str]
    sources: list[Source] = Field(description="The published rules the items rest on, with the day each was checked")
