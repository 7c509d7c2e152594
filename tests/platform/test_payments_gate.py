"""The x402 gate through HTTP: every way a payment is refused, settlement only after success,
the not-open switch, and the remote facilitator (recorded responses, down, slow)."""

import time

import httpx
import pytest
import respx
from eth_account import Account
from pydantic import BaseModel, Field
from x402 import PaymentRequired, x402ClientSync
from x402.http.utils import decode_payment_response_header, encode_payment_signature_header
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.signers import EthAccountSigner
from x402.mechanisms.evm.types import ExactEIP3009Authorization, ExactEIP3009Payload
from x402.mechanisms.evm.utils import create_nonce
from x402.schemas import PaymentPayload

from twlookup.app import create_app
from twlookup.platform.errors import NotFound
from twlookup.platform.operations import Params
from twlookup.platform.payments.ledger import Ledger
from twlookup.platform.schemas import Source
from twlookup.platform.service import Service

pytestmark = pytest.mark.asyncio


class Q(Params):
    n: int = Field(ge=0, le=9, description="0 makes the route fail after payment was verified")


class A(BaseModel):
    n: int
    source: Source


def shop() -> Service:
    service = Service(name="bikes", title="t", description="paid test service")

    @service.operation("GET", "/api/pro/item", price="$0.02")
    def item(p: Q) -> A:
        """A paid item."""
        if p.n == 0:
            raise NotFound("item", "0")
        return A(n=p.n, source=Source(url="https://example.org", checked="2026-11-22"))

    @service.operation("GET", "/api/pro/export", price="$0.05")
    def export() -> A:
        """A paid export."""
        return A(n=1, source=Source(url="https://example.org", checked="2026-11-22"))

    return service


def app_client(settings, **overrides) -> httpx.AsyncClient:
    app = create_app(settings.model_copy(update=overrides), services=[shop()])
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


async def challenge(c: httpx.AsyncClient, url: str) -> PaymentRequired:
    r = await c.get(url)
    assert r.status_code == 402
    return PaymentRequired.model_validate_json(r.content)


def pay(account, required: PaymentRequired) -> str:
    client = x402ClientSync()
    client.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(account)))
    client.set_spend_controls(False)  # let the tests sign requirements the client would refuse
    return encode_payment_signature_header(client.create_payment_payload(required))


def pay_window(account, required: PaymentRequired, after: int, before: int) -> str:
    req = required.accepts[0]
    auth = ExactEIP3009Authorization(
        from_address=account.address,
        to=req.pay_to,
        value=req.amount,
        valid_after=str(after),
        valid_before=str(before),
        nonce=create_nonce(),
    )
    signature = ExactEvmClientScheme(EthAccountSigner(account))._sign_authorization(auth, req)
    payload = PaymentPayload(
        payload=ExactEIP3009Payload(authorization=auth, signature=signature).to_dict(), accepted=req
    )
    return encode_payment_signature_header(payload)


@pytest.fixture
def payer(settings):
    account = Account.create()
    create_app(settings, services=[shop()])  # points the store at the test database
    Ledger(settings.evm_mainnet).fund(account.address, 1_000_000)
    return account


async def test_paid_then_settled_and_failed_route_charges_nothing(settings, payer):
    ledger = Ledger(settings.evm_mainnet)
    async with app_client(settings) as c:
        required = await challenge(c, "/bikes/api/pro/item?n=0")
        r = await c.get("/bikes/api/pro/item?n=0", headers={"PAYMENT-SIGNATURE": pay(payer, required)})
        assert r.status_code == 404 and "payment-response" not in r.headers
        assert ledger.balance(payer.address) == 1_000_000  # the route failed: nothing settled
        required = await challenge(c, "/bikes/api/pro/item?n=3")
        r = await c.get("/bikes/api/pro/item?n=3", headers={"PAYMENT-SIGNATURE": pay(payer, required)})
        assert r.status_code == 200 and r.json()["n"] == 3
        assert decode_payment_response_header(r.headers["payment-response"]).success
        assert ledger.balance(payer.address) == 1_000_000 - 20_000


async def test_payment_for_another_route_price_is_refused(settings, payer):
    async with app_client(settings) as c:
        cheap = await challenge(c, "/bikes/api/pro/item?n=1")  # $0.02
        r = await c.get("/bikes/api/pro/export", headers={"PAYMENT-SIGNATURE": pay(payer, cheap)})  # $0.05 route
        assert r.status_code == 402 and r.json()["error"].startswith("invalid_payment_requirements")


async def test_wrong_receiver_and_network_are_refused(settings, payer):
    async with app_client(settings) as c:
        required = await challenge(c, "/bikes/api/pro/item?n=1")
        other = required.model_copy(deep=True)
        other.accepts[0].pay_to = Account.create().address
        r = await c.get("/bikes/api/pro/item?n=1", headers={"PAYMENT-SIGNATURE": pay(payer, other)})
        assert r.status_code == 402 and r.json()["error"].startswith("invalid_payment_requirements")
        other = required.model_copy(deep=True)
        other.accepts[0].network = settings.evm_testnet
        r = await c.get("/bikes/api/pro/item?n=1", headers={"PAYMENT-SIGNATURE": pay(payer, other)})
        assert r.status_code == 402 and r.json()["error"].startswith("invalid_payment_requirements")


@pytest.mark.parametrize(
    ("after", "before", "reason"),
    [(0, lambda now: now - 60, "valid_before"), (lambda now: now + 3600, lambda now: now + 7200, "valid_after")],
)
async def test_validity_window_is_enforced(settings, payer, after, before, reason):
    now = int(time.time())
    after = after(now) if callable(after) else after
    before = before(now)
    async with app_client(settings) as c:
        required = await challenge(c, "/bikes/api/pro/item?n=1")
        r = await c.get(
            "/bikes/api/pro/item?n=1", headers={"PAYMENT-SIGNATURE": pay_window(payer, required, after, before)}
        )
        assert r.status_code == 402
        assert reason in r.json()["error"].lower()


async def test_bad_signature_and_insufficient_balance(settings, payer):
    poor = Account.create()
    async with app_client(settings) as c:
        required = await challenge(c, "/bikes/api/pro/item?n=1")
        r = await c.get("/bikes/api/pro/item?n=1", headers={"PAYMENT-SIGNATURE": pay(poor, required)})
        assert r.status_code == 402 and "insufficient" in r.json()["error"].lower()
        header = pay(payer, required)
        from x402.http.utils import decode_payment_signature_header

        payload = decode_payment_signature_header(header)
        sig = bytearray(bytes.fromhex(payload.payload["signature"][2:]))
        sig[5] ^= 1
        forged = payload.model_copy(update={"payload": dict(payload.payload, signature="0x" + sig.hex())})
        r = await c.get(
            "/bikes/api/pro/item?n=1", headers={"PAYMENT-SIGNATURE": encode_payment_signature_header(forged)}
        )
        assert r.status_code == 402 and "signature" in r.json()["error"].lower()
        assert Ledger(settings.evm_mainnet).balance(payer.address) == 1_000_000


async def test_v1_and_malformed_headers(settings):
    import base64
    import json

    async with app_client(settings) as c:
        v1 = base64.b64encode(
            json.dumps({"x402Version": 1, "scheme": "exact", "network": "base", "payload": {}}).encode()
        ).decode()
        r = await c.get("/bikes/api/pro/item?n=1", headers={"X-PAYMENT": v1})
        assert r.status_code == 402 and r.json()["error"].split(":")[0] in ("invalid_x402_version", "invalid_payload")
        r = await c.get("/bikes/api/pro/item?n=1", headers={"PAYMENT-SIGNATURE": "!!!"})
        assert r.status_code == 402 and r.json()["error"].startswith("invalid_payload")


async def test_not_open_switch_answers_before_payment(settings):
    async with app_client(settings, pro_closed=["bikes:/api/pro/export"]) as c:
        r = await c.get("/bikes/api/pro/export")
        assert r.status_code == 403 and r.json()["type"].endswith("/not-open")
        assert (await c.get("/bikes/api/pro/item?n=1")).status_code == 402
    async with app_client(settings, pro_closed=["bikes"]) as c:
        assert (await c.get("/bikes/api/pro/item?n=1")).status_code == 403


FACILITATOR = "https://facilitator.test"
SUPPORTED = {
    "kinds": [{"x402Version": 2, "scheme": "exact", "network": "eip155:8453"}],
    "extensions": [],
    "signers": {},
}


@respx.mock(assert_all_called=False)
async def test_remote_facilitator_verify_and_settle(settings, payer, respx_mock):
    respx_mock.get(f"{FACILITATOR}/supported").respond(json=SUPPORTED)
    verify = respx_mock.post(f"{FACILITATOR}/verify").respond(json={"isValid": True, "payer": payer.address})
    settle = respx_mock.post(f"{FACILITATOR}/settle").respond(
        json={"success": True, "transaction": "0x" + "ab" * 32, "network": "eip155:8453", "payer": payer.address}
    )
    async with app_client(settings, facilitator="remote", facilitator_url=FACILITATOR) as c:
        required = await challenge(c, "/bikes/api/pro/item?n=2")
        r = await c.get("/bikes/api/pro/item?n=2", headers={"PAYMENT-SIGNATURE": pay(payer, required)})
        assert r.status_code == 200 and r.json()["n"] == 2
        assert decode_payment_response_header(r.headers["payment-response"]).transaction == "0x" + "ab" * 32
        assert verify.call_count == 1 and settle.call_count == 1
        verify.respond(json={"isValid": False, "invalidReason": "insufficient_funds", "invalidMessage": "not enough"})
        r = await c.get("/bikes/api/pro/item?n=2", headers={"PAYMENT-SIGNATURE": pay(payer, required)})
        assert r.status_code == 402 and r.json()["error"].startswith("insufficient_funds")
        assert settle.call_count == 1  # refused at verify: never settled


@respx.mock(assert_all_called=False)
async def test_remote_facilitator_down_or_slow_is_503_and_charges_nothing(settings, payer, respx_mock):
    respx_mock.get(f"{FACILITATOR}/supported").respond(json=SUPPORTED)
    verify = respx_mock.post(f"{FACILITATOR}/verify").respond(503, text="down")
    settle = respx_mock.post(f"{FACILITATOR}/settle")
    async with app_client(
        settings, facilitator="remote", facilitator_url=FACILITATOR, facilitator_timeout_seconds=0.5
    ) as c:
        required = await challenge(c, "/bikes/api/pro/item?n=2")
        r = await c.get("/bikes/api/pro/item?n=2", headers={"PAYMENT-SIGNATURE": pay(payer, required)})
        assert r.status_code == 503 and r.headers["content-type"] == "application/problem+json"
        assert r.json()["type"].endswith("/facilitator-unavailable") and r.headers["retry-after"] == "30"
        verify.side_effect = httpx.ReadTimeout("slow facilitator")
        began = time.monotonic()
        r = await c.get("/bikes/api/pro/item?n=2", headers={"PAYMENT-SIGNATURE": pay(payer, required)})
        assert r.status_code == 503 and time.monotonic() - began < 5
        assert settle.call_count == 0


@respx.mock(assert_all_called=False)
async def test_remote_facilitator_unreachable_at_challenge(settings, respx_mock):
    respx_mock.get(f"{FACILITATOR}/supported").mock(side_effect=httpx.ConnectError("refused"))
    async with app_client(settings, facilitator="remote", facilitator_url=FACILITATOR) as c:
        r = await c.get("/bikes/api/pro/item?n=2")
        assert r.status_code == 503


@respx.mock(assert_all_called=False)
async def test_a_facilitator_that_does_not_settle_the_routes_network_is_503(settings, respx_mock):
    """x402.org's facilitator settles on test networks only: a mainnet route behind it cannot be
    paid, which is a 503 naming the network (the operator's configuration), never a 500."""
    testnet_only = {"kinds": [{"x402Version": 2, "scheme": "exact", "network": "eip155:84532"}], "extensions": []}
    respx_mock.get(f"{FACILITATOR}/supported").respond(json=testnet_only)
    async with app_client(settings, facilitator="remote", facilitator_url=FACILITATOR) as c:
        r = await c.get("/bikes/api/pro/item?n=2")
    assert r.status_code == 503 and r.headers["retry-after"] == "300"
    assert r.json()["type"].endswith("/facilitator-unavailable")
    assert "does not settle on eip155:8453" in r.json()["detail"]


async def test_402_publishes_bazaar_discovery_with_the_route_schemas(settings):
    from x402.extensions.bazaar import validate_discovery_extension

    async with app_client(settings) as c:
        required = await challenge(c, "/bikes/api/pro/item?n=1")
    bazaar = required.extensions["bazaar"]
    assert validate_discovery_extension(bazaar).valid
    assert bazaar["info"]["input"]["method"] == "GET"
    query = bazaar["schema"]["properties"]["input"]["properties"]["queryParams"]
    assert query["properties"]["n"] == {  # a query value is the string it is on the wire
        "type": "string",
        "pattern": "^-?[0-9]+$",
        "description": "0 makes the route fail after payment was verified (integer; minimum 0, maximum 9)",
    }
    async with app_client(settings) as c:
        listing = (await c.get("/bikes/api/pro")).json()["paid_routes"]
    assert {r["path"] for r in listing} == {"/bikes/api/pro/item", "/bikes/api/pro/export"}
    assert all(r["output_schema"]["type"] == "object" for r in listing)


async def test_price_override_changes_challenge_listing_and_openapi(settings):
    async with app_client(settings, prices={"bikes:/api/pro/export": "$0.25"}) as c:
        r = await c.get("/bikes/api/pro/export")
        assert r.status_code == 402
        required = PaymentRequired.model_validate_json(r.content)
        assert required.accepts[0].amount == "250000"  # 0.25 USDC in 6-decimal units
        item = PaymentRequired.model_validate_json((await c.get("/bikes/api/pro/item?n=1")).content)
        assert item.accepts[0].amount == "20000"  # not overridden: the declared $0.02
        listed = {x["path"]: x["price_usd"] for x in (await c.get("/bikes/api/pro")).json()["paid_routes"]}
        assert listed == {"/bikes/api/pro/item": "$0.02", "/bikes/api/pro/export": "$0.25"}
        doc = (await c.get("/bikes/openapi.json")).json()
        assert doc["paths"]["/api/pro/export"]["get"]["x-price-usd"] == "$0.25"


SOLANA = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
SOLANA_PAY_TO = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
FEE_PAYER = "EwWqGE4ZFKLofuestmU4LDdK7XM1N4ALgdZccwYugwGd"


def solana_shop() -> Service:
    service = shop()
    service.solana = True
    return service


@respx.mock(assert_all_called=False)
async def test_solana_usdc_is_a_second_option_where_the_facilitator_settles_it(settings, respx_mock):
    supported = {
        "kinds": SUPPORTED["kinds"]
        + [{"x402Version": 2, "scheme": "exact", "network": SOLANA, "extra": {"feePayer": FEE_PAYER}}],
        "extensions": [],
        "signers": {},
    }
    respx_mock.get(f"{FACILITATOR}/supported").respond(json=supported)
    remote = dict(facilitator="remote", facilitator_url=FACILITATOR, pay_to_svm=SOLANA_PAY_TO)
    app = create_app(settings.model_copy(update=remote), services=[solana_shop()])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        accepts = (await challenge(c, "/bikes/api/pro/item?n=1")).accepts
    assert [a.network for a in accepts] == ["eip155:8453", SOLANA]
    svm = accepts[1]
    assert svm.asset == "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"  # USDC's mint on Solana
    assert (svm.amount, svm.pay_to, svm.extra["feePayer"]) == ("20000", SOLANA_PAY_TO, FEE_PAYER)

    # a service that does not state Solana, and a facilitator that does not settle it: EVM only
    async with app_client(settings.model_copy(update=remote)) as c:
        assert [a.network for a in (await challenge(c, "/bikes/api/pro/item?n=1")).accepts] == ["eip155:8453"]
    respx_mock.get(f"{FACILITATOR}/supported").respond(json=SUPPORTED)
    app = create_app(settings.model_copy(update=remote), services=[solana_shop()])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        assert [a.network for a in (await challenge(c, "/bikes/api/pro/item?n=1")).accepts] == ["eip155:8453"]


async def test_local_ledger_offers_evm_only_even_for_solana_services(settings):
    app = create_app(settings.model_copy(update={"pay_to_svm": SOLANA_PAY_TO}), services=[solana_shop()])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        assert [a.network for a in (await challenge(c, "/bikes/api/pro/item?n=1")).accepts] == ["eip155:8453"]


async def test_a_private_service_keeps_its_query_out_of_the_payment_resource(settings):
    private = shop()
    private.private = True
    app = create_app(settings, services=[private])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        required = await challenge(c, "/bikes/api/pro/item?n=7")
    assert required.resource.url == "http://t/bikes/api/pro/item"  # signed into the payment, seen by the facilitator
    async with app_client(settings) as c:
        assert (
            await challenge(c, "/bikes/api/pro/item?n=7")
        ).resource.url == "http://testserver/bikes/api/pro/item?n=7"
