"""The seo service's declaration: its name and description, seeder, feeds and feed-status route.
Its operations are declared in the modules beside this one, by subject."""

from __future__ import annotations

from datetime import date

from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.service import Service
from twlookup.services.seo.feeds import AIROBOTS, IPRANGES

SERVICE = Service(
    name="seo",
    title="SEO and crawler tools",
    description=(
        "Search URLs and operators of four engines, robots.txt generation and RFC 9309 testing, site "
        "crawler checks through a safe fetcher, the crawler list with IP verification, SERP preview, "
        "meta tags, video chapter checks and IndexNow (instantindex) submission."
    ),
    network="testnet",
)
SERVICE.feed(IPRANGES)  # the operators' crawler IP-range files (twlookup refresh seo.ipranges)
SERVICE.feed(AIROBOTS)  # ai.robots.txt's AI-crawler list (twlookup refresh seo.airobots)
add_status_route(SERVICE)


# The day the published pages the operations cite at module level (IndexNow, YouTube, RFC 9309) were checked.
CHECKED = date(2026, 11, 23)
