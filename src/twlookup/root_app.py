"""The root's FastAPI app: the index of the services (`/`, JSON or a page), `/docs` and `/healthz`.

Built on its first request (`platform/on_demand.py`), as the services' FastAPI apps are, so that a
process answering only the services' operations never imports FastAPI.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse

from twlookup import __version__
from twlookup.platform import pages
from twlookup.platform.errors import method_not_allowed, no_route
from twlookup.platform.feeds.status import FeedsStatus, StatusCache
from twlookup.platform.health import Health
from twlookup.platform.listing import ServiceListing
from twlookup.platform.public_origin import PublicOrigin
from twlookup.platform.subapp import problem_response
from twlookup.services import CATALOG
from twlookup.settings import Settings


def _feed_summary(status: FeedsStatus | None) -> list[dict[str, Any]]:
    """What the index says of each feed: enough to see at a glance whether the data is live."""
    if status is None:
        return []
    keys = ("feed", "last_success", "last_attempt", "last_error", "last_error_at", "data_date", "data_age_days")
    return [
        {
            **f.model_dump(mode="json", include=set(keys)),
            "stale": f.stale,
            "failing": f.failing,
            "refreshed": f.refresh is not None,
        }
        for f in status.feeds
    ]


def root_app(
    settings: Settings,
    listings: Mapping[str, ServiceListing],
    health: Health,
    feeds: StatusCache,
    public: PublicOrigin,
) -> FastAPI:
    root = FastAPI(title="twlookup", version=__version__, docs_url=None, redoc_url=None)
    root.state.public_origin = public  # the pages write absolute URLs with it
    pages.install_assets(root)  # Swagger UI and the pages' style, from this origin

    @root.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return pages.docs_page("", "twlookup")

    @root.exception_handler(404)
    async def not_found(request: Request, _exc: Any) -> JSONResponse:
        names = ", ".join(sorted(listings))
        hint = f"services live under /<name>/ ({names}); see / for the list"
        return problem_response(no_route("this server", request.scope["path"], hint))

    @root.exception_handler(405)
    async def not_allowed(request: Request, _exc: Any) -> JSONResponse:
        return problem_response(method_not_allowed(request.scope["path"], ["GET"]))

    @root.get("/", summary="The twenty services, where each lives, and which are available")
    def index(request: Request, response: Response) -> Any:
        response.headers["Vary"] = "Accept"
        by_service = {name: list(s.service.feeds.values()) for name, s in listings.items() if s.service.feeds}
        feed_status = feeds.get(by_service, settings)  # read from the store at most every few seconds
        if pages.wants_html(request):  # a browser: the same list as a page
            return pages.index_html(request, settings, CATALOG, listings, __version__, feed_status)
        services = []
        for entry in CATALOG:
            listing = listings.get(entry.name)
            item: dict[str, Any] = {
                "name": entry.name,
                "subject": entry.subject,
                "state": "available" if listing else "planned",
            }
            if listing:
                base = f"/{entry.name}"
                item.update(
                    base=base,
                    host=settings.host_for(entry.name),
                    docs=f"{base}/docs",
                    openapi=f"{base}/openapi.json",
                    mcp=f"{base}/mcp",
                    tools=len(listing.service.tools),
                    paid_routes=[  # open: for sale right now (switched on, its data real and fresh)
                        {k: r[k] for k in ("method", "path", "price_usd", "open", "not_for_sale") if k in r}
                        for r in listing.paid_routes(base, schemas=False)
                    ],
                )
                if listing.service.feeds:
                    item.update(status=f"{base}/api/status", feeds=_feed_summary(feed_status.get(entry.name)))
            services.append(item)
        return {"name": "twlookup", "version": __version__, "services": services}

    @root.get("/healthz", summary="Whether the store, the rate-limit store and the facilitator answer (within 1 s)")
    async def healthz() -> JSONResponse:
        body, status = await health.report()
        return JSONResponse(body, status_code=status)

    return root
