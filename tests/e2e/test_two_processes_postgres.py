"""Two `twlookup serve` processes sharing PostgreSQL: one payment authorization, sent to both at
once, is accepted by exactly one of them."""

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest
from eth_account import Account
from stores import empty_store
from x402 import PaymentRequired, x402ClientSync
from x402.http.utils import encode_payment_signature_header
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.signers import EthAccountSigner

from twlookup.platform.store import engine as store_engine

PG = os.environ.get("TWLOOKUP_TEST_DATABASE_URL")
pytestmark = pytest.mark.skipif(
    not PG, reason="TWLOOKUP_TEST_DATABASE_URL is not set (needs PostgreSQL; .ci/run sets it)"
)


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_one_authorization_is_accepted_once_across_processes(settings):
    empty_store(PG)
    env = dict(os.environ, TWLOOKUP_DATABASE_URL=PG)
    payer = Account.create()
    subprocess.run(
        [sys.executable, "-m", "twlookup", "ledger", "fund", payer.address, "1"],
        env=env,
        check=True,
        capture_output=True,
    )
    ports = [_port(), _port()]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "twlookup", "serve", "--port", str(p), "--no-access-log", "--log-level", "warning"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for p in ports
    ]
    try:
        for p, proc in zip(ports, procs, strict=True):
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(f"http://127.0.0.1:{p}/healthz", timeout=1)
                    break
                except httpx.HTTPError:
                    assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else "exited"
                    assert time.monotonic() < deadline, "server did not start"
                    time.sleep(0.1)
        body = {"ids": ["gpt-4-0613"]}
        challenge = httpx.post(f"http://127.0.0.1:{ports[0]}/models/api/pro/audit", json=body)
        client = x402ClientSync()
        client.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(payer)))
        header = encode_payment_signature_header(
            client.create_payment_payload(PaymentRequired.model_validate_json(challenge.content))
        )

        async def both() -> list[httpx.Response]:
            async with httpx.AsyncClient(timeout=30) as http:
                return await asyncio.gather(
                    *(
                        http.post(
                            f"http://127.0.0.1:{p}/models/api/pro/audit",
                            json=body,
                            headers={"PAYMENT-SIGNATURE": header},
                        )
                        for p in ports
                    )
                )

        codes = sorted(r.status_code for r in asyncio.run(both()))
        assert codes == [200, 402]
        env_show = subprocess.run(
            [sys.executable, "-m", "twlookup", "ledger", "show", payer.address],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert ": 0.98 USDC" in env_show.stdout  # charged once
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=10)
        store_engine.configure(settings.database_url)
