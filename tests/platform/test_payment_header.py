"""Reading the payment header: its size is checked before it is decoded, its nesting is counted
before `json.loads` sees it (so the decoder's depth does not depend on the interpreter's
recursion limit), `x402Version` must be the JSON integer 2, and loading the x402 SDK leaves the
recursion limit as the process had it (py_ecc, under the SDK, raises it to 100,000)."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import textwrap

import pytest

from twlookup.platform.payments import header as header_module
from twlookup.platform.payments.header import MAX_DEPTH, decode_payment_header, nesting_depth

from .test_payment_input import b64


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("1", 0),
        ("[]", 1),
        ('{"a": [1, {"b": 2}]}', 3),
        ('["[[[[", "{{"]', 1),  # brackets inside strings do not count
        ('["a\\"[[[", 1]', 1),  # nor after an escaped quote inside a string
        ('[[["\\\\"], [[]]]]', 4),  # an escaped backslash ends before the closing quote
        ("[" * 10 + "]" * 10, 10),
    ],
)
def test_nesting_depth_counts_arrays_and_objects_outside_strings(text, depth):
    assert nesting_depth(text, stop=100) == depth


def test_nesting_depth_stops_counting_past_the_bound():
    assert nesting_depth("[" * 100_000, stop=64) == 65


@pytest.fixture
def no_json_decoding(monkeypatch):
    def refuse(*_args, **_kwargs):
        raise AssertionError("json.loads reached")

    monkeypatch.setattr(header_module.json, "loads", refuse)


def test_an_oversized_header_is_refused_before_it_is_decoded(no_json_decoding):
    raw = base64.b64encode(b"[" * 30_000 + b"]" * 30_000)
    payload, (code, why) = decode_payment_header(raw, limit=65_536)
    assert payload is None and code == "invalid_payload"
    assert why == "the payment header is 80000 bytes; at most 65536 are accepted."


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 24_000])
def test_deep_nesting_is_refused_before_json_loads(no_json_decoding, depth):
    raw = base64.b64encode(b"[" * depth + b"]" * depth)
    payload, (code, why) = decode_payment_header(raw, limit=65_536)
    assert payload is None and code == "invalid_payload"
    assert why == f"the payment header nests deeper than {MAX_DEPTH} levels."


def test_nesting_at_the_bound_reaches_the_decoder():
    nested: object = 1
    for _ in range(MAX_DEPTH - 1):
        nested = [nested]
    raw = base64.b64encode(json.dumps({"x402Version": 2, "extensions": {"x": nested}}).encode())
    assert nesting_depth(base64.b64decode(raw).decode()) == MAX_DEPTH + 1
    payload, (code, why) = decode_payment_header(raw, limit=65_536)
    assert payload is None and why == f"the payment header nests deeper than {MAX_DEPTH} levels."
    nested = nested[0]  # type: ignore[index]
    raw = base64.b64encode(json.dumps({"x402Version": 2, "extensions": {"x": nested}}).encode())
    payload, (code, why) = decode_payment_header(raw, limit=65_536)
    assert payload is None and code == "invalid_payload" and why.startswith("the payment header is not an x402 payload")


@pytest.mark.parametrize(
    ("version", "shown"),
    [
        ("2", 'the string "2"'),
        (2.0, "2.0"),
        (True, "true"),
        (1, "1"),
        ([2], "a JSON array"),
        (None, "none"),
    ],
)
def test_x402_version_must_be_the_json_integer_2(version, shown):
    doc = {"x402Version": version, "payload": {}, "accepted": {}}
    payload, (code, why) = decode_payment_header(b64(doc).encode(), limit=65_536)
    assert payload is None and code == "invalid_x402_version"
    assert why == f"x402Version must be the JSON integer 2; this payload has {shown}."


def test_a_missing_x402_version_is_refused():
    payload, (code, why) = decode_payment_header(b64({"payload": {}}).encode(), limit=65_536)
    assert payload is None and (code, why) == (
        "invalid_x402_version",
        "x402Version must be the JSON integer 2; this payload has none.",
    )


PROBE = textwrap.dedent(
    """
    import asyncio, sys
    import httpx
    from twlookup.app import create_app
    from twlookup.settings import Settings

    start = sys.getrecursionlimit()
    app = create_app(Settings(database_url=sys.argv[1], _env_file=None))
    url = "/bikes/api/pro/export"

    async def main():
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            r = await c.get(url)  # the first paid request: the gate loads the SDK, eth_account and py_ecc
            assert r.status_code == 402, r.status_code
            assert "py_ecc" in sys.modules
            after_challenge = sys.getrecursionlimit()
            from eth_account import Account
            from x402 import PaymentRequired, x402ClientSync
            from x402.http.utils import encode_payment_signature_header
            from x402.mechanisms.evm.exact import ExactEvmClientScheme
            from x402.mechanisms.evm.signers import EthAccountSigner
            from twlookup.platform.payments.ledger import Ledger

            payer = Account.create()
            Ledger(Settings(_env_file=None).evm_mainnet).fund(payer.address, 1_000_000)
            client = x402ClientSync()
            client.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(payer)))
            required = PaymentRequired.model_validate_json(r.content)
            signed = encode_payment_signature_header(client.create_payment_payload(required))
            paid = await c.get(url, headers={"PAYMENT-SIGNATURE": signed})
            assert paid.status_code == 200, paid.text
            print(start, after_challenge, sys.getrecursionlimit())

    asyncio.run(main())
    """
)


def test_the_recursion_limit_stays_after_the_first_paid_request(fresh_store):
    """In a fresh interpreter (this one has imported py_ecc already): the limit is the same
    before the SDK is loaded, after the first 402, and after a settled payment."""
    out = subprocess.run([sys.executable, "-c", PROBE, fresh_store], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    start, after_challenge, after_payment = map(int, out.stdout.split())
    assert start < 100_000
    assert after_challenge == start and after_payment == start
