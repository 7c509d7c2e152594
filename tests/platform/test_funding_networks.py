"""Paid routes are priced on two networks (Base for some services, Base Sepolia for the ones the
spec marks testnet): a payer funded on one only is told, on the other, which network lacks funds
and how to fund it, over REST (the x402 SDK's httpx client) and over MCP; and the README's
funding commands fund every network a paid route is priced on."""

import re

import httpx
from eth_account import Account
from x402 import x402Client
from x402.http.clients.httpx import x402AsyncTransport
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.signers import EthAccountSigner

from tests.docs_text import all_docs
from twlookup.platform.payments.ledger import Ledger
from twlookup.services import load_services


def _payer_on(network: str):
    payer = Account.create()
    Ledger(network).fund(payer.address, 1_000_000)
    client = x402Client()
    client.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(payer)))
    return payer, client


async def test_an_unfunded_network_is_named_over_rest(app, client, settings):
    payer, x402 = _payer_on(settings.evm_mainnet)  # funded on Base only
    transport = x402AsyncTransport(x402, transport=httpx.ASGITransport(app=app))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        r = await http.get("/glossary/api/pro/export")  # glossary is priced on the test network
        assert r.status_code == 402
        error = r.json()["error"]
        assert error.startswith("invalid_exact_evm_insufficient_balance") or error.startswith("insufficient_funds")
        assert settings.evm_testnet in error and f"--network {settings.evm_testnet}" in error
        paid = await http.get("/models/api/pro/export")  # models, on Base, is paid
        assert paid.status_code == 200
    assert Ledger(settings.evm_testnet).balance(payer.address) == 0


async def test_an_unfunded_network_is_named_over_mcp(client, settings):
    _payer_account, x402 = _payer_on(settings.evm_mainnet)
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "pro_export", "arguments": {}}}
    required = (await client.post("/glossary/mcp", json=call)).json()["result"]["structuredContent"]
    from x402.schemas import PaymentRequired

    payload = await x402.create_payment_payload(PaymentRequired.model_validate(required))
    paid = dict(call, params=dict(call["params"], _meta={"x402/payment": payload.model_dump(by_alias=True)}))
    result = (await client.post("/glossary/mcp", json=paid)).json()["result"]
    assert result["isError"] and settings.evm_testnet in result["structuredContent"]["error"]


def test_the_readme_funds_every_network_the_paid_routes_are_priced_on(settings):
    networks = {settings.evm_testnet if s.network == "testnet" else settings.evm_mainnet for s in load_services()}
    text = all_docs()  # the README and docs/
    funded = set()
    for line in re.findall(r"^.*twlookup ledger fund .*$", text, flags=re.M):
        named = re.search(r"--network (\S+)", line)
        funded.add(named.group(1) if named else settings.evm_mainnet)  # the command's default network
    assert networks <= funded, networks - funded
