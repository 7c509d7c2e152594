"""The opinions service's feeds, all file feeds (`twlookup ingest`): search answers for queries an
editor chooses, and posts sent by their authors. None is one file a publisher keeps at a fixed
URL, so there is nothing to refresh on a schedule; the service also asks the two communities live.

Each upstream (publisher, format, licence) is declared beside its parser (`parsers/`); a feed here
adds its name, its importer and why it is a file feed only."""

from __future__ import annotations

from twlookup.domain.upstream import Upstream
from twlookup.services.opinions.data import import_dcard, import_hn, import_posts, import_ptt, import_stackexchange
from twlookup.services.opinions.parsers.foreign import HN_API, SE_API
from twlookup.services.opinions.parsers.taiwan import DCARD_POSTS, PTT_PAGES

SEARCH_ANSWER = "a search answer for a query an editor chooses per topic"
SITE_POSTS = Upstream(
    title="Taiwan posts received from their authors",
    publisher="the posts' authors",
    format="YAML or JSON with a `posts` list",
    licence="CC BY 4.0 (as the authors grant it)",
    page="https://creativecommons.org/licenses/by/4.0/",
    changes="when authors send posts",
)

HN = HN_API.feed("opinions", "hn", import_hn, manual=SEARCH_ANSWER)
STACKEXCHANGE = SE_API.feed("opinions", "stackexchange", import_stackexchange, manual=SEARCH_ANSWER)
PTT = PTT_PAGES.feed(
    "opinions",
    "ptt",
    import_ptt,
    manual="an article page an editor saves, one per review thread chosen per topic",
    ingest_hint="M.1700000000.A.123.html",
)
DCARD = DCARD_POSTS.feed(
    "opinions",
    "dcard",
    import_dcard,
    manual="a post's JSON an editor saves, per review thread chosen per topic",
    ingest_hint="dcard-post.json",
)
POSTS = SITE_POSTS.feed(
    "opinions",
    "posts",
    import_posts,
    manual="posts arrive from their authors, not from a publisher's file",
    ingest_hint="posts.yaml",
)

FEEDS = (HN, STACKEXCHANGE, PTT, DCARD, POSTS)
