"""Seeding the opinions tables, the importers (HN, Stack Exchange, site posts) and the cached store."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.domain import search
from twlookup.platform.feeds import Part, PartsContext, Stamp
from twlookup.platform.records import DataFileError, load_records, read_data_file, to_row, validate_records
from twlookup.platform.schemas import today_taipei
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.opinions.parsers import foreign, mobile01, taiwan
from twlookup.services.opinions.records import Post, Thread, Topic
from twlookup.services.opinions.tables import PostRow, ThreadRow, TopicRow


def read_topics(data_dir: Path) -> list[Topic]:
    return load_records(data_dir / "opinions" / "topics.yaml", Topic, "topics", label="slug")


def seed_opinions(session: Session, data_dir: Path) -> int:
    """Topics are replaced by the file; the checked threads are upserted (threads and posts loaded by
    importers are kept: a re-seed never deletes what authors sent or what an import brought in)."""
    topics = read_topics(data_dir)
    slugs = {t.slug for t in topics}
    threads = load_records(data_dir / "opinions" / "threads.yaml", Thread, "threads")
    posts = load_records(data_dir / "opinions" / "posts.yaml", Post, "posts")
    named = [(t.id, t.topics) for t in threads] + [(p.id, [p.topic]) for p in posts]
    for ident, wanted in named:
        if not set(wanted) <= slugs:
            raise DataFileError(f"opinions: record {ident!r} names unknown topics {sorted(set(wanted) - slugs)}")
    n = replace_rows(session, TopicRow, [to_row(t, TopicRow) for t in topics])
    for row in [*(to_row(t, ThreadRow) for t in threads), *(to_row(p, PostRow) for p in posts)]:
        session.merge(row)
    session.flush()
    return n + len(threads) + len(posts)


def _topics(session: Session) -> list[Topic]:
    return [Topic.model_validate(r) for r in session.scalars(select(TopicRow))]


def assign_topics(thread: Thread, topics: list[Topic]) -> Thread:
    """Topics whose keywords occur in the title (normalised: case, width, script)."""
    title = search.normalise(thread.title)
    found = [t.slug for t in topics if any(search.normalise(k) in title for k in t.keywords)]
    return thread.model_copy(update={"topics": sorted(set(thread.topics) | set(found))})


def _store_threads(session: Session, threads: list[Thread]) -> int:
    topics = _topics(session)
    for thread in threads:
        existing = session.get(ThreadRow, thread.id)
        keep = Thread.model_validate(existing) if existing else None
        update = assign_topics(thread, topics)
        if keep is not None:  # keep what the site wrote about the thread; refresh the counts
            update = update.model_copy(
                update={
                    "summary": keep.summary,
                    "stance": keep.stance,
                    "pros": keep.pros,
                    "cons": keep.cons,
                    "topics": sorted(set(keep.topics) | set(update.topics)),
                }
            )
        session.merge(to_row(update, ThreadRow))
    session.flush()
    return len(threads)


def import_hn(session: Session, path: Path) -> int:
    """`twlookup ingest opinions.hn FILE`: a Hacker News Algolia search response (JSON)."""
    return _store_threads(session, foreign.parse_hn(path.read_bytes(), today_taipei()))


def import_stackexchange(session: Session, path: Path) -> int:
    """`twlookup ingest opinions.stackexchange FILE`: a Stack Exchange API 2.3 search response (JSON)."""
    return _store_threads(session, foreign.parse_se(path.read_bytes(), today_taipei()))


def import_ptt(session: Session, path: Path) -> int:
    """`twlookup ingest opinions.ptt FILE`: one PTT article page as saved from www.ptt.cc (HTML)."""
    return _store_threads(session, [taiwan.parse_ptt(path.read_bytes(), today_taipei())])


def import_dcard(session: Session, path: Path) -> int:
    """`twlookup ingest opinions.dcard FILE`: Dcard's public JSON for one post or a forum's post list."""
    return _store_threads(session, taiwan.parse_dcard(path.read_bytes(), today_taipei()))


def import_mobile01(session: Session, path: Path) -> int:
    """`twlookup ingest opinions.mobile01 FILE`: a Mobile01 topic's first page as saved from
    www.mobile01.com (HTML), named mobile01-<f>-<t>.html after its address topicdetail.php?f=<f>&t=<t>."""
    return _store_threads(session, [mobile01.parse_mobile01(path.read_bytes(), today_taipei(), path.name)])


def import_posts(session: Session, path: Path) -> int:
    """`twlookup ingest opinions.posts FILE`: posts received from their authors (YAML or JSON with a
    `posts` list: id, topic, author, title, body, products, stance, human_written as declared by the
    author, published). This operator command is how the site publishes posts until the review
    workflow's editor route exists."""
    doc = read_data_file(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("posts"), list):
        raise ValueError(f"{path}: expected a mapping with a list under 'posts'")
    try:
        posts = validate_records(path, doc["posts"], Post)
    except DataFileError as exc:
        raise ValueError(str(exc)) from None
    slugs = {t.slug for t in _topics(session)}
    for p in posts:
        if p.topic not in slugs:
            raise ValueError(f"{path}: post {p.id}: unknown topic {p.topic!r}; topics: {', '.join(sorted(slugs))}")
        if p.published > today_taipei():
            raise ValueError(f"{path}: post {p.id}: published {p.published} is in the future")
        session.merge(to_row(p, PostRow))
    session.flush()
    return len(posts)


TOPICS = "opinions:topic"
COLLECTIONS = ("opinions:thread", "opinions:post")  # what a query searches (its topics apart)


class Store:
    def __init__(
        self,
        topics: list[Topic],
        threads: list[Thread],
        posts: list[Post],
        searchers: tuple[search.Searcher, search.Searcher] | None = None,
    ) -> None:
        """`searchers` (threads and posts, topics): the store's index; given none, the records are
        indexed in memory."""
        self.topics = {t.slug: t for t in topics}
        self.threads = {t.id: t for t in threads}
        self.posts = {p.id: p for p in posts}
        if searchers is None:
            docs = documents(self)
            searchers = search.Index([d for c in COLLECTIONS for d in docs[c]]), search.Index(docs[TOPICS])
        self.index, self.topic_index = searchers


def documents(store: Store) -> dict[str, list[search.Document]]:
    """The search collections: threads, posts (imported ones included) and topics."""
    return {
        "opinions:thread": [
            search.Document(f"thread:{t.id}", {"title": [t.title]}, f"{t.summary or ''} {' '.join(t.topics)}")
            for t in store.threads.values()
        ],
        "opinions:post": [
            search.Document(f"post:{p.id}", {"title": [p.title], "product": list(p.products)}, f"{p.body} {p.topic}")
            for p in store.posts.values()
        ],
        TOPICS: [
            search.Document(t.slug, {"name": [t.name, t.name_zh, t.slug], "keyword": list(t.keywords)}, t.description)
            for t in store.topics.values()
        ],
    }


def _records(session: Session) -> tuple[list[Topic], list[Thread], list[Post]]:
    return (
        _topics(session),
        [Thread.model_validate(r) for r in session.scalars(select(ThreadRow))],
        [Post.model_validate(r) for r in session.scalars(select(PostRow).order_by(PostRow.id))],
    )


def _load(session: Session) -> Store:
    return Store(*_records(session), searchers=(search.Stored(*COLLECTIONS), search.Stored(TOPICS)))


@search.indexed
def search_documents(session: Session) -> dict[str, list[search.Document]]:
    """The search collections, as a seed or an import writes them into the store."""
    return documents(_load(session))


STORE: Reference[Store] = Reference(_load)


MAX_MOBILE01_TOPICS = 200  # topics read again per refresh, the least recently checked first
_MOBILE01 = ThreadRow.community == "mobile01"


def mobile01_parts(ctx: PartsContext) -> list[Part]:
    """One part per stored Mobile01 topic: its first page, saved under the name the importer reads."""
    idents: list[str] = list(
        ctx.session.scalars(
            select(ThreadRow.id).where(_MOBILE01).order_by(ThreadRow.checked, ThreadRow.id).limit(MAX_MOBILE01_TOPICS)
        )
    )
    parts = []
    for ident in idents:
        _, forum, topic = ident.split(":")
        f, t = int(forum), int(topic)
        parts.append(Part(f"{f}-{t}", mobile01.topic_url(f, t), mobile01.saved_name(f, t)))
    return parts


def mobile01_held(session: Session) -> date | None:
    """The newest day a stored Mobile01 topic was read from its page."""
    return session.scalar(select(func.max(ThreadRow.checked)).where(_MOBILE01))


def mobile01_holds(session: Session) -> str | None:
    total = session.scalar(select(func.count()).select_from(ThreadRow).where(_MOBILE01)) or 0
    if not total:
        return "no Mobile01 topic yet (import a saved topic page with `twlookup ingest opinions.mobile01 FILE`)"
    oldest = session.scalar(select(func.min(ThreadRow.checked)).where(_MOBILE01))
    word = "topic" if total == 1 else "topics"
    return f"{total} Mobile01 {word}, read from their pages between {oldest} and {mobile01_held(session)}"


def mobile01_stamp(raw: bytes, filename: str) -> Stamp:
    """One part per topic, whether the page came by ingest or refresh; pages carry no order to keep."""
    return Stamp(part=mobile01.topic_part(raw, filename))


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_opinions,)
