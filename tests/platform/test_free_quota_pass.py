"""The free quota and the pass (spec: food's free endpoints have a per-minute free quota; past
it a client pays each call by x402 or shows a pass bought at {pay_url}/pass)."""

import httpx
import pytest
from eth_account import Account
from pydantic import BaseModel, Field
from x402 import PaymentRequired, x402ClientSync
from x402.http.utils import decode_payment_response_header, encode_payment_signature_header
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.signers import EthAccountSigner

from twlookup.app import create_app
from twlookup.platform.operations import Params
from twlookup.platform.payments.ledger import Ledger
from twlookup.platform.payments.passes import PassBook, PassRefused
from twlookup.platform.service import Service

QUOTA = 3


class Q(Params):
    n: int = Field(ge=1, le=9)


class A(BaseModel):
    n: int


def food() -> Service:
    service = Service(name="food", title="t", description="quota test service", free_quota=True)

    @service.operation("GET", "/api/dish", tool="draw_dish")
    def dish(p: Q) -> A:
        """A free dish."""
        return A(n=p.n)

    return service


def other() -> Service:
    service = Service(name="models", title="t", description="no quota")

    @service.operation("GET", "/api/dish", tool="draw_dish")
    def dish(p: Q) -> A:
        """A free dish."""
        return A(n=p.n)

    return service


def client(settings, **overrides) -> httpx.AsyncClient:
    update = {"free_quota_per_minute": QUOTA, "pass_secret": "test-secret", **overrides}
    app = create_app(settings.model_copy(update=update), services=[food(), other()])
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


def pay(account, response: httpx.Response) -> str:
    x402 = x402ClientSync()
    x402.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(account)))
    return encode_payment_signature_header(
        x402.create_payment_payload(PaymentRequired.model_validate_json(response.content))
    )


@pytest.fixture
def payer(settings):
    account = Account.create()
    create_app(settings, services=[food()])  # points the store at the test database
    Ledger(settings.evm_mainnet).fund(account.address, 2_000_000)
    return account


async def use_up_quota(c: httpx.AsyncClient) -> None:
    for _ in range(QUOTA):
        assert (await c.get("/food/api/dish?n=1")).status_code == 200


async def test_past_the_quota_a_call_costs_the_quota_price_or_a_pass(settings):
    async with client(settings) as c:
        await use_up_quota(c)
        r = await c.get("/food/api/dish?n=1")
        assert r.status_code == 402
        required = PaymentRequired.model_validate_json(r.content)
        assert required.accepts[0].amount == "1000"  # $0.001 in USDC micro-units
        assert "Free quota of 3 calls per minute used up" in required.error and "/pay/pass" in required.error
        # bad input is still a 422, not a payment request
        assert (await c.get("/food/api/dish?n=0")).status_code == 422
        # services without a quota are untouched
        for _ in range(QUOTA + 2):
            assert (await c.get("/models/api/dish?n=1")).status_code == 200


async def test_pay_one_call_past_the_quota(settings, payer):
    ledger = Ledger(settings.evm_mainnet)
    async with client(settings) as c:
        await use_up_quota(c)
        challenge = await c.get("/food/api/dish?n=4")
        r = await c.get("/food/api/dish?n=4", headers={"PAYMENT-SIGNATURE": pay(payer, challenge)})
        assert r.status_code == 200 and r.json() == {"n": 4}
        assert decode_payment_response_header(r.headers["payment-response"]).success
    assert ledger.balance(payer.address) == 2_000_000 - 1_000


async def test_buy_a_pass_and_go_past_the_quota(settings, payer):
    ledger = Ledger(settings.evm_mainnet)
    async with client(settings) as c:
        challenge = await c.get("/pay/pass")
        assert challenge.status_code == 402
        assert PaymentRequired.model_validate_json(challenge.content).accepts[0].amount == "500000"  # $0.50
        r = await c.get("/pay/pass", headers={"PAYMENT-SIGNATURE": pay(payer, challenge)})
        assert r.status_code == 200, r.text
        bought = r.json()
        assert (
            bought["services"] == ["food"] and bought["valid_hours"] == 24 and bought["free_quota_per_minute"] == QUOTA
        )
        auth = {"Authorization": f"Bearer {bought['token']}"}
        await use_up_quota(c)
        for n in range(1, 6):
            r = await c.get(f"/food/api/dish?n={n}", headers=auth)
            assert r.status_code == 200 and "payment-response" not in r.headers
        # MCP past the quota: refused without the pass, served with it
        call = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "draw_dish", "arguments": {"n": 2}},
        }
        r = await c.post("/food/mcp", json=call)  # a tool result the client can read, not an HTTP 402
        refused = r.json()["result"]
        assert r.status_code == 200 and refused["isError"]
        assert refused["structuredContent"]["type"].endswith("/quota-exceeded")
        r = await c.post("/food/mcp", json=call, headers=auth)
        assert r.status_code == 200 and r.json()["result"]["structuredContent"] == {"n": 2}
    assert ledger.balance(payer.address) == 2_000_000 - 500_000


async def test_a_pass_of_another_server_or_expired_is_refused(settings):
    foreign = PassBook("another-secret", 24).issue().token
    expired = PassBook("test-secret", 1).issue(now=0).token
    async with client(settings) as c:
        for token, why in [
            (foreign, "signature"),
            (expired, "expired"),
            ("twp1.abc", "not a twlookup pass"),
            ("twp1.e30.x", "signature"),
        ]:
            r = await c.get("/food/api/dish?n=1", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 401 and why in r.json()["detail"], (token, r.text)
            assert r.headers["www-authenticate"].startswith("Bearer")


async def test_the_shop_refuses_what_it_does_not_sell(settings):
    async with client(settings) as c:
        assert (await c.get("/pay/other")).status_code == 404
        assert (await c.post("/pay/pass")).status_code == 405
        r = await c.get("/pay/pass?days=3")
        assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "days"
    async with client(settings, payments_enabled=False) as c:
        assert (await c.get("/pay/pass")).status_code == 404  # nothing is sold with payments off
        await use_up_quota(c)
        r = await c.get("/food/api/dish?n=1")
        assert r.status_code == 402 and r.json()["type"].endswith("/quota-exceeded")


async def test_quota_size_is_a_setting(settings):
    async with client(settings, free_quota_per_minute=5) as c:
        for _ in range(5):
            assert (await c.get("/food/api/dish?n=1")).status_code == 200
        assert (await c.get("/food/api/dish?n=1")).status_code == 402


def test_pass_tokens_round_trip_and_tamper(settings):
    book = PassBook("k", 2)
    issued = book.issue(now=1_000)
    assert issued.expires_at == 1_000 + 2 * 3600
    assert book.check(issued.token, now=1_001).pass_id == issued.pass_id
    with pytest.raises(PassRefused, match="expired"):
        book.check(issued.token, now=issued.expires_at)
    prefix, payload, sig = issued.token.split(".")
    with pytest.raises(PassRefused, match="signature"):
        book.check(f"{prefix}.{payload}x.{sig}", now=1_001)


def test_without_a_configured_secret_the_store_keeps_one_key(settings):
    create_app(settings, services=[food()])
    first, second = PassBook(None, 1), PassBook(None, 1)
    assert first.check(second.issue().token)  # two processes sharing a store accept each other's passes
