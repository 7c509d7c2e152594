"""The wheel is what an operator installs: built from the checkout, installed into a fresh
virtualenv, `twlookup serve` run from a directory that has nothing to do with the checkout must
migrate a new store, seed it from the data the wheel carries, and answer.

Slow (tens of seconds): it builds the wheel with pip (offline, from the package index pip is
configured with), installs it and its dependencies into a new virtualenv (with uv when `make
install` put it beside the interpreter, else pip), and starts a server.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import httpx
import pytest

from twlookup.services import IMPLEMENTED

ROOT = Path(__file__).resolve().parents[2]
BUILD_LEFTOVERS = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "var", "*.egg-info", "__pycache__", ".pytest_cache", "test-artefacts", "tests"
)

pytestmark = pytest.mark.slow


def _run(cmd: list[str], timeout: float, **kwargs) -> subprocess.CompletedProcess:
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kwargs)
    assert out.returncode == 0, f"{cmd[:4]} failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # a copy of the working tree without build leftovers: setuptools reuses build/lib, where a file
    # deleted from the checkout would linger and slip into the wheel
    source = tmp_path_factory.mktemp("source") / "twlookup"
    shutil.copytree(ROOT, source, ignore=BUILD_LEFTOVERS)
    dist = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(dist), str(source)], timeout=300)
    (built,) = dist.glob("twlookup-*.whl")
    return built


def test_wheel_carries_migrations_and_data(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    versions = {p.name for p in (ROOT / "migrations" / "versions").glob("*.py")}
    assert versions and {f"twlookup/migrations/versions/{v}" for v in versions} <= names
    assert {"twlookup/migrations/env.py", "twlookup/migrations/script.py.mako"} <= names
    data = {p.relative_to(ROOT).as_posix() for p in (ROOT / "data").rglob("*") if p.is_file()}
    assert data and {f"twlookup/{d}" for d in data} <= names
    assert {f"twlookup/services/{name}/__init__.py" for name in IMPLEMENTED} <= names
    assert not [n for n in names if n.startswith(("tests/", "migrations/", "data/"))], "nothing outside the package"


def test_installed_wheel_serves_from_an_unrelated_directory(wheel: Path, tmp_path: Path):
    venv = tmp_path / "venv"
    python = str(venv / "bin" / "python")
    uv = Path(sys.executable).with_name("uv")  # `make install` puts uv beside the interpreter
    if uv.exists():  # the same install, resolved and unpacked in seconds rather than a minute
        _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], timeout=120)
        _run([str(uv), "pip", "install", "--quiet", "--python", python, str(wheel)], timeout=900)
    else:
        _run([sys.executable, "-m", "venv", str(venv)], timeout=120)
        _run([python, "-m", "pip", "install", "--quiet", str(wheel)], timeout=900)
    elsewhere = tmp_path / "elsewhere"  # no data/, no migrations/, no .env
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TWLOOKUP_") and k not in ("PYTHONPATH",)}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    env["TWLOOKUP_CREATOR_LIVE_REGISTER"] = "0"  # no outbound calls
    env["TWLOOKUP_REFRESH"] = "off"  # nor feed refreshes

    where = _run(
        [str(venv / "bin" / "python"), "-c", "import twlookup; print(twlookup.__file__)"], 60, env=env, cwd=elsewhere
    )
    assert Path(where.stdout.strip()).is_relative_to(venv), "the wheel's package, not the checkout, is imported"

    port = _port()
    log = tmp_path / "serve.log"
    with log.open("w") as sink:
        proc = subprocess.Popen(
            [str(venv / "bin" / "twlookup"), "serve", "--host", "127.0.0.1", "--port", str(port), "--no-access-log"],
            cwd=elsewhere,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 180
        while True:
            assert proc.poll() is None, f"serve exited:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"serve did not answer within 180 s:\n{log.read_text()}"
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert health.status_code == 200, health.text
        assert health.json()["store"] == "sqlite"
        assert (elsewhere / "var" / "twlookup.db").is_file(), "the default store is created where serve runs"
        seeded = log.read_text()
        assert f"seeded the store from {venv}" in seeded and "twlookup/data" in seeded, seeded

        model = httpx.get(f"http://127.0.0.1:{port}/models/api/model", params={"id": "gpt-4-0613"}, timeout=10)
        assert model.status_code == 200, model.text
        assert model.json()["model"]["id"] == "gpt-4-0613"
        assert model.json()["model"]["provider"] == "openai"
        index = httpx.get(f"http://127.0.0.1:{port}/", timeout=10).json()
        available = sorted(s["name"] for s in index["services"] if s["state"] == "available")
        assert available == sorted(IMPLEMENTED)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
