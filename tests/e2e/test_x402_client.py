"""x402 end to end: the SDK's own httpx client, with an eth-account key funded on the local
ledger by `twlookup ledger fund`, pays for every /api/pro route of every implemented service."""

from decimal import Decimal

import httpx
import pytest
import service_examples
from conftest import fund
from eth_account import Account
from for_sale import put_on_sale
from x402 import x402Client
from x402.http.clients.httpx import x402AsyncTransport
from x402.http.utils import decode_payment_response_header
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.signers import EthAccountSigner

from twlookup.app import create_app
from twlookup.platform.payments.ledger import Ledger
from twlookup.services import load_services

pytestmark = pytest.mark.asyncio

# One valid call per paid route (tests/services/<name>/examples.py); a paid route without one fails.
CALLS = {(s.name, path): call for s in load_services() for path, call in service_examples.pro_calls(s.name).items()}
# The concrete path to request for a declared path with {parameters} (tests/services/<name>/examples.py PRO_PATHS).
PATHS = {(s.name, path): url for s in load_services() for path, url in service_examples.pro_paths(s.name).items()}


@pytest.fixture
def sale_url(settings, fresh_store):
    """The app served by a real uvicorn over a store in which every paid route is for sale
    (tests/for_sale.py; the seeded store sells nothing sample or stale)."""
    import socket
    import threading
    import time

    import uvicorn

    put_on_sale(fresh_store)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    app = create_app(settings.model_copy(update={"database_url": fresh_store}))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "test server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", fresh_store
    server.should_exit = True
    thread.join(timeout=5)


async def test_pay_for_every_pro_route_then_replay(sale_url, settings):
    live_url, db_url = sale_url
    payer = Account.create()
    networks = {"mainnet": settings.evm_mainnet, "testnet": settings.evm_testnet}
    ledgers = {n: Ledger(n) for n in networks.values()}
    for network in networks.values():
        fund(payer.address, db_url, "1", network)
    treasury_before = {n: ledger.balance(settings.pay_to_evm) for n, ledger in ledgers.items()}

    paid_ops = [(s, op) for s in load_services() for op in s.operations if op.paid]
    for service in load_services():
        await service_examples.prepare(service.name)
    assert {(s.name, op.path) for s, op in paid_ops} == set(CALLS)

    client = x402Client()
    client.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(payer)))
    sent: list[httpx.Request] = []

    class Recording(httpx.AsyncHTTPTransport):
        """The wire under the SDK's payment transport: sees the paid retries too."""

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            sent.append(request)
            return await super().handle_async_request(request)

    spent = dict.fromkeys(ledgers, 0)
    transport = x402AsyncTransport(client, transport=Recording())
    async with httpx.AsyncClient(transport=transport, base_url=live_url, timeout=30) as http:
        for service, op in paid_ops:
            name = service.name
            path = PATHS.get((name, op.path), op.path)
            with service_examples.mocks(name):
                r = await http.request(op.method, f"/{name}{path}", **CALLS[(name, op.path)])
            assert r.status_code == 200, (name, op.path, r.text)
            receipt = decode_payment_response_header(r.headers["payment-response"])
            assert receipt.success and receipt.transaction.startswith("0x")
            assert receipt.payer.lower() == payer.address.lower()
            spent[networks[service.network]] += int(Decimal(op.price.removeprefix("$")) * 10**6)
            body = r.json()
            if op.path == "/api/pro/audit":
                assert body["unknown"] == ["no-such-model"]
                assert {f["model"]["id"] for f in body["findings"]} == {"gpt-4-0613", "claude-2.1"}
            elif op.path == "/api/pro/trip-plan":
                assert body
            else:
                assert body  # exports are whole documents

    for network, ledger in ledgers.items():
        assert ledger.balance(payer.address) == 1_000_000 - spent[network]
        assert ledger.balance(settings.pay_to_evm) == treasury_before[network] + spent[network]

    signed = [req for req in sent if "payment-signature" in req.headers]
    assert len(signed) == len(paid_ops)
    replay = signed[0]
    async with httpx.AsyncClient(timeout=30) as plain:
        r = await plain.request(
            replay.method,
            str(replay.url),
            headers={"PAYMENT-SIGNATURE": replay.headers["payment-signature"], "content-type": "application/json"},
            content=replay.content,
        )
    assert r.status_code == 402
    assert "nonce" in r.json()["error"].lower() or "used" in r.json()["error"].lower()
    for network, ledger in ledgers.items():
        assert ledger.balance(payer.address) == 1_000_000 - spent[network]  # the replay charged nothing
