"""The paid routes, paid for with the x402 SDK's own client on the testnet the spec states for
price (Base Sepolia), settled on the local ledger: full history and category export."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx
import pytest
from eth_account import Account
from for_sale import put_on_sale
from x402 import x402Client
from x402.http.clients.httpx import x402AsyncTransport
from x402.http.utils import decode_payment_response_header
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.signers import EthAccountSigner

from twlookup.app import create_app
from twlookup.platform.payments.ledger import Ledger

pytestmark = pytest.mark.asyncio


async def test_pay_for_history_and_export_on_testnet(settings, fresh_store):
    put_on_sale(fresh_store)  # the seeded sample is not sold: these prices stand for a fresh import
    payer = Account.create()
    env = dict(os.environ, TWLOOKUP_DATABASE_URL=fresh_store)
    subprocess.run(
        [sys.executable, "-m", "twlookup", "ledger", "fund", payer.address, "1", "--network", settings.evm_testnet],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    app = create_app(settings.model_copy(update={"database_url": fresh_store}))
    client = x402Client()
    client.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(payer)))
    transport = x402AsyncTransport(client, transport=httpx.ASGITransport(app=app))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver", timeout=30) as http:
        r = await http.get("/price/api/pro/history/la1")
        assert r.status_code == 200, r.text
        assert decode_payment_response_header(r.headers["payment-response"]).success
        body = r.json()
        assert body["product"]["id"] == "LA1"
        days = body["days"]
        assert days[0]["date"] == "2026-08-04" and days[-1]["date"] == "2026-11-21" and body["count"] == len(days) > 90
        assert all(d["price"] == min(m["average"] for m in d["markets"]) for d in days)

        r = await http.get("/price/api/pro/export/fruits")
        assert r.status_code == 200, r.text
        export = r.json()
        assert export["category"]["slug"] == "fruits" and export["count"] == len(export["products"]) == 5
        for item in export["products"]:
            s = item["summary"]
            assert s["min"] <= s["mean"] <= s["max"] and s["end"] == "2026-11-21" and s["start"] == "2026-08-24"
            assert item["product"]["price"] == s["current"] == item["markets"][0]["average"]
    # $0.01 + $0.05 in USDC's 6 decimals, on the testnet ledger
    assert Ledger(settings.evm_testnet).balance(payer.address) == 1_000_000 - 10_000 - 50_000
