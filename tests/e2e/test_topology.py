"""The compose topology as processes: two `twlookup serve` processes on one PostgreSQL and one
Redis, configured by the plain DATABASE_URL and REDIS_URL as the compose file configures its
replicas. What must hold across them holds: a rate limit is counted once for both, one payment
settles once (its replay on the other process is refused), and an import into the store is served
by both within seconds, with no restart.

Slow (tens of seconds): it starts two servers on a database of its own, which it creates and
drops; it needs the machine's PostgreSQL and Redis (TWLOOKUP_TEST_DATABASE_URL and
TWLOOKUP_TEST_REDIS_URL, which .ci/run sets) and is skipped without them.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from eth_account import Account
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from x402 import PaymentRequired, x402ClientSync
from x402.http.utils import encode_payment_signature_header
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.signers import EthAccountSigner

from twlookup.platform.store.engine import normalize_url

PG = os.environ.get("TWLOOKUP_TEST_DATABASE_URL")
REDIS = os.environ.get("TWLOOKUP_TEST_REDIS_URL")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (PG and REDIS),
        reason="needs PostgreSQL and Redis: TWLOOKUP_TEST_DATABASE_URL and TWLOOKUP_TEST_REDIS_URL are unset (.ci/run sets them)",
    ),
]
FX_FILE = Path(__file__).resolve().parents[1] / "services" / "trip" / "fixtures" / "ExchangeRate@202611221600.csv"
LIMITED = "/holiday/api/long-weekends-2027"  # its service gets a limit of 5 a minute below
REDIS_DB = 13  # a Redis database of this test's own, emptied before and after


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def database() -> Iterator[str]:
    """A new, empty PostgreSQL database on the test server, dropped afterwards."""
    admin = create_engine(normalize_url(PG), isolation_level="AUTOCOMMIT")
    name = f"twlookup_topology_{secrets.token_hex(4)}"
    with admin.connect() as conn:
        conn.execute(text(f'create database "{name}"'))
    try:
        yield make_url(normalize_url(PG)).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'drop database if exists "{name}" with (force)'))
        admin.dispose()


@pytest.fixture
def redis_url() -> Iterator[str]:
    import redis

    url = urlsplit(REDIS)._replace(path=f"/{REDIS_DB}").geturl()
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        yield url
    finally:
        client.flushdb()
        client.close()


def _env(database: str, redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TWLOOKUP_") and k != "PYTHONPATH"}
    env.update(
        DATABASE_URL=database,  # the plain names, as the compose file sets them
        REDIS_URL=redis_url,
        TWLOOKUP_RATE_LIMIT_HOLIDAY="5/minute",
        TWLOOKUP_CREATOR_LIVE_REGISTER="0",
        TWLOOKUP_REFRESH="off",  # no feed refresh leaves the machine
    )
    return env


def _twlookup(env: dict[str, str], *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "twlookup", *args], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def _wait_until_up(base: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 180
    while True:
        assert proc.poll() is None, f"{base} exited:\n{log.read_text()}"
        assert time.monotonic() < deadline, f"{base} did not answer within 180 s:\n{log.read_text()}"
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)


@pytest.fixture
def two_processes(database: str, redis_url: str, tmp_path: Path) -> Iterator[tuple[list[str], dict[str, str]]]:
    env = _env(database, redis_url)
    procs, bases = [], []
    try:
        for n in range(2):  # started together on an empty database: one migrates and seeds, the other waits
            port = _port()
            log = tmp_path / f"serve-{n}.log"
            with log.open("w") as sink:
                procs.append(
                    (
                        subprocess.Popen(
                            [sys.executable, "-m", "twlookup", "serve", "--port", str(port), "--no-access-log"],
                            env=env,
                            cwd=tmp_path,
                            stdout=sink,
                            stderr=subprocess.STDOUT,
                        ),
                        log,
                    )
                )
            bases.append(f"http://127.0.0.1:{port}")
        for base, (proc, log) in zip(bases, procs):
            _wait_until_up(base, proc, log)
        yield bases, env
    finally:
        for proc, _log in procs:
            proc.send_signal(signal.SIGINT)
        for proc, _log in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


def test_two_processes_share_limits_payments_and_imports(two_processes):
    (a, b), env = two_processes
    for base in (a, b):
        health = httpx.get(f"{base}/healthz", timeout=5).json()
        assert health["store"] == "postgresql" and health["rate_limit_storage"] == "redis", health

    # a limit of 5 a minute, counted in Redis: the sixth call is refused whichever process takes it
    codes = [httpx.get(f"{base}{LIMITED}", timeout=10).status_code for base in (a, b, a, b, a, b, a)]
    assert codes == [200, 200, 200, 200, 200, 429, 429], codes

    # one payment settles once: the same authorization replayed on the other process is refused
    payer = Account.create()
    _twlookup(env, "ledger", "fund", payer.address, "1")
    body = {"ids": ["gpt-4-0613"]}
    # the first paid request loads the x402 SDK: on a busy machine (two test workers) past httpx's 5 s default
    challenge = httpx.post(f"{a}/models/api/pro/audit", json=body, timeout=60)
    required = PaymentRequired.model_validate_json(challenge.content)
    client = x402ClientSync()
    client.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(payer)))
    header = {"PAYMENT-SIGNATURE": encode_payment_signature_header(client.create_payment_payload(required))}
    paid = httpx.post(f"{a}/models/api/pro/audit", json=body, headers=header, timeout=30)
    assert paid.status_code == 200, paid.text
    replay = httpx.post(f"{b}/models/api/pro/audit", json=body, headers=header, timeout=30)
    assert replay.status_code == 402 and "already used" in replay.json()["error"], replay.text
    price = int(required.accepts[0].amount)
    shown = _twlookup(env, "ledger", "show", payer.address)
    assert f": {(1_000_000 - price) / 1_000_000:g} USDC" in shown, shown  # charged once

    # an import into the store is served by both processes within seconds, with no restart
    for base in (a, b):
        before = httpx.get(f"{base}/trip/api/fx", params={"cur": "JPY"}, timeout=10).json()
        assert before["sample"] is True
    _twlookup(env, "ingest", "trip.fx", str(FX_FILE))
    for base in (a, b):
        deadline = time.monotonic() + 15
        while True:
            after = httpx.get(f"{base}/trip/api/fx", params={"cur": "JPY"}, timeout=10).json()
            if after["sample"] is False:
                break
            assert time.monotonic() < deadline, f"{base} still serves the sample board"
            time.sleep(0.2)
        assert after["posted_at"] == "2026-11-22T16:00:00+08:00"
        assert after["rates"][0]["currency"] == "JPY" and after["rates"][0]["cash_sell"] == 0.205
