"""The operations the release trackers declare alike, declared once: the delay history, the
knowledge-base lookup and the paid watchlist. Each is declared on the tracker's own service, under
its own tool name and with its own words where they differ, as if written in the tracker's
operations module (`module`): it belongs to that service's group, and today is read from that
module's clock (its `today_taipei`, which tests pin)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import date
from typing import Any

from pydantic import BaseModel

from twlookup.domain import release_ops
from twlookup.domain.release_ops import Tracker
from twlookup.domain.release_schemas import Delays, LookupOut, LookupQuery, Watchlist, WatchlistBody
from twlookup.platform.service import Service

WATCHLIST_DOC = """Up to 30 {plural} by id or name: the catalogue record (or none), its countdown and the
Wikidata/Wikipedia supplement. 503, and nothing charged, when the knowledge base cannot be
reached for an entry it has not cached."""
DELAYS_DOC = "Every recorded change of an announced release date, newest announcement first, with sources."


def _today(module: str) -> date:
    today: Callable[[], date] = sys.modules[module].today_taipei
    return today()


def _as_declared(fn: Callable[..., Any], module: str, name: str, doc: str, annotations: dict[str, Any]) -> None:
    fn.__module__, fn.__name__, fn.__qualname__, fn.__doc__ = module, name, name, doc
    fn.__annotations__ = annotations


def declare_delays(service: Service, tracker: Tracker[Any, Any], *, module: str, tool: str) -> None:
    """`/api/delays` (the MCP tool `tool`): every recorded change of an item's announced date."""

    def delays() -> Delays:
        return release_ops.delay_history(tracker.catalogue.get(), _today(module))

    _as_declared(delays, module, tool, DELAYS_DOC, {"return": Delays})
    service.operation("GET", "/api/delays", tool=tool)(delays)


def declare_lookup_and_watchlist(
    service: Service,
    tracker: Tracker[Any, Any],
    answer: type[BaseModel],
    *,
    module: str,
    lookup_tool: str,
    lookup_doc: str,
    plural: str,
    watchlist_example: str,
) -> None:
    """`/api/lookup` (the MCP tool `lookup_tool`, described by `lookup_doc`) and the paid
    `/api/pro/watchlist` of up to 30 `plural`, each entry's item shown as `answer`."""

    async def lookup(p: LookupQuery) -> LookupOut:
        return await tracker.lookup(p.q, _today(module))

    _as_declared(lookup, module, lookup_tool, lookup_doc, {"p": LookupQuery, "return": LookupOut})
    service.operation("GET", "/api/lookup", tool=lookup_tool)(lookup)

    async def pro_watchlist(p: WatchlistBody) -> Watchlist[Any]:
        return await tracker.watchlist(p.ids, _today(module))

    returns = Watchlist[answer]  # type: ignore[valid-type]  # the answer type is the service's, given at run time
    _as_declared(
        pro_watchlist,
        module,
        "pro_watchlist",
        WATCHLIST_DOC.format(plural=plural),
        {"p": WatchlistBody, "return": returns},
    )
    service.operation("POST", "/api/pro/watchlist", price="$0.02", example={"ids": [watchlist_example]})(pro_watchlist)
