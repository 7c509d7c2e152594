"""create_app(): every implemented service under /<name>, optional host routing, index, health."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import text

from twlookup import __version__
from twlookup.platform import privacy
from twlookup.platform.errors import Problem
from twlookup.platform.http import header
from twlookup.platform.payments.facilitators import make_facilitator
from twlookup.platform.payments.pass_shop import PassShop
from twlookup.platform.payments.passes import PassBook
from twlookup.platform.ratelimit import ClientIP, Counter
from twlookup.platform.router import ServiceRouter, build_service_app
from twlookup.platform.service import Service
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.reference import Reference
from twlookup.services import CATALOG, load_services
from twlookup.settings import Settings, get_settings


class TwlookupApp:
    """Pure-ASGI dispatcher: host name or first path segment picks the service sub-app."""

    def __init__(self, root: FastAPI, services: dict[str, Any], hosts: dict[bytes, Any]) -> None:
        self.root = root
        self.services = services
        self.hosts = hosts

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1003})
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


def create_app(settings: Settings | None = None, services: list[Service] | None = None) -> TwlookupApp:
    """The whole app; `services` defaults to every implemented service (tests may pass their own)."""
    settings = settings or get_settings()
    store_engine.configure(settings.database_url)
    Reference.check_seconds = settings.data_check_seconds
    counter = Counter(settings.redis_url)
    # one facilitator for all services: one ledger, one connection pool; none when payments are off
    facilitator = make_facilitator(settings) if settings.payments_enabled else None
    client_ip = ClientIP(settings.trusted_proxies)
    passes = PassBook(settings.pass_secret, settings.pass_hours)
    routers: dict[str, ServiceRouter] = {}
    apps: dict[str, Any] = {}
    hosts: dict[bytes, Any] = {}
    services = services if services is not None else load_services()
    for service in services:
        router, app = build_service_app(service, settings, counter, client_ip, facilitator, passes)
        routers[service.name] = router
        apps[service.name] = app
        host = settings.host_for(service.name)
        if host:
            hosts[host.encode()] = app
    quota_services = [s for s in services if s.free_quota]
    if quota_services and facilitator is not None:  # {pay_url}/pass sells the pass that lifts the quota
        solana = any(s.solana for s in quota_services)
        apps["pay"] = PassShop(settings, facilitator, passes, [s.name for s in quota_services], solana=solana)
    private = {name for name, r in routers.items() if r.service.private}
    privacy.install(private, {h.decode() for h, a in hosts.items() if any(apps[n] is a for n in private)})
    root = _root_app(settings, routers)
    return TwlookupApp(root, apps, hosts)


def _root_app(settings: Settings, routers: dict[str, ServiceRouter]) -> FastAPI:
    root = FastAPI(title="twlookup", version=__version__, docs_url="/docs", redoc_url=None)

    @root.exception_handler(404)
    async def not_found(_request: Any, _exc: Any) -> JSONResponse:
        names = ", ".join(sorted(routers))
        problem = Problem(404, f"No such path. Services live under /<name>/: {names}. See / for the list.")
        return JSONResponse(problem.body(), status_code=404, media_type="application/problem+json")

    @root.exception_handler(405)
    async def not_allowed(_request: Any, _exc: Any) -> JSONResponse:
        problem = Problem(405, "This path accepts GET only.")
        return JSONResponse(problem.body(), status_code=405, media_type="application/problem+json", headers={"Allow": "GET"})

    @root.get("/", summary="The twenty services, where each lives, and which are available")
    def index() -> dict[str, Any]:
        services = []
        for entry in CATALOG:
            router = routers.get(entry.name)
            item: dict[str, Any] = {"name": entry.name, "subject": entry.subject, "state": "available" if router else "planned"}
            if router:
                base = f"/{entry.name}"
                item.update(
                    base=base,
                    host=settings.host_for(entry.name),
                    docs=f"{base}/docs",
                    openapi=f"{base}/openapi.json",
                    mcp=f"{base}/mcp",
                    tools=len(router.service.tools),
                    paid_routes=[{k: r[k] for k in ("method", "path", "price_usd", "open")} for r in router.paid_routes(base)],
                )
            services.append(item)
        return {"name": "twlookup", "version": __version__, "services": services}

    @root.get("/healthz", summary="Whether the store answers")
    def healthz() -> JSONResponse:
        try:
            with store_engine.get_engine().connect() as conn:
                conn.execute(text("SELECT 1"))
                version = Reference.current_version()
            ok = True
        except Exception as exc:  # the store is down: report it, do not crash
            ok, version = False, None
            detail = f"{type(exc).__name__}"
        body: dict[str, Any] = {
            "status": "ok" if ok else "unavailable",
            "store": store_engine.get_engine().dialect.name,
            "data_version": version,
            "rate_limit_storage": "redis" if settings.redis_url else "memory",
            "facilitator": settings.facilitator,
            "payments": (
                "local ledger: payments settle on an in-process test ledger and move no real money"
                if settings.facilitator == "local"
                else f"remote facilitator {settings.facilitator_url}: payments move real USDC"
            ),
        }
        if not ok:
            body["detail"] = detail
        return JSONResponse(body, status_code=200 if ok else 503)

    return root
