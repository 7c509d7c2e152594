"""Shared fixtures and helpers: one migrated and seeded template store per session (tests get copies),
one app per session, clients over it, and the assertions every service's tests use.

Under pytest-xdist (`-n 2`, as `make test` runs) each worker is a session of its own: its own
template store and app (in its own temporary folder), its own PostgreSQL database (the test
database's name + `_gw<N>`, created when missing) and its own Redis database (the test database's
number + N), so that tests which empty or migrate those never meet another worker's."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import httpx
import pytest
from stores import copy_store, seeded_template, worker_services

from twlookup.app import create_app
from twlookup.cli import DEFAULT_DATA
from twlookup.platform import clock
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.reference import Reference
from twlookup.settings import Settings

DATA = DEFAULT_DATA

# Tests reach no network: the creator service asks the company register live only where a test
# turns it on (and mocks it with respx).
os.environ.setdefault("TWLOOKUP_CREATOR_LIVE_REGISTER", "0")
# Nor does `twlookup serve` refresh the live feeds in the background (its default with one worker):
# every process a test starts inherits this; the tests of the default remove it themselves.
os.environ["TWLOOKUP_REFRESH"] = "off"


def pytest_configure(config: pytest.Config) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1, ... in a pytest-xdist worker
    if worker:
        worker_services(int(worker.removeprefix("gw")))


@pytest.fixture(scope="session")
def template_store() -> Path:
    """One store migrated and seeded once per session; tests get copies of the file, not new migrations."""
    return seeded_template()


@pytest.fixture(scope="session")
def db_url(template_store: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The store the session's tests share (read-mostly; tests that import feeds use `fresh_store`)."""
    return copy_store(template_store, tmp_path_factory.mktemp("store"))


@pytest.fixture
def fresh_store(template_store: Path, tmp_path: Path, db_url: str) -> Iterator[str]:
    """A migrated and seeded store of this test's own (a copy of the template), for tests that write
    to it; the process-wide engine is handed back to the shared store afterwards."""
    yield copy_store(template_store, tmp_path)
    store_engine.configure(db_url)


@pytest.fixture(scope="session")
def settings(db_url: str) -> Settings:
    # One app serves the whole session: limits that count calls per client are lifted here (the
    # rate limit and food's free quota), and the tests of those limits set their own settings.
    return Settings(
        database_url=db_url, rate_limit_default="100000/minute", free_quota_per_minute=100_000, _env_file=None
    )


@pytest.fixture(scope="session")
def app(settings: Settings) -> Any:
    """The whole app, built once per session; a test that changes settings builds its own."""
    return create_app(settings)


@pytest.fixture
async def client(app: Any, settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    store_engine.configure(settings.database_url)  # a test that served another store hands the shared one back
    Reference.check_seconds = settings.data_check_seconds
    app.answers.clear()  # answers kept for an earlier test (which may have patched what they rest on)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        yield c


@pytest.fixture
async def for_sale(settings: Settings, fresh_store: str) -> AsyncIterator[httpx.AsyncClient]:
    """A client over a store of the test's own in which every paid route is for sale (its feeds fresh,
    its sample rows made real: tests/for_sale.py); the seeded store sells nothing sample or stale."""
    from for_sale import put_on_sale

    put_on_sale(fresh_store)
    app = create_app(settings.model_copy(update={"database_url": fresh_store}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        yield c


@pytest.fixture
def serve_reference(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Reference[Any], Any], None]]:
    """Serve `value` as `reference`'s data for this test, as a rebuild of it would: the reference
    generation moves on, so no answer kept from the old data is given (platform/answer_cache.py);
    and again when the test ends."""

    def serve(reference: Reference[Any], value: Any) -> None:
        monkeypatch.setattr(reference, "get", lambda: value)
        Reference.generation += 1

    yield serve
    Reference.generation += 1


@pytest.fixture
def pin_today(monkeypatch: pytest.MonkeyPatch) -> Callable[[date], date]:
    """Pin the one clock (platform/clock.py) for this test: `pin_today(date(2026, 12, 31))` makes
    `clock.today()`, and so every module's `today_taipei()`, return the date, as TWLOOKUP_TODAY
    does, so both sides of a date rule can be tested (the answer cache keys on the same clock)."""

    def pin(day: date) -> date:
        monkeypatch.setattr(clock, "_fixed", day)
        return day

    return pin


def assert_problem(r: httpx.Response, status: int, parameter: str | None = None) -> dict:
    """An RFC 9457 problem with this status; with `parameter`, the first error names it."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/problem+json"
    body = r.json()
    if parameter:
        assert body["errors"][0]["parameter"] == parameter, body
    return body


def assert_sources(sources: list[dict], schemes: tuple[str, ...] = ("https://", "http://")) -> None:
    """Every answer names its sources: each with a URL and the date it was checked."""
    assert sources, "every answer names its sources"
    for s in sources:
        assert s["url"].startswith(schemes) and s["checked"], s


def fund(address: str, db_url: str, amount: str = "1", network: str | None = None) -> None:
    """Fund an address on the local ledger through the `twlookup ledger fund` command."""
    env = dict(os.environ, TWLOOKUP_DATABASE_URL=db_url)
    cmd = [
        sys.executable,
        "-m",
        "twlookup",
        "ledger",
        "fund",
        address,
        amount,
        *(["--network", network] if network else []),
    ]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    assert "funded" in out.stdout


def postgres_url() -> str | None:
    return os.environ.get("TWLOOKUP_TEST_DATABASE_URL")


def redis_url() -> str | None:
    return os.environ.get("TWLOOKUP_TEST_REDIS_URL")


@pytest.fixture(scope="session")
def live_url(settings: Settings):
    """The app served by a real uvicorn on a free loopback port, for the protocols' own clients."""
    import socket
    import threading
    import time

    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("test server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)


@pytest.fixture(autouse=True, scope="session")
def _no_wikimedia():
    """No test reaches Wikimedia: the knowledge base (sports, movie, games) points at a closed
    loopback port, so an unmocked lookup fails fast (503) instead of going out. Tests that mock
    Wikimedia with respx match on the API's path, or restore the real addresses themselves."""
    from twlookup.domain import knowledge_base as kb

    saved = kb.WIKIDATA_API, kb.SUMMARY_URL
    kb.WIKIDATA_API = "http://127.0.0.1:9/w/api.php"
    kb.SUMMARY_URL = "http://127.0.0.1:9/{lang}wiki/api/rest_v1/page/summary/{title}"
    yield
    kb.WIKIDATA_API, kb.SUMMARY_URL = saved
