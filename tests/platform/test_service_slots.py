"""Services are loaded when first needed (twlookup/service_slots.py): a start imports none of them,
a request loads its own service only, the index loads the rest, a serving process loads them all
right after the start, and what must hold before any service loads (the access log's privacy
filter) holds from the start."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
from contextlib import asynccontextmanager

import httpx
import pytest
from pydantic import BaseModel

from twlookup import app as app_module
from twlookup import service_slots
from twlookup.app import create_app
from twlookup.platform.privacy import RedactPrivateQueries
from twlookup.platform.service import Service
from twlookup.services import CATALOG, IMPLEMENTED, load_service


class Hello(BaseModel):
    service: str


def make_service(name: str) -> Service:
    """A service with one operation and a lifespan that notes its start and stop in `events`."""
    events: list[str] = []

    @asynccontextmanager
    async def lifespan(app):
        events.append("start")
        app.state.greeting = f"hello from {name}"
        yield
        events.append("stop")

    service = Service(name, f"{name} test", "a test service", lifespan=lifespan)
    service.events = events  # type: ignore[attr-defined]

    @service.operation("GET", "/api/hello")
    def hello() -> Hello:
        """Says which service answered."""
        return Hello(service=name)

    return service


def _client(app) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


async def _lifespan(app, *, then=None) -> list[str]:
    """Run the app's lifespan: startup, `then()` (awaited), shutdown; the messages it sent."""
    sent: list[str] = []
    incoming: asyncio.Queue = asyncio.Queue()
    started = asyncio.Event()

    async def send(message: dict) -> None:
        sent.append(message["type"])
        if message["type"] == "lifespan.startup.complete":
            started.set()

    incoming.put_nowait({"type": "lifespan.startup"})
    task = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}}, incoming.get, send))
    await asyncio.wait_for(started.wait(), 30)
    if then is not None:
        await then()
    incoming.put_nowait({"type": "lifespan.shutdown"})
    await asyncio.wait_for(task, 30)
    return sent


def test_a_start_imports_no_service():
    code = (
        "import json, sys; from twlookup.app import create_app; create_app();"
        " print(json.dumps(sorted(m for m in sys.modules if m.startswith('twlookup.services.'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


async def test_a_request_loads_its_own_service_only(settings):
    app = create_app(settings)
    assert all(slot.built is None for slot in app.slots.values())
    async with _client(app) as c:
        assert (await c.get("/healthz")).json()["services"] == {"loaded": 0, "of": len(IMPLEMENTED)}
        r = await c.get("/models/api/model", params={"id": "gpt-4-0613"})
        assert (await c.get("/healthz")).json()["services"] == {"loaded": 1, "of": len(IMPLEMENTED)}
    assert r.status_code == 200 and r.json()["model"]["id"] == "gpt-4-0613"
    assert [name for name, slot in app.slots.items() if slot.built] == ["models"]
    # the routing table now holds the built service itself: later requests skip the slot
    assert app.services["models"] is app.slots["models"].built.asgi
    assert app.services["bikes"] is app.slots["bikes"]


async def test_the_index_lists_every_service_and_loads_them(settings):
    app = create_app(settings)
    async with _client(app) as c:
        listed = (await c.get("/")).json()["services"]
    assert {s["name"] for s in listed if s["state"] == "available"} == set(IMPLEMENTED)
    assert all(s["tools"] > 0 for s in listed if s["state"] == "available")
    assert all(slot.built is not None for slot in app.slots.values())


async def test_a_serving_app_loads_every_service_right_after_its_start(settings, monkeypatch):
    app = create_app(settings, preload=True)
    assert not any(slot.built for slot in app.slots.values())

    async def until_loaded() -> None:
        for _ in range(600):
            if all(slot.built for slot in app.slots.values()):
                return
            await asyncio.sleep(0.05)

    sent = await _lifespan(app, then=until_loaded)
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert [name for name, slot in app.slots.items() if not slot.built] == []
    assert all(app.services[name] is slot.built.asgi for name, slot in app.slots.items())


async def test_a_service_that_fails_to_load_does_not_stop_the_others(settings, monkeypatch, caplog):
    def load(name):
        if name == "bikes":
            raise ImportError("bikes is broken")
        return load_service(name)

    monkeypatch.setattr(service_slots, "load_service", load)
    app = create_app(settings, preload=True)

    async def until_tried() -> None:
        for _ in range(600):
            if all(slot.built for name, slot in app.slots.items() if name != "bikes"):
                return
            await asyncio.sleep(0.05)

    with caplog.at_level(logging.ERROR, logger="twlookup"):
        await _lifespan(app, then=until_tried)
    assert [name for name, slot in app.slots.items() if not slot.built] == ["bikes"]
    assert "service bikes did not load" in caplog.text
    async with _client(app) as c:  # its first request tries again, and answers the failure as a problem
        r = await c.get("/bikes/api/status")
    assert r.status_code == 500 and r.headers["content-type"] == "application/problem+json"


def test_the_catalogue_says_which_services_are_private():
    """The access log's filter is built from the catalogue before any service loads: it must say
    what each service declares."""
    assert {e.name for e in CATALOG if e.private} == {n for n in IMPLEMENTED if load_service(n).private}
    assert {"health", "wellness"} == service_slots.PRIVATE


def test_private_services_queries_are_kept_out_of_the_log_before_they_load(settings):
    app = create_app(settings)
    assert app.slots["health"].built is None and app.slots["wellness"].built is None
    (f,) = [f for f in logging.getLogger("uvicorn.access").filters if isinstance(f, RedactPrivateQueries)]
    assert f.redact("/health/api/bp-check?systolic=150&diastolic=95") == "/health/api/bp-check?[redacted]"
    assert f.redact("/wellness/api/phq9?answers=3,3,3") == "/wellness/api/phq9?[redacted]"
    assert f.redact("/models/api/model?id=x") == "/models/api/model?id=x"


def test_a_service_whose_declaration_disagrees_with_the_catalogue_does_not_load(settings, monkeypatch):
    impostor = make_service("models")
    impostor.private = True  # says private; the catalogue does not
    monkeypatch.setattr(service_slots, "load_service", lambda name: impostor)
    app = create_app(settings)
    with pytest.raises(RuntimeError, match="private=True in its declaration but not in the catalogue"):
        app.slots["models"].load()


async def test_a_service_loaded_later_has_its_lifespan_run_in_the_apps(settings, monkeypatch):
    service = make_service("late")
    monkeypatch.setattr(app_module, "IMPLEMENTED", ["late"])
    monkeypatch.setattr(service_slots, "load_service", lambda name: service)
    monkeypatch.setattr(service_slots, "PRIVATE", frozenset())
    app = create_app(settings)
    assert app.subapps == []  # not known at the start

    async def request() -> None:
        assert service.events == []  # type: ignore[attr-defined]
        async with _client(app) as c:
            assert (await c.get("/late/api/hello")).json() == {"service": "late"}
        assert service.events == ["start"]  # type: ignore[attr-defined]  # entered before it answered
        assert app.slots["late"].built.subapp.app.state.greeting == "hello from late"

    await _lifespan(app, then=request)
    assert service.events == ["start", "stop"]  # type: ignore[attr-defined]  # left at the shutdown


async def test_a_service_loaded_before_the_startup_has_its_lifespan_run_by_it(settings, monkeypatch):
    """A service may load before the server starts the app's lifespan (a request, or the index,
    reaching the app first): its lifespan is then entered by the startup."""
    service = make_service("early")
    monkeypatch.setattr(app_module, "IMPLEMENTED", ["early"])
    monkeypatch.setattr(service_slots, "load_service", lambda name: service)
    monkeypatch.setattr(service_slots, "PRIVATE", frozenset())
    app = create_app(settings)
    app.slots["early"].load()
    assert service.events == []  # type: ignore[attr-defined]

    async def started() -> None:
        assert service.events == ["start"]  # type: ignore[attr-defined]

    await _lifespan(app, then=started)
    assert service.events == ["start", "stop"]  # type: ignore[attr-defined]


async def test_the_preload_waits_for_the_first_answer_and_gives_way_to_requests_loading(settings, monkeypatch):
    app = create_app(settings)
    monkeypatch.setattr(service_slots.Preload, "answered", False)
    monkeypatch.setattr(service_slots.Preload, "WAIT", 30.0)
    monkeypatch.setattr(service_slots.Preload, "asked", 0)
    monkeypatch.setattr(service_slots.Preload, "QUIET", 0.0)
    loading = asyncio.create_task(service_slots.Preload.run(app.slots))
    await asyncio.sleep(0.3)
    assert not any(slot.built for slot in app.slots.values())  # no answer yet: it has not begun
    async with _client(app) as c:  # a first answer (its service loaded by the request itself)
        assert (await c.get("/models/api/model", params={"id": "gpt-4-0613"})).status_code == 200
    service_slots.Preload.asked = 1  # as if a request were loading its service now
    await asyncio.sleep(0.3)
    assert [name for name, slot in app.slots.items() if slot.built] == ["models"]  # it gives way
    service_slots.Preload.asked = 0
    monkeypatch.setattr(service_slots.Preload, "QUIET", 30.0)  # and a moment after such a request began
    await asyncio.sleep(0.3)
    assert [name for name, slot in app.slots.items() if slot.built] == ["models"]
    service_slots.Preload.QUIET = 0.0
    await asyncio.wait_for(loading, 120)
    assert all(slot.built for slot in app.slots.values())
