"""The opinions service's feeds, all file feeds (`twlookup ingest`): search answers for queries an
editor chooses, and posts sent by their authors. None is one file a publisher keeps at a fixed
URL, so there is nothing to refresh on a schedule; the service also asks the two communities live."""

from __future__ import annotations

from twlookup.platform.feeds import Feed
from twlookup.services.opinions.data import import_dcard, import_hn, import_posts, import_ptt, import_stackexchange
from twlookup.services.opinions.parsers.foreign import HN_LICENCE
from twlookup.services.opinions.parsers.taiwan import DCARD_LICENCE, PTT_LICENCE

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

FEEDS = (HN, STACKEXCHANGE, PTT, DCARD, POSTS)
