"""create_app(): every implemented service under /<name>, optional host routing, index, health."""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy.orm import configure_mappers

from twlookup import __version__
from twlookup.platform import clock, pages, privacy
from twlookup.platform.errors import method_not_allowed, no_route
from twlookup.platform.feeds.status import FeedsStatus, StatusCache
from twlookup.platform.health import Health
from twlookup.platform.http import head_as_get, header
from twlookup.platform.listing import ServiceListing
from twlookup.platform.operations import Operation
from twlookup.platform.payments.facilitators import make_facilitator
from twlookup.platform.payments.pass_shop import PassShop
from twlookup.platform.payments.passes import PassBook
from twlookup.platform.public_origin import PublicOrigin
from twlookup.platform.ratelimit import ClientIP, Counter, RateLimit
from twlookup.platform.service import Service
from twlookup.platform.service_app import build_service_app
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.reference import Reference
from twlookup.platform.subapp import SubappOnDemand, problem_response
from twlookup.services import CATALOG, load_services
from twlookup.settings import Settings, get_settings
from twlookup.startup import app_built, pause_gc, resume_gc

log = logging.getLogger("twlookup")


class TwlookupApp:
    """Pure-ASGI dispatcher: host name or first path segment picks the service sub-app.

    A configured host name (`TWLOOKUP_HOST_<NAME>`) serves that service at the root of the host;
    otherwise `/<name>/...` reaches it with `root_path` `/<name>`; anything else goes to the root
    FastAPI app (index, /healthz). This is Starlette's `Host` + `Mount` written as one dictionary
    lookup per request, which keeps routing off the hot path's profile. Lifespan events start
    and stop the root FastAPI app and every service's (its `Service.lifespan`), given as `subapps`.
    """

    def __init__(
        self, root: Any, services: dict[str, Any], hosts: dict[bytes, Any], subapps: list[FastAPI] | None = None
    ) -> None:
        self.root = root
        self.services = services
        self.hosts = hosts
        self.subapps = subapps or []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1003})
                return
            if scope["type"] == "lifespan":
                await self.lifespan(receive, send)
                return
            await self.root(scope, receive, send)
            return
        if self.hosts:
            host = header(scope, b"host")
            app = self.hosts.get(host.split(b":")[0].lower()) if host else None
            if app is not None:
                await app(scope, receive, send)
                return
        path: str = scope["path"]
        end = path.find("/", 1)
        name = path[1:] if end < 0 else path[1:end]
        app = self.services.get(name)
        if app is None:
            await self.root(scope, receive, send)
            return
        rest = "/" if end < 0 else path[end:]
        scope = dict(scope, path=rest, root_path=scope.get("root_path", "") + "/" + name)
        await app(scope, receive, send)

    async def lifespan(self, receive: Any, send: Any) -> None:
        """Enter every FastAPI app's lifespan on startup and leave them, in reverse, on shutdown."""
        async with AsyncExitStack() as stack:
            await receive()  # lifespan.startup
            try:
                for app in self.subapps:
                    await stack.enter_async_context(app.router.lifespan_context(app))
            except Exception as exc:
                log.exception("startup failed")
                await send({"type": "lifespan.startup.failed", "message": f"{type(exc).__name__}: {exc}"})
                return
            # Reference data is not loaded here: the first request to a service builds that
            # service's caches (in a worker thread), so a start loads only what is asked for.
            await send({"type": "lifespan.startup.complete"})
            await receive()  # lifespan.shutdown
        await send({"type": "lifespan.shutdown.complete"})


def serving_app() -> TwlookupApp:
    """`create_app` as `twlookup serve` builds it in its process and in each worker process: with the
    collector paused during the build and what it built frozen after it (twlookup/startup.py)."""
    pause_gc()
    return create_app()


def create_app(settings: Settings | None = None, services: list[Service] | None = None) -> TwlookupApp:
    """The whole app; `services` defaults to every implemented service (tests may pass their own)."""
    settings = settings or get_settings()
    if settings.today is not None:
        clock.set_today(settings.today)
    store_engine.configure(settings.database_url, store_engine.StoreTimeouts.from_settings(settings))
    Operation.timeout_seconds = settings.request_timeout_seconds
    Reference.set_timing(settings.data_check_seconds, settings.store_grace_seconds, settings.store_stall_wait_seconds)
    counter = Counter.from_settings(settings)
    # one facilitator for all services: one ledger, one connection pool; none when payments are off
    facilitator = make_facilitator(settings) if settings.payments_enabled else None
    client_ip = ClientIP(settings.trusted_proxies)
    passes = PassBook(settings.pass_secret, settings.pass_hours)
    listings: dict[str, ServiceListing] = {}
    subapps: dict[str, SubappOnDemand] = {}
    apps: dict[str, Any] = {}
    hosts: dict[bytes, Any] = {}
    services = services if services is not None else load_services()
    public = PublicOrigin.from_settings(settings, client_ip, [s.name for s in services])
    for service in services:
        built = build_service_app(service, settings, counter, client_ip, facilitator, passes, public)
        listings[service.name] = built.listing
        subapps[service.name] = built.subapp
        apps[service.name] = built.asgi
        host = settings.host_for(service.name)
        if host:
            hosts[host.encode()] = built.asgi
    quota_services = [s for s in services if s.free_quota]
    if quota_services and facilitator is not None:  # {pay_url}/pass sells the pass that lifts the quota
        solana = any(s.solana for s in quota_services)
        apps["pay"] = PassShop(
            settings, facilitator, passes, [s.name for s in quota_services], solana=solana, public=public
        )
    private = {name for name, listing in listings.items() if listing.service.private}
    privacy.install(private, {h.decode() for h, a in hosts.items() if any(apps[n] is a for n in private)})
    for entry in CATALOG:  # the service page shows the Chinese name; the platform does not import the catalogue
        if entry.name in subapps:
            subapps[entry.name].zh_name = entry.zh
    root = _root_app(
        settings, listings, Health(settings, counter, facilitator), StatusCache(settings.data_check_seconds)
    )
    root.state.public_origin = public  # the pages write absolute URLs with it
    limited_root = RateLimit(
        head_as_get(root), "index", settings.rate_limit_default, counter, client_ip
    )  # /, /docs, /healthz
    # the services' FastAPI apps are built on their first request, but those with a lifespan now
    lifespans = [s.app for name, s in subapps.items() if listings[name].service.lifespan is not None]
    app = TwlookupApp(limited_root, apps, hosts, [root, *lifespans])
    # the tables' mappers are set up here, before the collector freezes what the start-up made,
    # not by whichever request first reads the store (about 0.15 s of CPU)
    configure_mappers()
    resume_gc()  # `serve` paused the collector for the start-up (twlookup/startup.py)
    app_built.set()  # `serve`'s background feed refresh waits for this before its first pass
    return app


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


def _root_app(settings: Settings, listings: dict[str, ServiceListing], health: Health, feeds: StatusCache) -> FastAPI:
    root = FastAPI(title="twlookup", version=__version__, docs_url=None, redoc_url=None)
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
                        for r in listing.paid_routes(base)
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
