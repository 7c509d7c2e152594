"""Each service's FastAPI application: everything the operation dispatcher does not answer.

The dispatcher (`platform.router.Dispatcher`) sits in front and answers the declared
operations, their Markdown pages, text pages and `/mcp` on its fast path; any other request
falls through to this FastAPI app. It carries the service's ordinary FastAPI routes
(`Service.api`, an `APIRouter`, with dependencies as usual), its exception handlers and its
lifespan, and serves the service's summary (`/`), paid-route list (`/api/pro`), OpenAPI document
and docs. The OpenAPI document joins the operations' paths to FastAPI's own for `Service.api`.
Every error here answers RFC 9457 problem+json, as the dispatcher's do, built by the same
functions (platform/errors.py). A bug here is answered 500 and raised again by Starlette; the
dispatcher logs it.

The app is built on the first request that reaches it (`platform/on_demand.py`), not at start: most
requests never fall through, and building twenty FastAPI apps and their routes was about a tenth
of the start's CPU time. A service with a lifespan has its app built at start, so that the lifespan
runs with the whole app's.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from twlookup import __version__
from twlookup.platform import pages
from twlookup.platform.errors import Problem, internal_error, method_not_allowed, no_route
from twlookup.platform.listing import ServiceListing
from twlookup.platform.openapi import build_openapi, with_sale_state
from twlookup.startup import long_lived

PROBLEM_JSON = "application/problem+json"


def problem_response(problem: Problem) -> JSONResponse:
    return JSONResponse(problem.body(), status_code=problem.status, media_type=PROBLEM_JSON, headers=problem.headers)


def build_subapp(listing: ServiceListing) -> FastAPI:
    service = listing.service
    app = FastAPI(
        title=f"twlookup {service.name}",
        version=__version__,
        openapi_url=None,  # served below: the operations' document joined to FastAPI's own
        docs_url=None,
        redoc_url=None,
        lifespan=service.lifespan,
    )
    app.include_router(service.api)
    app.state.public_origin = listing.public  # the pages write absolute URLs with it
    documents: dict[str, dict[str, Any]] = {}

    def document(base: str) -> dict[str, Any]:
        if base not in documents:
            doc = build_openapi(service, base or "/", listing.prices)
            if service.api.routes:
                own = get_openapi(title=app.title, version=app.version, routes=service.api.routes)
                doc["paths"].update(own.get("paths", {}))
                doc["components"]["schemas"].update(own.get("components", {}).get("schemas", {}))
            documents[base] = doc
            long_lived()
        return documents[base]

    app.openapi = lambda: document("")  # type: ignore[method-assign]  # FastAPI's documented way to give the schema: its stubs declare openapi a method

    @app.get("/", include_in_schema=False)
    def summary(request: Request, response: Response) -> Any:
        response.headers["Vary"] = "Accept"
        if pages.wants_html(request):  # a browser: the service's page (app.state.zh_name: SubappOnDemand)
            return pages.service_html(request, listing, getattr(app.state, "zh_name", ""))
        return listing.summary(request.scope.get("root_path", ""))

    @app.get("/api/pro", include_in_schema=False)
    def paid_routes(request: Request) -> dict[str, Any]:
        return {"paid_routes": listing.paid_routes(request.scope.get("root_path", ""))}

    @app.get("/openapi.json", include_in_schema=False)
    def openapi(request: Request) -> JSONResponse:
        doc = document(request.scope.get("root_path", ""))
        # `servers` is the absolute URL this client reaches the service at (platform/public_origin.py)
        doc = {**doc, "servers": [{"url": listing.public.url(request.scope)}]}
        paid = {(op.method, op.path): listing.sale_state(op) for op in service.operations if op.paid}
        return JSONResponse(with_sale_state(doc, paid) if paid else doc)

    @app.get("/docs", include_in_schema=False)
    def docs(request: Request) -> HTMLResponse:
        return pages.docs_page(request.scope.get("root_path", ""), f"twlookup {service.name}")

    pages.install_assets(app)  # Swagger UI and the pages' style, from this origin

    @app.exception_handler(Problem)
    async def on_problem(_request: Request, exc: Problem) -> Response:
        return problem_response(exc)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404:
            base = request.scope.get("root_path", "")
            return problem_response(no_route(service.name, request.scope["path"], f"see {base}/docs"))
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            allowed = [m.strip() for m in headers.get("Allow", "GET").split(",")]
            return problem_response(method_not_allowed(request.scope["path"], allowed))
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        return problem_response(Problem(exc.status_code, detail, headers=headers))

    @app.exception_handler(RequestValidationError)
    async def on_invalid(_request: Request, exc: RequestValidationError) -> Response:
        entries = []
        for err in exc.errors():
            loc = [str(p) for p in err.get("loc", ()) if p not in ("query", "path", "body", "header")]
            entries.append({"parameter": ".".join(loc) or "body", "message": err.get("msg", "invalid")})
        detail = "; ".join(f"{e['parameter']}: {e['message']}" for e in entries)
        return problem_response(Problem(422, detail, kind="invalid-parameter", errors=entries))

    @app.exception_handler(Exception)
    async def on_bug(_request: Request, _exc: Exception) -> Response:
        return problem_response(internal_error())  # Starlette raises it again: the dispatcher logs it

    for kind, handler in service.exception_handlers.items():
        app.add_exception_handler(kind, handler)
    return app
