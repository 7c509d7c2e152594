"""The cardgame guide's operations (all free): chapters, search, glossary, ban list, FAQ."""

from __future__ import annotations

from collections.abc import Mapping

from twlookup.platform.errors import NotFound, Problem
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import today_taipei
from twlookup.platform.service import Service
from twlookup.services.cardgame import logic
from twlookup.services.cardgame.data import GUIDE
from twlookup.services.cardgame.feeds import BANLIST
from twlookup.services.cardgame.records import CardTerm
from twlookup.services.cardgame.schemas import (
    GAME,
    RIGHTS,
    BanListOut,
    CardOut,
    CardQuery,
    CardStatus,
    Change,
    ChapterBrief,
    ChapterList,
    ChapterOut,
    ChapterQuery,
    FaqOut,
    FaqResult,
    GlossaryQuery,
    GlossaryResult,
    HitKind,
    Reason,
    SearchHit,
    SearchQuery,
    SearchResult,
    TermOut,
)

SERVICE = Service(
    name="cardgame",
    title="Yu-Gi-Oh! beginner's guide (English)",
    description=(
        "An English beginner's guide to the Yu-Gi-Oh! OFFICIAL CARD GAME as played in Taiwan with Asian-English "
        "cards: chapters in Markdown, a glossary, the current Forbidden & Limited list from Konami Asia with its "
        "effective date, and a FAQ. All free."
    ),
)
SERVICE.feed(BANLIST)  # Konami Asia's AE Forbidden & Limited page (twlookup refresh cardgame.banlist)
add_status_route(SERVICE)


def _snippet(text: str, limit: int = 200) -> str:
    flat = " ".join(text.replace("#", " ").split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


@SERVICE.operation("GET", "/api/chapters")
def chapters() -> ChapterList:
    """The chapters in reading order (slug, title, summary). No MCP tool: get_chapter's error lists the slugs."""
    guide = GUIDE.get()
    items = sorted(guide.chapters.values(), key=lambda c: c.order)
    return ChapterList(
        game=GAME,
        count=len(items),
        rights=RIGHTS,
        chapters=[ChapterBrief(slug=c.slug, order=c.order, title=c.title, summary=c.summary) for c in items],
    )


@SERVICE.operation("GET", "/api/chapter/{slug}", tool="get_chapter")
def get_chapter(p: ChapterQuery) -> ChapterOut:
    """One chapter's full text in Markdown, with the previous and next chapter."""
    guide = GUIDE.get()
    order = sorted(guide.chapters.values(), key=lambda c: c.order)
    ch = guide.chapters.get(p.slug)
    if ch is None:
        raise NotFound("chapter", p.slug, "Slugs: " + ", ".join(c.slug for c in order))
    i = order.index(ch)
    return as_answer(
        ch,
        ChapterOut,
        markdown=ch.body,
        previous=order[i - 1].slug if i > 0 else None,
        next=order[i + 1].slug if i + 1 < len(order) else None,
        rights=RIGHTS,
    )


@SERVICE.operation("GET", "/api/search", tool="search_rules", blocking=True)  # the store's search index
def search_rules(p: SearchQuery) -> SearchResult:
    """Full-text search over the chapters (by section), glossary, FAQ and ban-listed card names, best first."""
    guide = GUIDE.get()
    results = []
    for hit in guide.index.search(p.q, limit=p.limit):
        prefix, _, ident = hit.key.partition(":")
        if not _known(guide, prefix, ident):  # re-seeded since the guide was read: left out until it is read again
            continue
        kind: HitKind = "card"
        if prefix == "chapter":
            kind = "chapter"
            slug, _, anchor = ident.partition("#")
            ch = guide.chapters[slug]
            section = next(s for s in logic.sections(ch) if s[0] == anchor)
            title, snippet, link = (
                f"{ch.title}: {section[1]}" if anchor else ch.title,
                _snippet(section[2]),
                f"/api/chapter/{slug}",
            )
        elif prefix == "term":
            kind = "term"
            t = guide.terms[ident]
            title, snippet, link = t.term, _snippet(t.definition), f"/api/glossary?q={t.term}"
        elif prefix == "faq":
            kind = "faq"
            f = guide.faq[ident]
            title, snippet, link = f.question, _snippet(f.answer), "/api/faq"
        else:
            title, snippet, link = ident, "A card on the Forbidden & Limited list", "/api/banlist"
        results.append(
            SearchHit(
                kind=kind,
                id=ident,
                title=title,
                snippet=snippet,
                link=link,
                score=hit.score,
                reasons=[Reason(kind=r.kind, field=r.field, value=r.value, points=r.points) for r in hit.reasons],
            )
        )
    return SearchResult(query=p.q, count=len(results), results=results)


def _known(guide: logic.Guide, kind: str, ident: str) -> bool:
    """Whether the guide holds the record a search hit names (cards are named by the hit itself)."""
    if kind == "chapter":
        slug, _, anchor = ident.partition("#")
        return slug in guide.chapters and any(s[0] == anchor for s in logic.sections(guide.chapters[slug]))
    named: dict[str, Mapping[str, object]] = {"term": guide.terms, "faq": guide.faq}
    return kind == "card" or ident in named.get(kind, {})


def _term_out(guide: logic.Guide, t: CardTerm) -> TermOut:
    return as_answer(t, TermOut, chapter_title=guide.chapters[t.chapter].title)


@SERVICE.operation("GET", "/api/glossary", tool="lookup_term", blocking=True)
def lookup_term(p: GlossaryQuery) -> GlossaryResult:
    """A game term by name or alias (typos tolerated), with the chapter that explains it; all terms without q."""
    guide = GUIDE.get()
    if p.q is None:
        terms = [_term_out(guide, t) for t in sorted(guide.terms.values(), key=lambda t: t.term.lower())]
        return GlossaryResult(query=None, count=len(terms), terms=terms)
    hits = [
        h
        for h in guide.term_index.search(p.q, limit=5, min_score=0.6)
        if _known(guide, "term", h.key.removeprefix("term:"))
    ]
    if not hits:
        close = [h.key.removeprefix("term:") for h in guide.term_index.search(p.q, limit=5)]
        raise NotFound("term", p.q, f"Closest: {', '.join(close)}." if close else "GET /api/glossary lists every term.")
    top = hits[0].score
    terms = [_term_out(guide, guide.terms[h.key.removeprefix("term:")]) for h in hits if h.score >= top - 0.15]
    return GlossaryResult(query=p.q, count=len(terms), terms=terms)


def _in_force(guide: logic.Guide, today):
    current, previous, upcoming = logic.lists_in_force(guide.banlists, today)
    if current is None:
        raise Problem(
            503,
            "No Forbidden & Limited list in the store takes effect on or before today.",
            headers={"Retry-After": "3600"},
        )
    return current, previous, upcoming


def _freshness(current, upcoming, today):
    """(the quarterly date a newer list was due, whether it is overdue, the warning to show)."""
    due = logic.next_expected(current.effective)
    outdated = today >= due and upcoming is None
    warning = (
        f"Konami Asia's AE lists take effect quarterly; a list for {due.isoformat()} was due and is not in this "
        f"store (its newest list is the one effective {current.effective.isoformat()}, read from Konami's page on "
        f"{current.checked.isoformat()}). That list may no longer be in force: check {current.source} before "
        "relying on it."
        if outdated
        else None
    )
    return due, outdated, warning


@SERVICE.operation("GET", "/api/banlist", tool="get_banlist")
def get_banlist() -> BanListOut:
    """The Forbidden & Limited list in force today for Asian-English cards, as Konami Asia published it,
    with its effective date, the previous list's date and what changed."""
    guide, today = GUIDE.get(), today_taipei()
    current, previous, upcoming = _in_force(guide, today)
    due, outdated, warning = _freshness(current, upcoming, today)
    return as_answer(
        current,
        BanListOut,
        game=GAME,
        as_of=today,
        previous_effective=previous.effective if previous else None,
        upcoming_effective=upcoming.effective if upcoming else None,
        next_expected=logic.next_expected(today),
        missing_since=due if outdated else None,
        may_be_outdated=outdated,
        warning=warning,
        counts={
            "forbidden": len(current.forbidden),
            "limited": len(current.limited),
            "semi_limited": len(current.semi_limited),
        },
        changes_from_previous=[Change(card=c, before=b, now=n) for c, b, n in logic.changes(current, previous)]
        if previous
        else [],
        note=(
            f"Konami Asia publishes the AE list for dates from the first of a month; the list above was read from its "
            f"page on {current.checked.isoformat()}. A newer list published since then is not here until "
            "`twlookup ingest cardgame.banlist` loads it: check the source before a tournament."
        ),
        rights=RIGHTS,
    )


def _status(ban, name: str) -> CardStatus:
    copies, kind, card = logic.card_on(ban, name)
    return CardStatus(
        effective=ban.effective,
        status=logic.STATUS[copies],
        copies=copies,
        listed_as=kind,
        also_listed=list(card.also_listed) if card else [],
        remarks=card.remarks if card else None,
    )


@SERVICE.operation("GET", "/api/card", tool="get_card_status", blocking=True)
def get_card_status(p: CardQuery) -> CardOut:
    """One card's status (forbidden, limited, semi-limited or unlimited) under the Forbidden & Limited list in force
    today for Asian-English cards, under the previous list, and across every stored list."""
    guide, today = GUIDE.get(), today_taipei()
    current, previous, upcoming = _in_force(guide, today)
    card = logic.find_card(guide.banlists, p.name)
    if card is None:
        close = [h.key.removeprefix("card:") for h in guide.index.search(p.name, limit=20) if h.key.startswith("card:")]
        raise NotFound(
            "card",
            p.name,
            (f"Closest listed cards: {', '.join(close[:5])}. " if close else "")
            + "No stored list prints this name. A card no list names may be played at 3 copies, but check the "
            "spelling: names are matched as Konami's AE list prints them (English), or in Japanese where the page "
            "prints it; Chinese names are not in Konami's AE data.",
        )
    due, outdated, warning = _freshness(current, upcoming, today)
    return CardOut(
        **card.model_dump(include={"name", "japanese_name", "card_type"}),
        game=GAME,
        format=current.format,
        query=p.name,
        as_of=today,
        in_force=_status(current, card.name),
        previous=_status(previous, card.name) if previous else None,
        upcoming=_status(upcoming, card.name) if upcoming else None,
        history=[_status(b, card.name) for b in sorted(guide.banlists, key=lambda b: b.effective)],
        next_expected=logic.next_expected(today),
        missing_since=due if outdated else None,
        may_be_outdated=outdated,
        warning=warning,
        note=(
            "The list in force is chosen for today from the stored lists' effective dates. Where Konami's page prints "
            "a card on two lists of one month, the entries are merged and the stricter list applies (also_listed "
            "names the other)."
        ),
        source=current.source_ref,
        rights=RIGHTS,
    )


@SERVICE.operation("GET", "/api/faq", tool="get_faq")
def get_faq() -> FaqResult:
    """Beginners' questions, each answered with the chapter (and rule) it rests on."""
    guide = GUIDE.get()
    items = sorted(guide.faq.values(), key=lambda f: (guide.chapters[f.chapter].order, f.id))
    out = [
        as_answer(f, FaqOut, chapter_title=guide.chapters[f.chapter].title, link=f"/api/chapter/{f.chapter}")
        for f in items
    ]
    return FaqResult(count=len(out), faq=out)
