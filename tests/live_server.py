"""A real `twlookup serve` process on 127.0.0.1 for the tests that need the HTTP server itself
(header limits, slow clients, hostile payment headers): started on a free port, waited for on
/healthz, and stopped by its process id afterwards. Its output goes to a log file that a failed
assertion can show."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    url: str
    port: int
    proc: subprocess.Popen
    log: Path

    def alive(self) -> bool:
        """The process runs and answers /healthz."""
        if self.proc.poll() is not None:
            return False
        try:
            return httpx.get(f"{self.url}/healthz", timeout=5).status_code in (200, 503)
        except httpx.HTTPError:
            return False

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def server_env(database_url: str, **settings: str) -> dict[str, str]:
    """The environment of a server on `database_url`: no TWLOOKUP_* setting of the caller's
    leaks in (only those given here), and no live register lookups."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("TWLOOKUP_") and k not in ("DATABASE_URL", "REDIS_URL")
    }
    env.update(TWLOOKUP_DATABASE_URL=database_url, TWLOOKUP_CREATOR_LIVE_REGISTER="0", **settings)
    return env


@contextmanager
def serve(env: dict[str, str], folder: Path, *args: str, startup_seconds: float = 120) -> Iterator[Server]:
    """`twlookup serve` on a free loopback port with `env`; stopped (SIGINT, then SIGKILL) on exit."""
    port = free_port()
    log = folder / f"serve-{port}.log"
    with log.open("w") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "twlookup", "serve", "--host", "127.0.0.1", "--port", str(port), *args],
            env=env,
            cwd=folder,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    server = Server(f"http://127.0.0.1:{port}", port, proc, log)
    try:
        deadline = time.monotonic() + startup_seconds
        while not server.alive():
            assert proc.poll() is None, f"the server exited ({proc.returncode}):\n{server.output()}"
            assert time.monotonic() < deadline, f"the server did not answer in {startup_seconds} s:\n{server.output()}"
            time.sleep(0.1)
        yield server
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
