"""The opinions service's feeds. File feeds (`twlookup ingest`): search answers for queries an
editor chooses, forum pages an editor saves, and posts sent by their authors; none is one file a
publisher keeps at a fixed URL. Mobile01 topics, once imported, are read again from their pages
(`twlookup refresh opinions.mobile01`, weekly) for their reply counts. The service also asks the two
outside communities live."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from twlookup.platform.feeds import Feed, Part, PartsContext, Stamp
from twlookup.services.opinions import feeds_mobile01
from twlookup.services.opinions.data import (
    import_dcard,
    import_hn,
    import_mobile01,
    import_posts,
    import_ptt,
    import_stackexchange,
)
from twlookup.services.opinions.feeds import HN_LICENCE
from twlookup.services.opinions.feeds_tw import DCARD_LICENCE, PTT_LICENCE
from twlookup.services.opinions.tables import ThreadRow

HN = Feed(
    service="opinions",
    name="hn",
    title="Hacker News stories through the Algolia search API",
    publisher="Hacker News (Y Combinator), search by Algolia",
    format="JSON search response {hits: [...]}",
    licence=HN_LICENCE,
    page="https://hn.algolia.com/api",
    changes="continuously",
    importer=import_hn,
    manual="a search answer for a query an editor chooses per topic",
)

STACKEXCHANGE = Feed(
    service="opinions",
    name="stackexchange",
    title="Stack Exchange questions through the API 2.3 search",
    publisher="Stack Exchange",
    format="JSON search response {items: [...]}",
    licence="CC BY-SA (4.0 for posts from 2018-05-02, 3.0 from 2011-04-08, 2.5 before)",
    page="https://api.stackexchange.com/docs",
    changes="continuously",
    importer=import_stackexchange,
    manual="a search answer for a query an editor chooses per topic",
)

POSTS = Feed(
    service="opinions",
    name="posts",
    title="Taiwan posts received from their authors",
    publisher="the posts' authors",
    format="YAML or JSON with a `posts` list",
    licence="CC BY 4.0 (as the authors grant it)",
    page="https://creativecommons.org/licenses/by/4.0/",
    changes="when authors send posts",
    importer=import_posts,
    manual="posts arrive from their authors, not from a publisher's file",
    ingest_hint="posts.yaml",
)

PTT = Feed(
    service="opinions",
    name="ptt",
    title="PTT article pages (Taiwan), one board article per file",
    publisher="PTT (批踢踢實業坊), the articles' authors",
    format="HTML article page (https://www.ptt.cc/bbs/<board>/M.<id>.A.<x>.html), #main-content and push lines",
    licence=PTT_LICENCE,
    page="https://www.ptt.cc/bbs/index.html",
    changes="continuously",
    importer=import_ptt,
    manual="an article page an editor saves, one per review thread chosen per topic",
    ingest_hint="M.1700000000.A.123.html",
)

DCARD = Feed(
    service="opinions",
    name="dcard",
    title="Dcard posts (Taiwan) through its public post API",
    publisher="Dcard, the posts' authors",
    format="JSON post object or list (https://www.dcard.tw/service/api/v2/posts/<id>)",
    licence=DCARD_LICENCE,
    page="https://www.dcard.tw/f",
    changes="continuously",
    importer=import_dcard,
    manual="a post's JSON an editor saves, per review thread chosen per topic",
    ingest_hint="dcard-post.json",
)

MAX_MOBILE01_TOPICS = 200  # topics read again per refresh, the least recently checked first
_MOBILE01 = ThreadRow.community == "mobile01"


def mobile01_parts(ctx: PartsContext) -> list[Part]:
    """One part per stored Mobile01 topic: its first page, saved under the name the importer reads."""
    rows = ctx.session.execute(
        select(ThreadRow.id).where(_MOBILE01).order_by(ThreadRow.checked, ThreadRow.id).limit(MAX_MOBILE01_TOPICS)
    )
    parts = []
    for (ident,) in rows:
        _, forum, topic = ident.split(":")
        f, t = int(forum), int(topic)
        parts.append(Part(f"{f}-{t}", feeds_mobile01.topic_url(f, t), feeds_mobile01.saved_name(f, t)))
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
    return Stamp(part=feeds_mobile01.topic_part(raw, filename))


MOBILE01 = Feed(
    service="opinions",
    name="mobile01",
    title="Mobile01 topic pages (Taiwan), the first page of each topic",
    publisher="Mobile01, the topics' authors",
    format="HTML topic page (https://www.mobile01.com/topicdetail.php?f=<f>&t=<t>): h1.t2 title, "
    "div.l-articlePage floors with the handle, time, floor number and post",
    licence=feeds_mobile01.LICENCE,
    page="https://www.mobile01.com/",
    changes="continuously",
    importer=import_mobile01,
    stamp=mobile01_stamp,
    parts=mobile01_parts,
    urls=("https://www.mobile01.com/topicdetail.php?f=<forum>&t=<topic> (each stored topic)",),
    every=timedelta(days=7),
    stale_after=timedelta(days=30),
    stale_by="check",
    ingest_hint="mobile01-<f>-<t>.html  (a topic's first page, saved under the numbers of its address)",
    held=mobile01_held,
    holds=mobile01_holds,
)

FEEDS = (HN, STACKEXCHANGE, PTT, DCARD, MOBILE01, POSTS)
