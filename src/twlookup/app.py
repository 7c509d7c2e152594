"""create_app(): every implemented service under /<name>, optional host routing, index, health."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import configure_mappers

from twlookup.platform import clock, privacy
from twlookup.platform.answer_cache import AnswerCache
from twlookup.platform.feeds.status import StatusCache
from twlookup.platform.health import Health
from twlookup.platform.http import head_as_get, header
from twlookup.platform.on_demand import OnDemand
from twlookup.platform.operations import Operation
from twlookup.platform.payments.facilitators import make_facilitator
from twlookup.platform.payments.pass_shop import PassShop
from twlookup.platform.payments.passes import PassBook
from twlookup.platform.public_origin import PublicOrigin
from twlookup.platform.ratelimit import ClientIP, Counter, RateLimit
from twlookup.platform.service import Service
from twlookup.platform.service_app import ServiceApp, build_service_app
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.reference import Reference
from twlookup.service_slots import PRIVATE, Listings, Preload, ServiceSlot
from twlookup.services import IMPLEMENTED
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
    lookup per request, which keeps routing off the hot path's profile. A service not loaded yet
    is a `ServiceSlot` there, replaced by the built service when it loads (twlookup/service_slots.py).

    Lifespan events start and stop the FastAPI apps of the services with a `Service.lifespan`:
    those loaded before the startup (`subapps`) at the startup; one loaded later, when it loads
    (`enter_lifespan`). All are entered and left in the lifespan's own task. With `preload`, every
    service not loaded yet is loaded right after the startup.
    """

    def __init__(
        self,
        root: Any,
        services: dict[str, Any],
        hosts: dict[bytes, Any],
        slots: dict[str, ServiceSlot],
        preload: bool = False,
    ) -> None:
        self.root = root
        self.services = services
        self.hosts = hosts
        self.subapps: list[FastAPI] = []  # services with a lifespan loaded before the startup
        self.slots = slots
        self.preload = preload
        self.answers: AnswerCache | None = None  # the repeatable lookups' answers (platform/answer_cache.py)
        self._inbox: asyncio.Queue[tuple[FastAPI, concurrent.futures.Future[None]]] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._started = False  # the lifespan's startup has begun

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

    def loaded(self, name: str, built: ServiceApp) -> None:
        """A service has loaded (`ServiceSlot.load`, in a worker thread): its lifespan, if it has one,
        is entered, and the routing table holds it in place of its slot."""
        if built.listing.service.lifespan is not None:
            if self._started:
                self.enter_lifespan(built.subapp.app)
            else:  # loaded before the lifespan's startup, which enters it
                self.subapps.append(built.subapp.app)
        slot = self.slots.get(name)
        if self.services.get(name) is slot:
            self.services[name] = built.asgi
        for host, app in self.hosts.items():
            if app is slot:
                self.hosts[host] = built.asgi

    def enter_lifespan(self, app: FastAPI) -> None:
        """Have the lifespan's task enter `app`'s lifespan, and wait until it has (from a worker
        thread). Nothing to do where no lifespan runs (a test calling the app directly)."""
        inbox, loop = self._inbox, self._loop
        if inbox is None or loop is None:
            return
        if _on_event_loop():
            raise RuntimeError("a service with a lifespan is loaded on the event loop: load it in a worker thread")
        entered: concurrent.futures.Future[None] = concurrent.futures.Future()
        loop.call_soon_threadsafe(inbox.put_nowait, (app, entered))
        entered.result()

    async def lifespan(self, receive: Any, send: Any) -> None:
        """Enter every FastAPI app's lifespan on startup and leave them, in reverse, on shutdown."""
        async with AsyncExitStack() as stack:
            await receive()  # lifespan.startup
            self._started = True
            try:
                for app in self.subapps:
                    await stack.enter_async_context(app.router.lifespan_context(app))
            except Exception as exc:
                log.exception("startup failed")
                await send({"type": "lifespan.startup.failed", "message": f"{type(exc).__name__}: {exc}"})
                return
            self._loop, self._inbox = asyncio.get_running_loop(), asyncio.Queue()
            # Reference data is not loaded here: the first request to a service builds that
            # service's caches (in a worker thread), so a start loads only what is asked for.
            await send({"type": "lifespan.startup.complete"})
            loading = asyncio.create_task(Preload.run(self.slots)) if self.preload else None
            shutdown = asyncio.ensure_future(receive())
            while True:  # until lifespan.shutdown: the lifespans of services loaded meanwhile
                arrival = asyncio.ensure_future(self._inbox.get())
                await asyncio.wait({shutdown, arrival}, return_when=asyncio.FIRST_COMPLETED)
                if not arrival.done():
                    arrival.cancel()
                    break
                app, entered = arrival.result()
                try:
                    await stack.enter_async_context(app.router.lifespan_context(app))
                    entered.set_result(None)
                except Exception as exc:  # the loading fails with it, and so does the request
                    entered.set_exception(exc)
            self._inbox = None
            if loading is not None and not loading.done():
                loading.cancel()
        await send({"type": "lifespan.shutdown.complete"})


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def serving_app() -> TwlookupApp:
    """`create_app` as `twlookup serve` builds it in its process and in each worker process: with the
    collector paused during the build and what it built frozen after it (twlookup/startup.py), and
    every service loaded right after the start (each frozen once built)."""
    pause_gc()
    return create_app(preload=True)


def create_app(
    settings: Settings | None = None, services: list[Service] | None = None, preload: bool = False
) -> TwlookupApp:
    """The whole app. `services` defaults to every implemented service, each loaded when first
    needed (twlookup/service_slots.py); tests may pass their own, built now. With `preload`, those
    not loaded yet are loaded right after the lifespan's startup."""
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
    given = {s.name: s for s in services} if services is not None else {}
    names = list(given) if services is not None else list(IMPLEMENTED)
    public = PublicOrigin.from_settings(settings, client_ip, names)

    answers = AnswerCache(settings.answer_cache_bytes)  # shared by the services: one budget

    def build(service: Service) -> ServiceApp:
        return build_service_app(service, settings, counter, client_ip, facilitator, passes, public, answers)

    apps: dict[str, Any] = {}
    hosts: dict[bytes, Any] = {}
    slots: dict[str, ServiceSlot] = {}
    listings = Listings(slots)
    health = Health(
        settings, counter, facilitator, lambda: (sum(s.built is not None for s in slots.values()), len(slots))
    )
    feeds = StatusCache(settings.data_check_seconds)

    # the root's FastAPI app (/, /docs, /healthz) is built on its first request, as the services' are
    def build_root() -> FastAPI:
        from twlookup.root_app import root_app

        return root_app(settings, listings, health, feeds, public)

    root = OnDemand(build_root)
    limited_root = RateLimit(head_as_get(root), "index", settings.rate_limit_default, counter, client_ip)
    if facilitator is not None:  # {pay_url}/pass sells the pass that lifts the quota of the services with one
        shop = lambda: _pass_shop(settings, facilitator, passes, listings, public) or limited_root  # noqa: E731
        apps["pay"] = OnDemand(shop, in_thread=True)  # every service is loaded to know which have one
    app = TwlookupApp(limited_root, apps, hosts, slots, preload)
    app.answers = answers
    for name in names:  # each service's place, told to the app when its service loads
        slots[name] = apps[name] = ServiceSlot(name, build, app.loaded, given.get(name))
        host = settings.host_for(name)
        if host:
            hosts[host.encode()] = slots[name]
    private = {name for name in names if (given[name].private if name in given else name in PRIVATE)}
    privacy.install(private, {h.decode() for h, a in hosts.items() if any(slots[n] is a for n in private)})
    for name in given:  # the services given are built now (their lifespans entered by the startup)
        slots[name].load()
    # the tables' mappers loaded so far are set up here, before the collector freezes what the
    # start-up made, not by whichever request first reads the store; a service's own, when it loads
    configure_mappers()
    resume_gc()  # `serve` paused the collector for the start-up (twlookup/startup.py)
    app_built.set()  # `serve`'s background feed refresh waits for this before its first pass
    return app


def _pass_shop(
    settings: Settings, facilitator: Any, passes: PassBook, listings: Listings, public: PublicOrigin
) -> PassShop | None:
    """The pass shop of the services with a free quota (loading every service to know them); none
    where no service has one."""
    quota = [listing.service for listing in listings.values() if listing.service.free_quota]
    if not quota:
        return None
    return PassShop(
        settings, facilitator, passes, [s.name for s in quota], solana=any(s.solana for s in quota), public=public
    )
