"""Each service is a FastAPI app behind the operation dispatcher; operations may be async.

A test service shows the shape a service can take: declared operations (answered by the
dispatcher), an ordinary FastAPI route with a dependency (answered by the fall-through), a
service exception handler and a lifespan that the whole app runs.
"""

from __future__ import annotations

import asyncio
import threading
import time
from contextlib import asynccontextmanager

import httpx
from fastapi import Depends, FastAPI, Header
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from twlookup.app import create_app
from twlookup.platform.operations import Params
from twlookup.platform.service import Service
from twlookup.platform.store.reference import Reference


class Ping(BaseModel):
    service: str
    waited: float = 0.0


class Wait(Params):
    seconds: float = Field(0.0, ge=0, le=2, description="How long the operation waits")


class Teapot(Exception):
    pass


def make_service(name: str) -> Service:
    events: list[str] = []

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        events.append("start")
        app.state.greeting = f"hello from {name}"
        yield
        events.append("stop")

    service = Service(name, f"{name} test", "a test service", lifespan=lifespan)
    service.exception_handlers[Teapot] = lambda _req, _exc: JSONResponse({"teapot": True}, status_code=418)
    service.events = events  # type: ignore[attr-defined]

    @service.operation("GET", "/api/fast")
    def fast() -> Ping:
        """Answers at once."""
        return Ping(service=name)

    @service.operation("GET", "/api/slow-async")
    async def slow_async(p: Wait) -> Ping:
        """Awaits, as an operation calling out would."""
        await asyncio.sleep(p.seconds)
        return Ping(service=name, waited=p.seconds)

    @service.operation("GET", "/api/slow-blocking", blocking=True)
    def slow_blocking(p: Wait) -> Ping:
        """Blocks its thread, as a store read or slow work would."""
        time.sleep(p.seconds)
        return Ping(service=name, waited=p.seconds)

    def caller(x_caller: str = Header("anonymous")) -> str:
        return x_caller

    @service.api.get("/api/hello", summary="An ordinary FastAPI route")
    def hello(who: str = Depends(caller), shout: bool = False) -> dict:
        return {"hello": who.upper() if shout else who, "service": name}

    @service.api.get("/api/teapot")
    def teapot() -> dict:
        raise Teapot()

    return service


def client(settings, *services: Service) -> httpx.AsyncClient:
    app = create_app(settings, list(services))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


async def test_ordinary_fastapi_route_answers_through_the_fall_through(settings):
    service = make_service("alpha")
    async with client(settings, service) as c:
        r = await c.get("/alpha/api/hello", params={"shout": "true"}, headers={"x-caller": "ana"})
        assert r.status_code == 200 and r.json() == {"hello": "ANA", "service": "alpha"}
        # FastAPI's own validation of the ordinary route answers a problem naming the parameter
        bad = await c.get("/alpha/api/hello", params={"shout": "maybe"})
        assert bad.status_code == 422 and bad.headers["content-type"] == "application/problem+json"
        assert bad.json()["errors"][0]["parameter"] == "shout"
        # the service's own exception handler
        assert (await c.get("/alpha/api/teapot")).status_code == 418
        # declared operations still answer through the dispatcher
        assert (await c.get("/alpha/api/fast")).json() == {"service": "alpha", "waited": 0.0}
        missing = await c.get("/alpha/api/nothing-here")
        assert (
            missing.status_code == 404
            and missing.json()["detail"] == "alpha has no route /api/nothing-here; see /alpha/docs."
        )
        wrong = await c.post("/alpha/api/hello")  # its GET answers HEAD too (platform.http.head_as_get)
        assert wrong.status_code == 405 and wrong.headers["allow"] == "GET, HEAD"
        # the docs and OpenAPI come from FastAPI, joining operations and ordinary routes
        doc = (await c.get("/alpha/openapi.json")).json()
        assert {"/api/fast", "/api/slow-async", "/api/hello"} <= set(doc["paths"])
        assert doc["servers"] == [{"url": "http://testserver/alpha"}]  # the URL the client used
        assert {p["name"] for p in doc["paths"]["/api/hello"]["get"]["parameters"]} == {"shout", "x-caller"}
        docs = await c.get("/alpha/docs")
        assert docs.status_code == 200 and "/alpha/openapi.json" in docs.text
        summary = (await c.get("/alpha/")).json()
        assert summary["name"] == "alpha" and next(r["path"] for r in summary["routes"]) == "/alpha/api/fast"


async def test_the_whole_app_runs_each_service_lifespan(settings):
    service = make_service("beta")
    app = create_app(settings, [service])
    sent: list[dict] = []
    incoming = asyncio.Queue()
    for kind in ("lifespan.startup", "lifespan.shutdown"):
        incoming.put_nowait({"type": kind})

    async def send(message: dict) -> None:
        sent.append(message)

    await app({"type": "lifespan", "asgi": {"version": "3.0"}}, incoming.get, send)
    assert [m["type"] for m in sent] == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert service.events == ["start", "stop"]  # type: ignore[attr-defined]
    (subapp,) = app.subapps  # the service app, whose state its lifespan set (the root has no lifespan)
    assert subapp.state.greeting == "hello from beta"


async def test_path_is_decoded_once(client):
    """%25 is a literal '%': /api/product/%254CA1 asks for the id '%4CA1' (not a product id:
    422 naming id), never for 'LA1' (it used to answer LA1's prices)."""
    r = await client.get("/price/api/product/%254CA1")
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "id"
    assert (await client.get("/price/api/product/LA1")).status_code == 200
    assert (await client.get("/price/api/product/%4CA1")).json()["product"][
        "id"
    ] == "LA1"  # decoded once, by the server


async def _timed(c: httpx.AsyncClient, url: str) -> float:
    began = time.perf_counter()
    r = await c.get(url)
    assert r.status_code == 200, r.text
    return time.perf_counter() - began


async def test_slow_operation_in_one_service_does_not_delay_another(settings):
    a, b = make_service("slowa"), make_service("fastb")
    async with client(settings, a, b) as c:
        # each route answered once first: what is measured is the event loop, not what a process
        # builds on a route's first call (alone in a new process, that took 0.65 s of the 0.3 s bound)
        for warm in ("/fastb/api/fast", "/slowa/api/slow-async?seconds=0", "/slowa/api/slow-blocking?seconds=0"):
            await _timed(c, warm)
        for slow in ("/slowa/api/slow-async?seconds=0.8", "/slowa/api/slow-blocking?seconds=0.8"):
            began = time.perf_counter()
            task = asyncio.create_task(_timed(c, slow))
            await asyncio.sleep(0.05)  # the slow call is under way
            fast = [await _timed(c, "/fastb/api/fast") for _ in range(5)]
            assert not task.done(), f"{slow} held the event loop: the fast calls waited for it"
            assert time.perf_counter() - began < 0.6 and max(fast) < 0.3, (slow, fast)
            assert await task >= 0.8


async def test_mcp_and_rest_await_the_same_async_call(settings):
    async with client(settings, make_service("gamma")) as c:
        rest = (await c.get("/gamma/api/slow-async?seconds=0.01")).json()
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", "arguments": {}}}
        assert rest == {"service": "gamma", "waited": 0.01}
        # no tool was declared: the tool list is empty and an unknown tool is an error, not a hang
        r = (await c.post("/gamma/mcp", json=call)).json()
        assert r["error"]["code"] == -32602


async def test_reference_refresh_happens_off_the_event_loop(client, monkeypatch):
    """When a cached reference could read the store, it is refreshed in a worker thread; the
    operation then reads memory on the loop."""
    threads: list[str] = []
    original = Reference.refresh.__func__  # type: ignore[attr-defined]

    def spy(cls, group=None):
        threads.append(threading.current_thread().name)
        return original(cls, group)

    monkeypatch.setattr(Reference, "refresh", classmethod(spy))
    monkeypatch.setattr(Reference, "check_seconds", 60.0)  # a loaded machine may take seconds to build
    Reference.reset_all()
    assert Reference.due("models")
    r = await client.get("/models/api/model", params={"id": "gpt-4-0613"})
    assert r.status_code == 200
    assert threads and all(name != threading.main_thread().name for name in threads)
    assert not Reference.due("models")  # the service's references built: its next calls touch no store
    threads.clear()
    await client.get("/models/api/model", params={"id": "gpt-4-0613"})
    assert threads == []


async def test_first_request_builds_only_its_own_services_references(client, monkeypatch):
    """After start or a re-seed, a request to one service builds that service's references and
    the shared ones, not every service's (which took over a second with twenty services)."""
    from twlookup.domain.taiwan_calendar_tables import TAIWAN_CALENDAR
    from twlookup.services.holiday.data import HOLIDAY_DATA
    from twlookup.services.models.data import CATALOG as MODELS

    monkeypatch.setattr(Reference, "check_seconds", 60.0)
    Reference.reset_all()
    assert (await client.get("/models/api/model", params={"id": "gpt-4-0613"})).status_code == 200
    assert MODELS._value is not None and TAIWAN_CALENDAR._value is not None
    assert HOLIDAY_DATA._value is None
    assert Reference.due("holiday") and not Reference.due("models")
    assert (await client.get("/holiday/api/holidays-2027")).status_code == 200
    assert HOLIDAY_DATA._value is not None and not Reference.due("holiday")


FASTAPI_ON_DEMAND = """
import asyncio, json, sys
import httpx
from twlookup.app import create_app
from twlookup.settings import Settings

async def main():
    app = create_app(Settings(database_url=sys.argv[1], _env_file=None))
    seen = {"built": "fastapi" in sys.modules}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        lookup = await c.get("/models/api/model?id=gpt-4-0613")
        mcp = await c.post("/models/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        seen["operations"] = [lookup.status_code, mcp.status_code, "fastapi" in sys.modules]
        index = await c.get("/")
        seen["index"] = [index.status_code, index.headers.get("vary"), "fastapi" in sys.modules]
        page = await c.get("/models/", headers={"accept": "text/html"})
        seen["page"] = [page.status_code, "text/html" in page.headers["content-type"]]
    print(json.dumps(seen))

asyncio.run(main())
"""


def test_fastapi_is_imported_only_when_a_request_needs_a_fastapi_app(db_url):
    """The operations and MCP are answered without FastAPI (a tenth of a start's imports): the
    root's index and the services' pages are FastAPI apps built on their first request, and then
    answer as before."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", FASTAPI_ON_DEMAND, db_url], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["built"] is False
    assert seen["operations"] == [200, 200, False]
    assert seen["index"] == [200, "Accept", True]
    assert seen["page"] == [200, True]


START_IMPORTS = """
import json, sys
from twlookup.app import create_app
from twlookup.settings import Settings
create_app(Settings(database_url=sys.argv[1], _env_file=None))
print(json.dumps(sorted(m for m in ("httpx", "httpcore", "holidays", "yaml") if m in sys.modules)))
"""


def test_a_start_imports_no_http_client_holiday_calendars_or_yaml_parser(db_url):
    """What only some requests need is imported by the first of them, not by every start: the HTTP
    client (an outbound fetch, a feed download, a knowledge-base lookup; with the dev tools
    installed it also pulled in rich and pygments), the holidays package (a destination's
    calendar) and PyYAML (a data file read). Together about a tenth of a warm start here."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", START_IMPORTS, db_url], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
