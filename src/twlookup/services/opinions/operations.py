"""The opinions service's operations: thin adapters from parameters to logic and results."""

from __future__ import annotations

from datetime import UTC, date, datetime

from twlookup.platform.errors import NotFound
from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import today_taipei
from twlookup.platform.service import Service
from twlookup.services.opinions.data import STORE, Store
from twlookup.services.opinions.feeds import FEEDS
from twlookup.services.opinions.logic import aicheck, credibility
from twlookup.services.opinions.parsers import live
from twlookup.services.opinions.records import SITE_LICENCE, Post, Thread
from twlookup.services.opinions.schemas import (
    AI_NOTE,
    AiCheckBody,
    AiCheckBrief,
    AiCheckResult,
    Credibility,
    Digest,
    DigestQuery,
    ErrorRate,
    Export,
    ExportPost,
    Item,
    OpinionsQuery,
    OpinionsResult,
    Part,
    PhraseMatch,
    PostList,
    PostOut,
    PostQuery,
    PostsQuery,
    SearchQuery,
    TopicBrief,
    TopicList,
    TopicOut,
    TopicQuery,
)
from twlookup.services.opinions.tables import PostRow

SERVICE = Service(
    name="opinions",
    title="Human-written product opinions",
    description=(
        "Real discussions from Hacker News, Stack Exchange, GitHub issue threads, V2EX and, once imported, the "
        "Taiwan forums PTT and Dcard (title, the author's handle and own words where imported, a summary written "
        "here, link, score where shown, licence) and Taiwan posts received from their authors (CC BY 4.0), each with a credibility value built "
        "by a stated rule, plus a transparent AI-text check. Nothing here is written by the site and passed off "
        "as someone's opinion."
    ),
    network="testnet",
)
for _feed in FEEDS:  # file feeds: editors' search answers and authors' posts (twlookup ingest)
    SERVICE.feed(_feed)
add_status_route(SERVICE)

RULE = (
    "community 0.35 x min(1, log10(1+score)/3) + replies 0.25 x min(1, log10(1+comments)/2.5) + specificity "
    "0.15 x min(1, details/5) + disclosure 0.15 (0 when the post declares sponsorship) + ai_check 0.10/0.05/0 "
    "(likely-human, uncertain, likely-ai); the last three on the post's own text only; no part depends on age; "
    "high >= 0.60, medium >= 0.35"
)
ERROR_RATE = ErrorRate(
    measured_on=aicheck.CALIBRATION,
    human_texts=aicheck.CALIBRATION_HUMAN,
    ai_texts=aicheck.CALIBRATION_AI,
    false_positive_rate=round(aicheck.FALSE_POSITIVES / aicheck.CALIBRATION_HUMAN, 4),
    human_uncertain_rate=round(aicheck.HUMAN_UNCERTAIN / aicheck.CALIBRATION_HUMAN, 4),
    false_negative_rate=round(aicheck.FALSE_NEGATIVES / aicheck.CALIBRATION_AI, 4),
    in_sample=True,
    limits=list(aicheck.LIMITS),
)
EMPTY = "No discussion or post is stored for this yet. The site does not fill topics with opinions it wrote itself."


def _cred(score: int | None, comments: int | None, own_text: str | None, missing: str = "site post") -> Credibility:
    value, label, parts = credibility.credibility(score, comments, own_text, missing)
    return Credibility(
        value=value,
        label=label,
        rule=RULE,
        parts=[Part(name=p.name, points=p.points, max_points=p.max_points, why=p.why) for p in parts],
    )


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def thread_item(t: Thread, today: date) -> Item:
    return as_answer(
        t,
        Item,
        kind="discussion",
        summary_by="this site (not the community)" if t.summary else "not yet summarised; read the thread at the link",
        link=t.url,
        date=_utc(t.created),
        community=f"{t.community} ({t.site})" if t.community in ("stackexchange", "github") else t.community,
        licence=t.licence or "",
        credibility=_cred(t.score, t.comments, t.quote, missing="not shown in the copy read"),
    )


def post_item(p: Post, today: date) -> Item:
    """A post in the discussions' shape (the fields Item takes from Thread given by name)."""
    return Item.model_validate(
        {
            "kind": "taiwan-post",
            "id": str(p.id),
            "title": p.title,
            "summary": p.body[:140],
            "summary_by": f"the author, {p.author}",
            "link": f"/api/posts/{p.id}",
            "date": datetime(p.published.year, p.published.month, p.published.day, tzinfo=UTC),
            "community": "twlookup (Taiwan)",
            "score": None,
            "comments": None,
            "stance": p.stance,
            "topics": [p.topic],
            "licence": p.licence,
            "credibility": _cred(None, None, p.body),
            "source": p.page.source_ref,
        }
    )


def post_out(p: Post, today: date) -> PostOut:
    check = aicheck.check(p.body)
    return as_answer(
        p,
        PostOut,
        attribution=p.attribution,
        ai_check=AiCheckBrief(score=check.score, label=check.label),
        credibility=_cred(None, None, p.body),
    )


def _before_ok(created: date, before: int | None) -> bool:
    return not before or created < credibility.AI_CUTOFF_DATE


def _match(store: Store, q: str, before: int | None, today: date, posts: bool) -> list[Item]:
    items: list[Item] = []
    seen: set[str] = set()
    topic_hits = store.topic_index.search(q, limit=3, min_score=0.6)
    topics = {h.key for h in topic_hits}
    for hit in store.index.search(q, limit=50, min_score=0.3):
        kind, _, ident = hit.key.partition(":")
        seen.add(hit.key)
        # (a record imported since the store was read is left out until it is read again)
        if kind == "thread" and (t := store.threads.get(ident)) and _before_ok(t.created.date(), before):
            items.append(thread_item(t, today))
        elif kind == "post" and posts and (p := store.posts.get(int(ident))) and _before_ok(p.published, before):
            items.append(post_item(p, today))
    for t in store.threads.values():  # everything filed under a topic the query names
        if f"thread:{t.id}" not in seen and topics & set(t.topics) and _before_ok(t.created.date(), before):
            items.append(thread_item(t, today))
    if posts:
        for p in store.posts.values():
            if f"post:{p.id}" not in seen and p.topic in topics and _before_ok(p.published, before):
                items.append(post_item(p, today))
    items.sort(key=lambda i: (-i.credibility.value, i.id))
    return items


def _result(q: str, before: int | None, today: date, items: list[Item], note: str | None = None) -> OpinionsResult:
    return OpinionsResult(
        query=q,
        as_of=today,
        before_cutoff=bool(before),
        count=len(items),
        items=items,
        note=note or (None if items else EMPTY),
    )


@SERVICE.operation("GET", "/api/opinions", tool="search_human_opinions", blocking=True)  # the store's index
def opinions(p: OpinionsQuery) -> OpinionsResult:
    """Taiwan posts and foreign discussions about a product or topic, each with its credibility and original link."""
    today = today_taipei()
    return _result(p.q, p.before, today, _match(STORE.get(), p.q, p.before, today, posts=True))


@SERVICE.operation("GET", "/api/search", blocking=True)
async def search_foreign(p: SearchQuery) -> OpinionsResult:
    """Foreign community discussions only (Hacker News, Stack Exchange): stored threads, plus a live search of
    the two communities when the operator has enabled it (TWLOOKUP_OPINIONS_LIVE=true)."""
    today = today_taipei()
    items = _match(STORE.get(), p.q, p.before, today, posts=False)
    note = None
    if live.enabled():
        known = {i.id for i in items}
        for t in await live.search(p.q, bool(p.before), today):
            if t.id not in known and _before_ok(t.created.date(), p.before):
                items.append(thread_item(t, today))
                known.add(t.id)
        note = "Includes live results from the communities' search APIs (not summarised; stance unrated)."
    return _result(p.q, p.before, today, items, note)


def _brief(store: Store, slug: str) -> TopicBrief:
    return as_answer(
        store.topics[slug],
        TopicBrief,
        discussions=sum(slug in th.topics for th in store.threads.values()),
        posts=sum(po.topic == slug for po in store.posts.values()),
    )


@SERVICE.operation("GET", "/api/topics")
def topics() -> TopicList:
    """The product topics with their counts of discussions and posts (REST only; get_topic_opinions names them)."""
    store = STORE.get()
    return TopicList(count=len(store.topics), topics=[_brief(store, s) for s in sorted(store.topics)])


@SERVICE.operation("GET", "/api/topic/{slug}", tool="get_topic_opinions")
def topic(p: TopicQuery) -> TopicOut:
    """One topic with its discussions and Taiwan posts; says so when it has none."""
    store, today = STORE.get(), today_taipei()
    t = store.topics.get(p.slug)
    if t is None:
        raise NotFound("topic", p.slug, "Topics: " + ", ".join(sorted(store.topics)))
    items = [thread_item(th, today) for th in store.threads.values() if p.slug in th.topics]
    items += [post_item(po, today) for po in store.posts.values() if po.topic == p.slug]
    items.sort(key=lambda i: (-i.credibility.value, i.id))
    return TopicOut(
        topic=_brief(store, p.slug), keywords=list(t.keywords), as_of=today, items=items, note=None if items else EMPTY
    )


@SERVICE.operation("GET", "/api/posts", tool="list_taiwan_posts")
def posts(p: PostsQuery) -> PostList:
    """Taiwan posts received from their authors (CC BY 4.0), optionally one topic's, optionally only those
    declared human-written."""
    store, today = STORE.get(), today_taipei()
    if p.topic is not None and p.topic not in store.topics:
        raise NotFound("topic", p.topic, "Topics: " + ", ".join(sorted(store.topics)))
    chosen = [
        po
        for po in store.posts.values()
        if (p.topic is None or po.topic == p.topic) and (not p.human_only or po.human_written)
    ]
    note = (
        None
        if chosen
        else "No Taiwan post has been received for this yet; the site publishes only posts sent by their authors."
    )
    return PostList(count=len(chosen), posts=[post_out(po, today) for po in chosen], note=note)


@SERVICE.operation("GET", "/api/posts/{id}", tool="get_taiwan_post")
def post(p: PostQuery) -> PostOut:
    """One Taiwan post with its attribution, its AI-text check and credibility."""
    store = STORE.get()
    po = store.posts.get(p.id)
    if po is None:
        raise NotFound("post", str(p.id), "List posts at /api/posts.")
    return post_out(po, today_taipei())


@SERVICE.operation("POST", "/api/ai-check", tool="check_ai_text")
def ai_check(p: AiCheckBody) -> AiCheckResult:
    """Estimate (0 to 1) how likely a text is AI-written, from documented signals: typical phrases (each with its
    weight and source, matched with positions), sentence-length uniformity and repetition, with the check's measured
    error rate and limits. A weak heuristic: a hint, never a verdict."""
    r = aicheck.check(p.text)
    return AiCheckResult(
        score=r.score,
        label=r.label,
        note=AI_NOTE,
        checked_text="the text sent, as sent (for a stored item, check its own text: a post's body or a thread's quote)",
        error_rate=ERROR_RATE,
        signals={
            "phrase_points": r.phrase_points,
            "phrase_signal": r.phrase_signal,
            "uniformity": r.uniformity,
            "sentence_cv": r.sentence_cv,
            "sentences": r.sentences,
            "repetition": r.repetition,
        },
        matches=[PhraseMatch.model_validate(m, from_attributes=True) for m in r.matches],
        method=(aicheck.__doc__ or "").split("\n\n", 1)[1].strip(),
    )


@SERVICE.operation("GET", "/api/pro/digest", price="$0.02", example={"q": "headphones"}, blocking=True)
def digest(p: DigestQuery) -> Digest:
    """Recommend / not-recommend ratio, pros and cons, and the high-credibility discussions, each with its link."""
    store, today = STORE.get(), today_taipei()
    items = _match(store, p.q, p.before, today, posts=True)
    rec, nrec, mixed, share = credibility.ratio([i.stance for i in items])
    pros: list[str] = []
    cons: list[str] = []
    for i in items:
        if i.kind == "discussion":
            t = store.threads[i.id]
            pros += [f"{x} ({i.link})" for x in t.pros]
            cons += [f"{x} ({i.link})" for x in t.cons]
    return Digest(
        query=p.q,
        as_of=today,
        items=len(items),
        recommend=rec,
        not_recommend=nrec,
        mixed=mixed,
        recommend_ratio=share,
        pros=pros,
        cons=cons,
        high_credibility=[i for i in items if i.credibility.label == "high"],
        note=(
            "Stances, pros and cons of discussions are this site's reading of the linked threads; posts' stances are "
            "their authors'."
            if items
            else EMPTY
        ),
    )


@SERVICE.operation("GET", "/api/pro/export", price="$0.05", rests_on=(PostRow,))  # no posts: nothing to sell
def export() -> Export:
    """Every site-written (Taiwan) post with its CC BY 4.0 attribution."""
    store = STORE.get()
    out = [as_answer(po, ExportPost, attribution=po.attribution) for po in store.posts.values()]
    return Export(
        as_of=today_taipei(),
        licence=f"{SITE_LICENCE} (https://creativecommons.org/licenses/by/4.0/)",
        count=len(out),
        posts=out,
    )
