"""Paying for trip's routes with the x402 SDK's own client: trip settles on the test network
(spec document 1: trip states a testnet), so the payer is funded on that network's ledger."""

import os
import subprocess
import sys
from decimal import Decimal

import httpx
import pytest
import service_examples
from eth_account import Account
from for_sale import put_on_sale
from x402 import x402Client
from x402.http.clients.httpx import x402AsyncTransport
from x402.http.utils import decode_payment_response_header
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.signers import EthAccountSigner

from twlookup.app import create_app
from twlookup.platform.payments.ledger import Ledger
from twlookup.services.trip.operations import SERVICE

pytestmark = pytest.mark.asyncio


async def test_trip_routes_are_paid_on_the_testnet(settings, fresh_store):
    put_on_sale(fresh_store)  # the sample rate board is not sold: this store's board stands for the bank's
    app = create_app(settings.model_copy(update={"database_url": fresh_store}))
    payer = Account.create()
    env = dict(os.environ, TWLOOKUP_DATABASE_URL=fresh_store)
    subprocess.run(
        [sys.executable, "-m", "twlookup", "ledger", "fund", payer.address, "1", "--network", settings.evm_testnet],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    ledger = Ledger(settings.evm_testnet)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as plain:
        challenge = await plain.get("/trip/api/pro/export")
    assert challenge.status_code == 402 and challenge.json()["accepts"][0]["network"] == settings.evm_testnet

    client = x402Client()
    client.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(payer)))
    spent = 0
    transport = x402AsyncTransport(client, transport=httpx.ASGITransport(app=app))
    async with httpx.AsyncClient(transport=transport, base_url="http://t", timeout=30) as http:
        for op in (o for o in SERVICE.operations if o.paid):
            r = await http.request(op.method, f"/trip{op.path}", **service_examples.pro_calls("trip")[op.path])
            assert r.status_code == 200, (op.path, r.text)
            assert decode_payment_response_header(r.headers["payment-response"]).success
            spent += int(Decimal(op.price.removeprefix("$")) * 10**6)
            assert r.json()["sources"]
    assert spent == 80_000  # US$0.03 + US$0.05
    assert ledger.balance(payer.address) == 1_000_000 - spent
