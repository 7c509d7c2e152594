"""The opinions service's feeds, all file feeds (`twlookup ingest`): search answers for queries an
editor chooses, and posts sent by their authors. None is one file a publisher keeps at a fixed
URL. Mobile01 topics, once imported, are read again from their pages (`twlookup refresh
opinions.mobile01`, weekly) for their reply counts. The service also asks the two communities live.

Each upstream (publisher, format, licence) is declared beside its parser (`parsers/`); a feed here
adds its name, its importer and why it is a file feed only."""

from __future__ import annotations

from datetime import timedelta

from twlookup.domain.upstream import Upstream
from twlookup.services.opinions.data import (
    import_dcard,
    import_hn,
    import_mobile01,
    import_posts,
    import_ptt,
    import_stackexchange,
    mobile01_held,
    mobile01_holds,
    mobile01_parts,
    mobile01_stamp,
)
from twlookup.services.opinions.parsers.foreign import HN_API, SE_API
from twlookup.services.opinions.parsers.mobile01 import MOBILE01_PAGES
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

MOBILE01 = MOBILE01_PAGES.feed(
    "opinions",
    "mobile01",
    import_mobile01,
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
