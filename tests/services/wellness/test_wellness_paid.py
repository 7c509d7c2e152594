"""The one paid route, paid for on the testnet the spec states for wellness, with the x402 SDK's
own client (the whole-app e2e test funds its payer on the mainnet only; see the report)."""

import os
import subprocess
import sys

import httpx
import pytest
from eth_account import Account
from x402 import x402Client
from x402.http.clients.httpx import x402AsyncTransport
from x402.http.utils import decode_payment_response_header
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.signers import EthAccountSigner

from twlookup.platform.payments.ledger import Ledger

pytestmark = pytest.mark.asyncio


async def test_pay_for_the_export_on_the_testnet(live_url, settings):
    payer = Account.create()
    env = dict(os.environ, TWLOOKUP_DATABASE_URL=settings.database_url)
    fund = [sys.executable, "-m", "twlookup", "ledger", "fund", payer.address, "1", "--network", settings.evm_testnet]
    assert "funded" in subprocess.run(fund, env=env, capture_output=True, text=True, check=True).stdout
    ledger = Ledger(settings.evm_testnet)
    treasury_before = ledger.balance(settings.pay_to_evm)

    client = x402Client()
    client.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(payer)))
    async with httpx.AsyncClient(transport=x402AsyncTransport(client), base_url=live_url, timeout=30) as http:
        r = await http.get("/wellness/api/pro/export")
    assert r.status_code == 200, r.text
    receipt = decode_payment_response_header(r.headers["payment-response"])
    assert receipt.success and receipt.network == settings.evm_testnet
    body = r.json()
    assert body["telehealth"]["count"] == 11 and {i["id"] for i in body["instruments"]} == {"bsrs5", "phq9", "gad7"}
    assert ledger.balance(payer.address) == 1_000_000 - 50_000  # US$0.05 in 6-decimal USDC
    assert ledger.balance(settings.pay_to_evm) == treasury_before + 50_000
