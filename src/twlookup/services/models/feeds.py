"""The models service's live feed: Anthropic's Claude lifecycle as endoflife.date keeps it (its
format is read in parsers.py, its records written to the store in data.py)."""

from __future__ import annotations

from twlookup.platform.feeds import declared_feed
from twlookup.services.models.data import claude_held, claude_holds, import_claude
from twlookup.services.models.parsers import claude_stamp

CLAUDE = declared_feed(
    "models", "claude", importer=import_claude, stamp=claude_stamp, held=claude_held, holds=claude_holds
)
