"""The glossary's operations: thin adapters from parameters to logic and results."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from twlookup.domain import search
from twlookup.platform.errors import InvalidParameter, NotFound
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import Source, today_taipei
from twlookup.platform.service import Service
from twlookup.platform.store.derived import per_value
from twlookup.services.glossary import logic
from twlookup.services.glossary.data import CATALOG, MODELS
from twlookup.services.glossary.logic import model_advice
from twlookup.services.glossary.records import (
    CATEGORY_NAMES,
    USAGE_KINDS,
    Comparison,
    Difference,
    HowTo,
    Term,
    UsageSource,
)
from twlookup.services.glossary.schemas import (
    BatchBody,
    BatchItem,
    BatchResult,
    CitationCheck,
    CitedSourceOut,
    CompareQuery,
    ComparisonOut,
    Export,
    HowToOut,
    HowToQuery,
    IntentOut,
    IntentQuery,
    ModelCheck,
    Reason,
    SearchHit,
    SearchQuery,
    SearchResult,
    TermBrief,
    TermDetail,
    TermList,
    TermOut,
    TermQuery,
    TermsQuery,
    Topic,
    UsageCheck,
    UsageSourceOut,
)

SERVICE = Service(
    name="glossary",
    title="AI glossary (Taiwan Chinese)",
    description=(
        "AI terms in Taiwan Traditional Chinese with English names, aliases and a written definition, "
        "comparisons of concepts, how-tos with runnable code, and search-intent classification. "
        "Every item carries its source and check date. Cross-origin."
    ),
    cors=True,
    network="testnet",
)

LICENCE = "Definitions, comparisons and how-tos written for this service: CC BY 4.0; code: MIT"
INTENT_METHOD = (
    "Rule-based: the first cue found in each ordered rule table decides (shapes: troubleshooting, comparison, "
    "how-to, list, definition; intents: transactional, navigational, commercial, else informational). Intent "
    "classes follow Broder (2002), 'A taxonomy of web search', plus commercial investigation."
)


CHECK_SCOPE = "核對的是出處本身（網址、標題、作者、年份），定義為本站撰寫，並非逐句比對原文。"


def citation_check(url: str, catalog: logic.Catalog) -> CitationCheck:
    """The check of a citation as answers carry it: verified (when, what was seen) or, in words, not."""
    cited = catalog.citation(url)
    if cited is None or cited.verified is None:
        return CitationCheck(
            verified=False,
            verified_on=None,
            evidence=None,
            note="此出處尚未對照存檔副本核對，網址、標題或年份可能有誤，請自行查證。",
        )
    return CitationCheck(
        verified=True,
        verified_on=cited.verified,
        evidence=cited.evidence,
        note=f"已於 {cited.verified.isoformat()} 對照公開資料的存檔副本核對此出處。{CHECK_SCOPE}",
    )


USAGE_KIND_NAMES = {
    "terminology-database": "國家教育研究院樂詞網",
    "government": "臺灣政府文件",
    "institute": "臺灣政府出資的研究機構文件",
    "university": "臺灣大學課程或校方文件",
    "media": "臺灣新聞或科技媒體",
    "community": "臺灣技術社群文章",
    "vendor": "廠商的臺灣繁體中文文件",
}


def usage_source(u: UsageSource) -> UsageSourceOut:
    return UsageSourceOut(url=u.url, title=u.title, checked=u.checked, usage_kind=u.usage_kind, evidence=u.evidence)


def usage_check(t: Term, catalog: logic.Catalog) -> UsageCheck:
    found = sorted(catalog.usage_of(t.name_zh), key=lambda u: USAGE_KINDS.index(u.usage_kind))
    if not found:
        return UsageCheck(
            status=t.taiwan_usage,
            checked=False,
            sources=[],
            note=f"「{t.name_zh}」未找到臺灣政府、學校、媒體或樂詞網的用例（unverified）；這個譯名是本站依臺灣常見寫法選用，請自行查證。",
        )
    return UsageCheck(
        status=t.taiwan_usage,
        checked=True,
        sources=[usage_source(u) for u in found],
        note=f"「{t.name_zh}」見於{USAGE_KIND_NAMES[found[0].usage_kind]}：" + "、".join(u.title for u in found) + "。",
    )


def term_out(t: Term, catalog: logic.Catalog) -> TermOut:
    return as_answer(
        t,
        TermOut,
        category_name=CATEGORY_NAMES[t.category],
        citation=citation_check(t.source, catalog),
        name_zh_usage=usage_check(t, catalog),
    )


def source_of(rec: Term | Comparison | HowTo, catalog: logic.Catalog) -> tuple[Source | None, bool]:
    """A record's source as answers carry it, and whether its citation was verified; a record
    without a source says so (null, not verified) rather than borrowing one."""
    if not rec.source:
        return None, False
    return rec.source_ref, citation_check(rec.source, catalog).verified


def brief(t: Term, catalog: logic.Catalog) -> TermBrief:
    source, verified = source_of(t, catalog)
    return as_answer(t, TermBrief, source=source, citation_verified=verified)


def reasons(hit: search.Hit) -> list[Reason]:
    return [Reason(kind=r.kind, field=r.field, value=r.value, points=r.points) for r in hit.reasons]


def _find(catalog: logic.Catalog, text: str, param: str) -> tuple[Term, search.Hit]:
    found = catalog.find_term(text)
    if found is None:
        close = catalog.suggestions(text)
        raise NotFound(
            "term", text, f"Closest: {', '.join(close)}." if close else "Search at /api/search or list at /api/terms."
        )
    return found


def model_check(a: model_advice.ModelAdvice, today: date) -> ModelCheck:
    m = a.model
    if a.state == "active":
        note = f"{m.id} 目前仍可使用（{today.isoformat()}）。"
    elif a.used_instead:
        when = f"將於 {m.retirement_date.isoformat()} 停用" if a.state == "scheduled" and m.retirement_date else ""
        when = when or (f"已於 {m.retirement_date.isoformat()} 停用" if m.retirement_date else "已被宣告淘汰")
        note = f"{m.provider} 宣布 {m.id} {when}；本答案的程式碼改用 {a.used_instead}。"
    else:
        note = f"{m.provider} 宣布淘汰 {m.id}，但沒有指名仍可用的替代模型；請改用該供應商目前的模型。"
    # written, state and used_instead from the advice, provider and retirement_date from the record
    return ModelCheck.model_validate(
        vars(a)
        | m.model_dump(include={"provider", "retirement_date"})
        | dict(model=m.id, note=note, source=m.source_ref)
    )


def howto_out(h: HowTo, catalog: logic.Catalog) -> HowToOut:
    today = today_taipei()
    advice = model_advice.advise(h, MODELS.get(), today)
    return as_answer(
        h,
        HowToOut,
        terms=[brief(catalog.terms[t], catalog) for t in h.terms],
        code=model_advice.rewrite(list(h.code), advice),
        models=[model_check(a, today) for a in advice],
        citation=citation_check(h.source, catalog),
    )


def comparison_out(c: Comparison, catalog: logic.Catalog) -> ComparisonOut:
    return as_answer(
        c,
        ComparisonOut,
        written=True,
        note=None,
        a=term_out(catalog.terms[c.a], catalog),
        b=term_out(catalog.terms[c.b], catalog),
        citation=citation_check(c.source, catalog),
    )


@SERVICE.operation("GET", "/api/term", tool="explain_term", blocking=True)  # the store's search index
def explain_term(p: TermQuery) -> TermDetail:
    """Full explanation of one term, by id or by a name, alias, English or Simplified Chinese (typos tolerated)."""
    catalog = CATALOG.get()
    if not p.id and not p.q:
        raise InvalidParameter("q", "give id (a term id) or q (a name, alias or English term)")
    if p.id and p.q:
        raise InvalidParameter("q", "give either id or q, not both")
    text = p.id or p.q or ""
    if p.id and p.id not in catalog.terms:
        close = catalog.suggestions(p.id)
        raise NotFound("term", p.id, f"Closest: {', '.join(close)}." if close else "List ids at /api/terms.")
    term, hit = _find(catalog, text, "id" if p.id else "q")
    return TermDetail(
        query=text,
        matched=reasons(hit),
        term=term_out(term, catalog),
        related=[brief(catalog.terms[r], catalog) for r in term.related],
        comparisons=[c.id for c in catalog.comparisons_of(term.id)],
        howtos=[h.id for h in catalog.howtos_of(term.id)],
    )


@SERVICE.operation("GET", "/api/search", tool="search_glossary", blocking=True)
def search_glossary(p: SearchQuery) -> SearchResult:
    """Fuzzy search over terms, comparisons and how-tos, best first, each with the reasons for its score."""
    catalog = CATALOG.get()
    results: list[SearchHit] = []
    for hit in catalog.all_index.search(p.q, limit=p.limit):
        kind, _, ident = hit.key.partition(":")
        by_kind: dict[str, Mapping[str, Term | Comparison | HowTo]] = {
            "term": catalog.terms,
            "comparison": catalog.comparisons,
            "howto": catalog.howtos,
        }
        records = by_kind[kind]
        rec = records.get(ident)
        if rec is None:  # re-seeded since the catalogue was read: left out until it is read again
            continue
        title = f"{rec.name_zh}（{rec.name_en}）" if isinstance(rec, Term) else rec.title
        source, verified = source_of(rec, catalog)
        results.append(
            SearchHit(
                kind=kind,  # type: ignore[arg-type]  # the key's prefix, one of by_kind's keys (looked up above)
                id=ident,
                title=title,
                score=hit.score,
                reasons=reasons(hit),
                source=source,
                citation_verified=verified,
                taiwan_usage=rec.taiwan_usage if isinstance(rec, Term) else None,
            )
        )
    return SearchResult(query=p.q, normalised=search.normalise(p.q), count=len(results), results=results)


@SERVICE.operation("GET", "/api/terms", tool="list_topics")
def list_terms(p: TermsQuery) -> TermList:
    """The topics (categories) with their term counts, and the terms of one category (all without `category`)."""
    return _term_list(CATALOG.get(), p.category)


@per_value
def _term_list(catalog: logic.Catalog, category: str | None) -> TermList:
    """The listing depends on the catalogue alone: built once per category and catalogue."""
    counts: dict[str, int] = {}
    for t in catalog.terms.values():
        counts[t.category] = counts.get(t.category, 0) + 1
    topics = [Topic(category=c, name=n, count=counts.get(c, 0)) for c, n in CATEGORY_NAMES.items()]
    terms = [brief(t, catalog) for t in catalog.terms.values() if category is None or t.category == category]
    return TermList(
        category=category,
        topics=topics,
        count=len(terms),
        terms=terms,
        comparisons=sorted(catalog.comparisons),
        howtos=sorted(catalog.howtos),
    )


@SERVICE.operation("GET", "/api/compare", tool="compare_concepts", blocking=True)
def compare_concepts(p: CompareQuery) -> ComparisonOut:
    """Compare two concepts: a written comparison by id, or by `a` and `b` (any two terms; when nobody wrote
    a comparison of the two, the answer is put together from the two term records and says so)."""
    catalog = CATALOG.get()
    if p.id and (p.a or p.b):
        raise InvalidParameter("id", "give either id, or a and b, not both")
    if not p.id and not (p.a and p.b):
        raise InvalidParameter("b" if p.a else "a", "give id (a comparison id), or both a and b (two concepts)")
    if p.id:
        if p.id not in catalog.comparisons:
            raise NotFound("comparison", p.id, "Ids: " + ", ".join(sorted(catalog.comparisons)))
        return comparison_out(catalog.comparisons[p.id], catalog)
    a, _ = _find(catalog, p.a or "", "a")
    b, _ = _find(catalog, p.b or "", "b")
    if a.id == b.id:
        raise InvalidParameter("b", f"names the same concept as a ({a.id}); give two different concepts")
    written = catalog.comparison_for(a.id, b.id)
    if written:
        return comparison_out(written, catalog)
    # no record behind it: the answer's fields are given here (model_validate, as the fields a
    # RecordAnswer takes from its record are not seen by the type checker)
    return ComparisonOut.model_validate(
        {
            "id": None,
            "written": False,
            "note": "No comparison of these two has been written; this answer sets the two term records side by side.",
            "title": f"{a.name_zh} 與 {b.name_zh}",
            "a": term_out(a, catalog),
            "b": term_out(b, catalog),
            "summary": f"{a.name_zh}（{a.name_en}）屬於「{CATEGORY_NAMES[a.category]}」；{b.name_zh}（{b.name_en}）屬於「{CATEGORY_NAMES[b.category]}」。",
            "differences": [Difference(aspect=k, a=x, b=y) for k, x, y in logic.derived_differences(a, b)],
            "choose_a": None,
            "choose_b": None,
            "source": None,
            "citation": None,
        }
    )


@SERVICE.operation("GET", "/api/howto", tool="get_howto", blocking=True)  # reads MODELS (data.py)
def get_howto(p: HowToQuery) -> HowToOut:
    """An implementation tutorial with code (the service's tests run or compile every code block)."""
    catalog = CATALOG.get()
    h = catalog.howtos.get(p.id)
    if h is None:
        raise NotFound("how-to", p.id, "Ids: " + ", ".join(sorted(catalog.howtos)))
    return howto_out(h, catalog)


@SERVICE.operation("GET", "/api/intent", tool="classify_search_intent", blocking=True)
def classify_search_intent(p: IntentQuery) -> IntentOut:
    """Classify a search query (informational, navigational, commercial, transactional; and its question shape)
    by stated rules, and suggest the answer structure that suits it, with the reasons."""
    r = logic.classify_intent(p.q, CATALOG.get())
    return IntentOut(
        query=p.q,
        intent=r.intent,
        intent_reason=r.intent_reason,
        intent_note=logic.INTENT_NOTES[r.intent],
        shape=r.shape,
        shape_reason=r.shape_reason,
        structure=r.structure,
        terms=r.terms,
        method=INTENT_METHOD,
    )


@SERVICE.operation("POST", "/api/pro/explain-batch", price="$0.02", example={"terms": ["LLM", "RAG"]}, blocking=True)
def explain_batch(p: BatchBody) -> BatchResult:
    """Explain up to 50 terms at once (names, aliases or ids); unknown ones come back with suggestions."""
    catalog = CATALOG.get()
    items = []
    for text in p.terms:
        found = catalog.find_term(text)
        items.append(
            BatchItem(query=text, found=True, term=term_out(found[0], catalog), suggestions=[])
            if found
            else BatchItem(query=text, found=False, term=None, suggestions=catalog.suggestions(text))
        )
    return BatchResult(count=len(items), found=sum(i.found for i in items), results=items)


@SERVICE.operation("GET", "/api/pro/export", price="$0.05", blocking=True)  # reads MODELS (data.py)
def export() -> Export:
    """All terms, comparisons, how-tos and sources as one JSON download."""
    catalog = CATALOG.get()
    sources: dict[str, Source] = {}
    for rec in [*catalog.terms.values(), *catalog.comparisons.values(), *catalog.howtos.values()]:
        sources.setdefault(rec.source, rec.source_ref)
    return Export(
        as_of=today_taipei(),
        licence=LICENCE,
        terms=[term_out(t, catalog) for t in catalog.terms.values()],
        comparisons=[comparison_out(c, catalog) for c in catalog.comparisons.values()],
        howtos=[howto_out(h, catalog) for h in catalog.howtos.values()],
        sources=sorted(sources.values(), key=lambda s: s.url),
        citations=[as_answer(c, CitedSourceOut) for c in sorted(catalog.citations.values(), key=lambda c: c.url)],
        usage_sources=[usage_source(u) for u in catalog.usage],
    )
