"""create_app(): every implemented service under /<name>, optional host routing, index, health."""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import configure_mappers

from twlookup.platform import clock, privacy
from twlookup.platform.feeds.status import StatusCache
from twlookup.platform.health import Health
from twlookup.platform.http import head_as_get, header
from twlookup.platform.listing import ServiceListing
from twlookup.platform.on_demand import OnDemand, SubappOnDemand
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
from twlookup.services import CATALOG, load_services
from twlookup.settings import Settings, get_settings
from twlookup.startup import app_built, pause_gc, resume_gc

if TYPE_CHECKING:
    from fastapi import FastAPI

log = logging.getLogger("twlookup")


class TwlookupApp:
    """Pure-ASGI dispatcher: host name or first path segment picks the service sub-app.

    A configured host name (`TWLOOKUP_HOST_<NAME>`) serves that service at the root of the host;
    otherwise `/<name>/...` reaches it with `root_path` `/<name>`; anything else goes to the root
    FastAPI app (index, /healthz). This is Starlette's `Host` + `Mount` written as one dictionary
    lookup per request, which keeps routing off the hot path's profile. Lifespan events start
    and stop the FastAPI apps of the services with a `Service.lifespan`, given as `subapps`
    (the root's FastAPI app has none, and is built on its first request).
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
    health, feeds = Health(settings, counter, facilitator), StatusCache(settings.data_check_seconds)

    # the root's FastAPI app (/, /docs, /healthz) is built on its first request, as the services' are
    def build_root() -> FastAPI:
        from twlookup.root_app import root_app

        return root_app(settings, listings, health, feeds, public)

    root = OnDemand(build_root)
    limited_root = RateLimit(head_as_get(root), "index", settings.rate_limit_default, counter, client_ip)
    # the services' FastAPI apps are built on their first request, but those with a lifespan now
    lifespans = [s.app for name, s in subapps.items() if listings[name].service.lifespan is not None]
    app = TwlookupApp(limited_root, apps, hosts, lifespans)
    # the tables' mappers are set up here, before the collector freezes what the start-up made,
    # not by whichever request first reads the store (about 0.15 s of CPU)
    configure_mappers()
    resume_gc()  # `serve` paused the collector for the start-up (twlookup/startup.py)
    app_built.set()  # `serve`'s background feed refresh waits for this before its first pass
    return app
