"""`twlookup serve --port N` as a real process on a copy of the seeded store, for the tests that
must see what a client of a non-default port sees (tests/e2e/test_public_origin.py and
tests/e2e/test_mcp_paid_tools.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

TRUSTED_PROXY = "127.0.0.1"  # the test's proxy; a client from 127.0.0.2 is a direct, untrusted peer


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve(db_url: str, log: Path, **env: str) -> Iterator[str]:
    """The server's base URL while it runs; stopped (by its pid) afterwards."""
    port = free_port()
    assert port != 8000
    environment = dict(
        os.environ,
        TWLOOKUP_DATABASE_URL=db_url,
        TWLOOKUP_TRUSTED_PROXIES=f'["{TRUSTED_PROXY}/32"]',
        TWLOOKUP_RATE_LIMIT_DEFAULT="100000/minute",
        **env,
    )
    environment.pop("TWLOOKUP_PORT", None)
    environment.pop("TWLOOKUP_PUBLIC_URL", None)
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "twlookup",
                "serve",
                "--port",
                str(port),
                "--no-access-log",
                "--log-level",
                "warning",
            ],
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                httpx.get(f"{base}/healthz", timeout=1)
                break
            except httpx.HTTPError:
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
