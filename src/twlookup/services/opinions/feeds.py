"""The opinions service's feeds, all file feeds (`twlookup ingest`): search answers for queries an
editor chooses, and posts sent by their authors. None is one file a publisher keeps at a fixed
URL. Mobile01 topics, once imported, are read again from their pages (`twlookup refresh
opinions.mobile01`, weekly) for their reply counts. The service also asks the two communities live.

What each feed states (publisher, format, the licence its parser gives the records, why it is a
file feed only) is in data/opinions/feeds.toml; a feed here adds its importer, and mobile01 how it
is refreshed."""

from __future__ import annotations

from twlookup.platform.feeds import declared_feed
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

HN = declared_feed("opinions", "hn", importer=import_hn)
STACKEXCHANGE = declared_feed("opinions", "stackexchange", importer=import_stackexchange)
PTT = declared_feed("opinions", "ptt", importer=import_ptt)
DCARD = declared_feed("opinions", "dcard", importer=import_dcard)
POSTS = declared_feed("opinions", "posts", importer=import_posts)
MOBILE01 = declared_feed(
    "opinions",
    "mobile01",
    importer=import_mobile01,
    stamp=mobile01_stamp,
    parts=mobile01_parts,
    held=mobile01_held,
    holds=mobile01_holds,
)

FEEDS = (HN, STACKEXCHANGE, PTT, DCARD, MOBILE01, POSTS)
