"""The seo service's search tools: search URLs and operators of four engines, market share, how to
submit a site, the SERP preview, meta tags and the video check."""

from __future__ import annotations

from twlookup.platform.operations import NoParams
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import Source
from twlookup.services.seo.data import CATALOG
from twlookup.services.seo.logic import serp, video
from twlookup.services.seo.operations.service import CHECKED, SERVICE
from twlookup.services.seo.schemas import (
    EngineOperators,
    EngineUrl,
    GuideEntry,
    MetaQuery,
    MetaTags,
    Operators,
    OperatorsQuery,
    SearchUrls,
    SearchUrlsQuery,
    SerpPreview,
    SerpQuery,
    Share,
    ShareData,
    SubmitGuideOut,
    Truncated,
    VideoBody,
    VideoCheck,
    VideoFindingOut,
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


@SERVICE.operation("GET", "/api/search-urls", tool="build_search_urls")
def search_urls(p: SearchUrlsQuery) -> SearchUrls:
    """Search URLs for Google, Bing, DuckDuckGo and Yahoo, with site:, filetype: and a time filter."""
    catalog = CATALOG.get()
    query = serp.search_query(p.q, p.site, p.filetype)
    urls = []
    for e in catalog.engines.values():
        tf = e.time_filters.get(p.time) if p.time else None
        urls.append(EngineUrl(engine=e.id, url=serp.search_url(e.search_url, e.query_param, query, tf), time_filter=tf))
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
    return Operators(engines=[as_answer(e, EngineOperators, engine=e.id) for e in chosen])


@SERVICE.operation("GET", "/api/serp-preview", tool="serp_preview")
def serp_preview(p: SerpQuery) -> SerpPreview:
    """How a title and description show in a search result, truncated by rendered width."""

    def cut(text: str, limit: int, font: int) -> Truncated:
        shown, truncated, _width = serp.truncate_px(text, limit, font)
        return Truncated(
            text=text, shown=shown, truncated=truncated, width_px=round(serp.text_px(text, font), 1), limit_px=limit
        )

    return SerpPreview(
        title=cut(p.title, serp.TITLE_PX, serp.TITLE_FONT),
        description=cut(p.description, serp.DESCRIPTION_PX, serp.DESCRIPTION_FONT),
        display_url=serp.display_url(p.url),
        method=(
            "Heuristic: widths per character class of Arial (CJK and full-width characters 1 em, capitals 0.67 em, "
            f"lower case 0.5 em, narrow 0.28 em); title at {serp.TITLE_FONT} px within about {serp.TITLE_PX} px, "
            f"description at {serp.DESCRIPTION_FONT} px within about {serp.DESCRIPTION_PX} px. Search engines publish no limit."
        ),
    )


@SERVICE.operation("GET", "/api/meta-tags", tool="generate_meta_tags")
def meta_tags(p: MetaQuery) -> MetaTags:
    """Escaped <title>, description, canonical, Open Graph and X card tags."""
    tags = serp.meta_tags(p.title, p.description, p.url, p.image)
    notes = []
    if not p.image:
        notes.append("og:image is required by the Open Graph protocol; add image= for a complete card.")
    if serp.text_px(p.title, serp.TITLE_FONT) > serp.TITLE_PX:
        notes.append("The title is wider than about 600 px and will be cut in search results.")
    return MetaTags(
        html=serp.render_head(p.title, tags),
        tags=[{"element": e, "key": k, "value": v} for e, k, v in tags],
        notes=notes,
    )


@SERVICE.operation("POST", "/api/video-check", tool="video_seo_check")
def video_check(p: VideoBody) -> VideoCheck:
    """Chapters, title, description and tags checked against the video platform's published rules."""
    found = video.video_check([(c.time, c.title) for c in p.chapters], p.duration, p.title, p.description, p.tags)
    return VideoCheck(
        ok=all(f.ok for f in found),
        findings=[
            VideoFindingOut(
                rule=f.rule,
                text=video.VIDEO_RULES[f.rule],
                ok=f.ok,
                detail=f.detail,
                source=VIDEO_PAGES[video.VIDEO_RULE_PAGE[f.rule]],
            )
            for f in found
        ],
        source=VIDEO_SOURCE,
    )


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
        regions=[as_answer(s, Share) for s in shares],
        sample=any(s.sample for s in shares),
        missing=missing,
        note=note,
    )


@SERVICE.operation("GET", "/api/submit-guide", tool="search_submit_guide")
def submit_guide(p: NoParams) -> SubmitGuideOut:
    """How to get a site into each of the four engines."""
    engines = CATALOG.get().engines.values()
    return SubmitGuideOut(
        engines=[as_answer(e, GuideEntry, engine=e.id) for e in engines],
        instantindex="Engines taking part in IndexNow share submissions with each other; use /api/instantindex/key and /api/instantindex.",
    )
