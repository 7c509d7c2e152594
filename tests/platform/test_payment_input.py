"""Hostile payment input: any PAYMENT-SIGNATURE / X-PAYMENT header is a 402 saying what is
wrong, never a 5xx; HEAD never settles; no SQL or exception text reaches a body; the challenge
names the configured public URL whatever the Host header says; 402s are not cached."""

from __future__ import annotations

import asyncio
import base64
import json

import httpx
import pytest
from eth_account import Account
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st
from x402.http.utils import decode_payment_signature_header

from twlookup.app import create_app
from twlookup.platform.payments.ledger import Ledger

from .test_payments_gate import challenge, pay, shop

URL = "/bikes/api/pro/item?n=1"


def b64(value: object) -> str:
    return base64.b64encode(json.dumps(value).encode()).decode()


def client(app) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


@pytest.fixture(scope="module")
def app(settings):
    return create_app(settings, services=[shop()])


@pytest.fixture(scope="module")
def valid(settings, app) -> dict:
    """A real signed payload for URL, as a dict, to mutate."""

    async def get() -> str:
        async with client(app) as c:
            return pay(Account.create(), await challenge(c, URL))

    header = asyncio.run(get())
    return decode_payment_signature_header(header).model_dump(by_alias=True, mode="json")


def deep(n: int) -> object:
    value: object = 1
    for _ in range(n):
        value = [value]
    return value


def with_auth(valid: dict, **changes: object) -> dict:
    out = json.loads(json.dumps(valid))
    out["payload"]["authorization"].update(changes)
    return out


HOSTILE = {
    "array": lambda v: b64([v]),
    "string": lambda v: b64("pay me"),
    "number": lambda v: b64(7),
    "null": lambda v: b64(None),
    "deep nesting": lambda v: base64.b64encode(("[" * 5000 + "]" * 5000).encode()).decode(),
    "deep object": lambda v: b64(dict(v, payload=deep(900))),
    "x402Version as string": lambda v: b64(dict(v, x402Version="two")),
    "payload a list": lambda v: b64(dict(v, payload=[1, 2])),
    "accepted a string": lambda v: b64(dict(v, accepted="exact")),
    "authorization a string": lambda v: b64(dict(v, payload={"authorization": "x", "signature": "0x00"})),
    "value not a number": lambda v: b64(with_auth(v, value="lots")),
    "value a float": lambda v: b64(with_auth(v, value="1e5")),
    "value negative": lambda v: b64(with_auth(v, value="-20000")),
    "value an int": lambda v: b64(with_auth(v, value=20000)),
    "validBefore huge": lambda v: b64(with_auth(v, validBefore="9" * 90)),
    "nonce short": lambda v: b64(with_auth(v, nonce="0x12")),
    "from not an address": lambda v: b64(with_auth(v, **{"from": "alice"})),
    "signature a number": lambda v: b64(dict(v, payload=dict(v["payload"], signature=12))),
    "not base64": lambda v: "%%%not base64%%%",
    "not utf-8": lambda v: base64.b64encode(b"\xff\xfe{").decode(),
}


@pytest.mark.asyncio
@pytest.mark.parametrize("case", sorted(HOSTILE))
async def test_hostile_payment_headers_are_402_saying_what_is_wrong(app, valid, case):
    header = HOSTILE[case](valid)
    async with client(app) as c:
        for name in ("PAYMENT-SIGNATURE", "X-PAYMENT"):
            r = await c.get(URL, headers={name: header})
            assert r.status_code == 402, (case, r.status_code, r.text[:300])
            error = r.json()["error"]
            code, _, sentence = error.partition(": ")
            assert code in ("invalid_payload", "invalid_x402_version", "invalid_payment_requirements"), error
            assert sentence and "Traceback" not in r.text


@pytest.mark.asyncio
async def test_version_and_size_refusals_name_the_reason(app, valid):
    async with client(app) as c:
        r = await c.get(URL, headers={"PAYMENT-SIGNATURE": b64(dict(valid, x402Version="2"))})
        assert r.status_code == 402
        assert (
            r.json()["error"]
            == 'invalid_x402_version: x402Version must be the JSON integer 2; this payload has the string "2".'
        )
        big = base64.b64encode(b" " * 70_000).decode()
        r = await c.get(URL, headers={"X-PAYMENT": big})
        assert r.status_code == 402
        assert r.json()["error"] == "invalid_payload: the payment header is 93336 bytes; at most 65536 are accepted."


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)


@hyp_settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_property_no_payment_header_yields_a_5xx(app, valid, data):
    kind = data.draw(st.sampled_from(["any json", "mutated field", "raw text"]))
    if kind == "any json":
        header = b64(data.draw(json_values))
    elif kind == "mutated field":
        mutated = json.loads(json.dumps(valid))
        target = data.draw(st.sampled_from(["top", "payload", "authorization", "accepted"]))
        key = data.draw(
            st.sampled_from(
                sorted(
                    {
                        "top": mutated,
                        "payload": mutated["payload"],
                        "authorization": mutated["payload"]["authorization"],
                        "accepted": mutated["accepted"],
                    }[target]
                )
            )
        )
        {
            "top": mutated,
            "payload": mutated["payload"],
            "authorization": mutated["payload"]["authorization"],
            "accepted": mutated["accepted"],
        }[target][key] = data.draw(json_values)
        header = b64(mutated)
    else:
        header = data.draw(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=200))

    async def go() -> httpx.Response:
        async with client(app) as c:
            return await c.get(URL, headers={"PAYMENT-SIGNATURE": header})

    r = asyncio.run(go())
    assert r.status_code < 500, (r.status_code, r.text[:300])
    assert r.status_code in (200, 402, 422), r.status_code


@pytest.mark.asyncio
async def test_head_never_settles(settings, app):
    account = Account.create()
    Ledger(settings.evm_mainnet).fund(account.address, 1_000_000)
    async with client(app) as c:
        header = pay(account, await challenge(c, URL))
        r = await c.head(URL, headers={"PAYMENT-SIGNATURE": header})
        assert r.status_code == 402 and r.content == b"" and r.headers["payment-required"]
        assert Ledger(settings.evm_mainnet).balance(account.address) == 1_000_000
        r = await c.get(URL, headers={"PAYMENT-SIGNATURE": header})  # the same payment still works by GET
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
        assert Ledger(settings.evm_mainnet).balance(account.address) == 1_000_000 - 20_000


@pytest.mark.asyncio
async def test_failed_ledger_write_puts_no_sql_in_the_body(settings, app, monkeypatch):
    from sqlalchemy.exc import IntegrityError

    from twlookup.platform.payments import ledger

    def broken(self, *args, **kwargs):
        raise IntegrityError(
            "INSERT INTO ledger_transfer (tx_hash, amount) VALUES (%(tx_hash)s, %(amount)s)",
            {"tx_hash": "0xdead", "amount": 20000},
            Exception("duplicate key value violates unique constraint"),
        )

    monkeypatch.setattr(ledger.LedgerSigner, "_transfer_with_authorization", broken)
    account = Account.create()
    Ledger(settings.evm_mainnet).fund(account.address, 1_000_000)
    async with client(app) as c:
        r = await c.get(URL, headers={"PAYMENT-SIGNATURE": pay(account, await challenge(c, URL))})
    assert r.status_code in (402, 503), r.status_code
    for leak in ("INSERT", "ledger_transfer", "duplicate key", "0xdead", "IntegrityError", "Traceback"):
        assert leak not in r.text, leak
    if r.status_code == 402:
        assert r.json()["error"].split(":")[0] in (
            "unexpected_settle_error",
            "transaction_failed",
            "invalid_transaction_state",
        )


@pytest.mark.asyncio
async def test_challenge_names_the_public_url_not_the_host_header(settings):
    app = create_app(settings.model_copy(update={"public_url": "https://api.example.org/"}), services=[shop()])
    async with client(app) as c:
        r = await c.get(URL, headers={"Host": "evil.example"})
    assert r.status_code == 402 and r.headers["cache-control"] == "no-store"
    assert r.json()["resource"]["url"] == "https://api.example.org/bikes/api/pro/item?n=1"
