"""Example inputs of the sports service for the whole-app e2e tests (see tests/service_examples.py)."""

import respx
import wikimedia_fixtures as wm

from twlookup.domain import knowledge_base
from twlookup.services.sports.operations import DOMAIN

TOOL_ARGS = {
    "get_sports_event": {"q": "cpbl-2026-season"},
    "sports_calendar": {"month": "2026-07"},
    "whats_on": {"date": "2026-07-15", "days": 7},
    "taiwan_broadcast": {"q": "cpbl-2026-season"},
    "event_countdown": {"q": "cpbl-2026-season"},
    "lookup_any_sports_event": {"q": "Tour de France"},
}
PRO_CALLS = {
    "/api/pro/watchlist": {"json": {"ids": ["cpbl-2026-season", "Tour de France"]}},
    "/api/pro/export": {},
}
UPSTREAM_PATHS = {"/api/lookup", "/api/pro/watchlist"}

FOUND = {
    "tourdefrance": wm.generic_item(
        "Q33881", "Tour de France", "annual men's multiple-stage bicycle race", "Q13406554"
    ),
}


async def PREPARE() -> None:
    """Cache the knowledge base's answers for the example inputs (no network in tests)."""
    from twlookup.services.sports.data import CATALOGUE

    names = [CATALOGUE.get().items["cpbl-2026-season"].name, "Tour de France"]
    with respx.mock(assert_all_called=False) as router:
        wm.mock_any_lookup(
            router,
            {
                **FOUND,
                "".join(c for c in names[0].casefold() if c.isalnum()): wm.generic_item(
                    "Q1", names[0], "baseball season", "Q27020041"
                ),
            },
        )
        for q in names:
            await knowledge_base.lookup(q, DOMAIN)
