"""Example inputs of the games service for the whole-app e2e tests (see tests/service_examples.py)."""

import respx
import wikimedia_fixtures as wm

from twlookup.domain import knowledge_base
from twlookup.services.games.operations import DOMAIN

TOOL_ARGS = {
    "get_game": {"q": "GTA VI"},
    "release_calendar": {"month": "2026-11"},
    "release_countdown": {"q": "gta-6"},
    "lookup_any_game": {"q": "Grand Theft Auto VI"},
}
PRO_CALLS = {
    "/api/pro/watchlist": {"json": {"ids": ["gta-6", "Tetris"]}},
    "/api/pro/export": {},
}
UPSTREAM_PATHS = {"/api/lookup", "/api/pro/watchlist"}

# What Wikidata answers for the example inputs (catalogue items are searched by their name)
FOUND = {
    "grandtheftautovi": wm.generic_item("Q118121519", "Grand Theft Auto VI", "2026 video game", "Q7889"),
    "tetris": wm.generic_item("Q71910", "Tetris", "1985 puzzle video game", "Q7889"),
}


async def PREPARE() -> None:
    """Cache the knowledge base's answers for the example inputs (no network in tests)."""
    with respx.mock(assert_all_called=False) as router:
        wm.mock_any_lookup(router, FOUND)
        for q in ("Grand Theft Auto VI", "Tetris"):
            await knowledge_base.lookup(q, DOMAIN)
