"""Example inputs of the movie service for the whole-app e2e tests (see tests/service_examples.py)."""

import respx
import wikimedia_fixtures as wm

from twlookup.domain import knowledge_base
from twlookup.services.movie.operations import DOMAIN

TOOL_ARGS = {
    "get_title": {"q": "avengers-doomsday"},
    "release_calendar": {"month": "2026-12"},
    "release_countdown": {"q": "Avengers: Doomsday"},
    "lookup_any_title": {"q": "Avengers: Doomsday"},
}
PRO_CALLS = {
    "/api/pro/watchlist": {"json": {"ids": ["avengers-doomsday", "Spirited Away"]}},
    "/api/pro/export": {},
}
UPSTREAM_PATHS = {"/api/lookup", "/api/pro/watchlist"}

FOUND = {
    "avengersdoomsday": wm.generic_item("Q105625853", "Avengers: Doomsday", "2026 film", "Q11424"),
    "spiritedaway": wm.generic_item("Q155653", "Spirited Away", "2001 anime film", "Q20650540"),
}


async def PREPARE() -> None:
    """Cache the knowledge base's answers for the example inputs (no network in tests)."""
    with respx.mock(assert_all_called=False) as router:
        wm.mock_any_lookup(router, FOUND)
        for q in ("Avengers: Doomsday", "Spirited Away"):
            await knowledge_base.lookup(q, DOMAIN)
