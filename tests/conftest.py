"""Shared fixtures: one migrated and seeded store per test session, and clients over the app."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from twlookup.app import create_app
from twlookup.cli import DEFAULT_DATA, ensure_ready
from twlookup.settings import Settings

DATA = DEFAULT_DATA


@pytest.fixture(scope="session")
def db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    path: Path = tmp_path_factory.mktemp("store") / "twlookup.db"
    url = f"sqlite:///{path}"
    ensure_ready(url, DATA)
    return url


@pytest.fixture(scope="session")
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, rate_limit_default="100000/minute", _env_file=None)


@pytest.fixture
async def client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        yield c


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
