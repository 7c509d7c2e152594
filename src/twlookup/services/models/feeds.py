"""The models service's live feed: Anthropic's Claude lifecycle as endoflife.date keeps it (its
format is read in parsers.py, its records written to the store in data.py)."""

from __future__ import annotations

from datetime import timedelta

from twlookup.platform.feeds import Feed, Part, static_parts
from twlookup.services.models.data import claude_held, claude_holds, import_claude
from twlookup.services.models.parsers import LICENCE, PAGE, claude_stamp

API_URL = "https://endoflife.date/api/v1/products/anthropic-claude/"

CLAUDE = Feed(
    service="models",
    name="claude",
    title="Anthropic Claude model lifecycle (endoflife.date API v1)",
    publisher="endoflife.date (community catalogue; reads Anthropic's model-deprecations page)",
    format="JSON {result: {releases: [{name, label, eoasFrom, eolFrom, custom.recommendedReplacement}]}}",
    licence=LICENCE,
    page=PAGE,
    changes="when Anthropic deprecates or releases a model (endoflife.date's automation reads its page)",
    importer=import_claude,
    stamp=claude_stamp,
    parts=static_parts(Part("claude", API_URL, "endoflife-anthropic-claude.json")),
    urls=(API_URL,),
    every=timedelta(days=1),
    stale_after=timedelta(days=14),
    stale_by="check",
    held=claude_held,
    holds=claude_holds,
    default_part="claude",
    ingest_hint="FILE  (a saved endoflife.date /api/v1/products/anthropic-claude/ document)",
)
