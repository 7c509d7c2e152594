"""The local facilitator mode: the x402 SDK's own facilitator settling on the local USDC ledger.

Payloads are made by the SDK's own client (x402ClientSync + ExactEvmClientScheme with an
EthAccountSigner); the facilitator is the SDK's ExactEvmFacilitatorScheme; only the chain is ours.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from eth_account import Account
from sqlalchemy import delete, inspect, or_
from x402 import x402ClientSync
from x402.mechanisms.evm.constants import (
    AUTHORIZATION_STATE_ABI,
    BALANCE_OF_ABI,
    ERR_ASSET_NOT_DEPLOYED_CONTRACT,
    ERR_AUTHORIZATION_VALUE_MISMATCH,
    ERR_INSUFFICIENT_BALANCE,
    ERR_INVALID_SIGNATURE,
    ERR_NETWORK_MISMATCH,
    ERR_NONCE_ALREADY_USED,
    ERR_RECIPIENT_MISMATCH,
    ERR_VALID_AFTER_FUTURE,
    ERR_VALID_BEFORE_EXPIRED,
    NAME_ABI,
    TRANSFER_WITH_AUTHORIZATION_BYTES_ABI,
    TRANSFER_WITH_AUTHORIZATION_VRS_ABI,
    VERSION_ABI,
)
from x402.mechanisms.evm.default_assets import get_default_asset
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.exact.eip3009_utils import (
    diagnose_eip3009_simulation_failure,
    verify_eip3009_transfer_event,
)
from x402.mechanisms.evm.multicall import MulticallCall, encode_contract_call, multicall
from x402.mechanisms.evm.signers import EthAccountSigner
from x402.mechanisms.evm.types import ExactEIP3009Authorization, ExactEIP3009Payload
from x402.mechanisms.evm.utils import create_nonce, hex_to_bytes
from x402.schemas import PaymentPayload, PaymentRequired, PaymentRequirements

from twlookup.platform.payments.ledger import (
    LEDGER_TABLES,
    Ledger,
    LedgerAuthorization,
    LedgerBalance,
    LedgerRevert,
    LedgerSigner,
    LedgerTransfer,
    signer_for,
)
from twlookup.platform.payments.ledger import signer as ledger_signer
from twlookup.platform.payments.ledger.balances import MAX_AMOUNT
from twlookup.platform.payments.local_facilitator import LocalFacilitatorClient, build_local_facilitator
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.base import Base

BASE = "eip155:8453"
BASE_SEPOLIA = "eip155:84532"
USDC_BASE = get_default_asset(BASE)["asset"]
USDC_BASE_SEPOLIA = get_default_asset(BASE_SEPOLIA)["asset"]
PRICE = 20_000


# ---------------------------------------------------------------------------------------------
# Fixtures and helpers
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path):
    """A fresh SQLite store as the process-wide engine; the previous one is restored after."""
    previous = (
        store_engine._engine.url.render_as_string(hide_password=False) if store_engine._engine is not None else None
    )
    url = f"sqlite:///{tmp_path}/t.db"
    engine = store_engine.configure(url)
    Base.metadata.create_all(engine, tables=LEDGER_TABLES)
    yield url
    if previous is not None:
        store_engine.configure(previous)


@pytest.fixture
def facilitator(store) -> LocalFacilitatorClient:
    return LocalFacilitatorClient([BASE, BASE_SEPOLIA])


@pytest.fixture
def payer():
    return Account.create()


@pytest.fixture
def pay_to() -> str:
    return Account.create().address


def requirements(
    pay_to: str, *, network: str = BASE, asset: str | None = None, amount: int = PRICE, extra=None
) -> PaymentRequirements:
    """Requirements as the app builds them for a /api/pro route."""
    info = get_default_asset(network)
    return PaymentRequirements(
        scheme="exact",
        network=network,
        asset=asset or info["asset"],
        amount=str(amount),
        pay_to=pay_to,
        max_timeout_seconds=300,
        extra=extra or {"name": info["name"], "version": info["version"]},
    )


def pay(account, req: PaymentRequirements) -> PaymentPayload:
    """A payment made by the SDK's own client."""
    client = x402ClientSync()
    client.register(str(req.network), ExactEvmClientScheme(EthAccountSigner(account)))
    if get_default_asset(str(req.network))["asset"].lower() != req.asset.lower():
        client.set_spend_controls(False)  # the client refuses non-default tokens by default
    payload = client.create_payment_payload(PaymentRequired(accepts=[req]))
    assert isinstance(payload, PaymentPayload)
    return payload


def pay_with_window(account, req: PaymentRequirements, *, valid_after: int, valid_before: int) -> PaymentPayload:
    """A payment with a chosen validity window, signed by the SDK client scheme's own signing."""
    authorization = ExactEIP3009Authorization(
        from_address=account.address,
        to=req.pay_to,
        value=req.amount,
        valid_after=str(valid_after),
        valid_before=str(valid_before),
        nonce=create_nonce(),
    )
    signature = ExactEvmClientScheme(EthAccountSigner(account))._sign_authorization(authorization, req)
    inner = ExactEIP3009Payload(authorization=authorization, signature=signature).to_dict()
    return PaymentPayload(payload=inner, accepted=req)


def tamper(payload: PaymentPayload, index: int = 10) -> PaymentPayload:
    sig = bytearray(hex_to_bytes(payload.payload["signature"]))
    sig[index] ^= 0x01
    inner = dict(payload.payload, signature="0x" + sig.hex())
    return payload.model_copy(update={"payload": inner})


def balances(ledger: Ledger, *addresses: str) -> list[int]:
    return [ledger.balance(a) for a in addresses]


async def assert_rejected(
    facilitator: LocalFacilitatorClient, payload, req, reason: str, ledger: Ledger, *addresses: str
):
    before = balances(ledger, *addresses)
    verified = await facilitator.verify(payload, req)
    assert not verified.is_valid
    assert verified.invalid_reason == reason, verified
    settled = await facilitator.settle(payload, req)
    assert not settled.success
    assert settled.error_reason == reason, settled
    assert settled.transaction == ""
    assert balances(ledger, *addresses) == before
    assert [t for t in ledger.transfers() if t.kind == "transfer"] == []


# ---------------------------------------------------------------------------------------------
# The paid flow
# ---------------------------------------------------------------------------------------------


async def test_verify_settle_then_replay_is_refused(facilitator, payer, pay_to):
    ledger = Ledger(BASE, USDC_BASE)
    ledger.fund(payer.address, 50_000)
    req = requirements(pay_to)
    payload = pay(payer, req)

    verified = await facilitator.verify(payload, req)
    assert verified.is_valid, verified
    assert verified.payer == payer.address
    assert balances(ledger, payer.address, pay_to) == [50_000, 0]  # verify moves nothing

    settled = await facilitator.settle(payload, req)
    assert settled.success, settled
    assert settled.network == BASE and settled.payer == payer.address
    assert settled.transaction.startswith("0x") and len(settled.transaction) == 66
    assert balances(ledger, payer.address, pay_to) == [30_000, PRICE]

    [transfer] = ledger.transfers(kind="transfer")
    assert (transfer.tx_hash, transfer.from_address, transfer.to_address, transfer.amount) == (
        settled.transaction,
        payer.address,
        pay_to,
        PRICE,
    )
    assert ledger.authorization_used(payer.address, payload.payload["authorization"]["nonce"])

    # The receipt carries the ERC-20 Transfer event the SDK checks.
    receipt = signer_for(BASE).wait_for_transaction_receipt(settled.transaction)
    assert receipt.status == 1
    assert verify_eip3009_transfer_event(receipt.logs, USDC_BASE, from_address=payer.address, to=pay_to, value=PRICE)

    again = await facilitator.settle(payload, req)
    assert not again.success
    assert again.error_reason == ERR_NONCE_ALREADY_USED
    reverify = await facilitator.verify(payload, req)
    assert not reverify.is_valid and reverify.invalid_reason == ERR_NONCE_ALREADY_USED
    assert balances(ledger, payer.address, pay_to) == [30_000, PRICE]
    assert len(ledger.transfers(kind="transfer")) == 1


async def test_base_sepolia_uses_its_own_usdc_domain(facilitator, payer, pay_to):
    ledger = Ledger(BASE_SEPOLIA)
    assert ledger.asset == USDC_BASE_SEPOLIA
    ledger.fund(payer.address, PRICE)
    req = requirements(pay_to, network=BASE_SEPOLIA)
    settled = await facilitator.settle(pay(payer, req), req)
    assert settled.success, settled
    assert balances(ledger, payer.address, pay_to) == [0, PRICE]
    assert Ledger(BASE).balance(pay_to) == 0  # other network, other ledger


def test_supported_lists_the_networks_and_the_facilitator_address(facilitator):
    supported = facilitator.get_supported()
    assert {(k.x402_version, k.scheme, k.network) for k in supported.kinds} == {
        (2, "exact", BASE),
        (2, "exact", BASE_SEPOLIA),
    }
    assert supported.signers["eip155:*"] == LedgerSigner([BASE]).get_addresses()


# ---------------------------------------------------------------------------------------------
# Refusals: each with the SDK's reason, and nothing moves
# ---------------------------------------------------------------------------------------------


async def test_payment_for_a_smaller_amount_is_refused(facilitator, payer, pay_to):
    ledger = Ledger(BASE)
    ledger.fund(payer.address, 50_000)
    payload = pay(payer, requirements(pay_to, amount=PRICE // 2))
    await assert_rejected(
        facilitator, payload, requirements(pay_to), ERR_AUTHORIZATION_VALUE_MISMATCH, ledger, payer.address, pay_to
    )


async def test_payment_to_another_receiver_is_refused(facilitator, payer, pay_to):
    ledger = Ledger(BASE)
    ledger.fund(payer.address, 50_000)
    other = Account.create().address
    payload = pay(payer, requirements(other))
    await assert_rejected(
        facilitator, payload, requirements(pay_to), ERR_RECIPIENT_MISMATCH, ledger, payer.address, pay_to, other
    )


async def test_payment_on_another_network_is_refused(facilitator, payer, pay_to):
    ledger = Ledger(BASE)
    ledger.fund(payer.address, 50_000)
    Ledger(BASE_SEPOLIA).fund(payer.address, 50_000)
    payload = pay(payer, requirements(pay_to, network=BASE_SEPOLIA))
    await assert_rejected(
        facilitator, payload, requirements(pay_to), ERR_NETWORK_MISMATCH, ledger, payer.address, pay_to
    )
    assert Ledger(BASE_SEPOLIA).balance(payer.address) == 50_000


async def test_payment_signed_for_another_asset_is_refused(facilitator, payer, pay_to):
    ledger = Ledger(BASE)
    ledger.fund(payer.address, 50_000)
    other_token = Account.create().address
    payload = pay(payer, requirements(pay_to, asset=other_token))
    # The signature's EIP-712 domain names the other token, so it does not hold for USDC.
    await assert_rejected(
        facilitator, payload, requirements(pay_to), ERR_INVALID_SIGNATURE, ledger, payer.address, pay_to
    )


async def test_asset_the_ledger_does_not_hold_is_refused(facilitator, payer, pay_to):
    ledger = Ledger(BASE)
    ledger.fund(payer.address, 50_000)
    req = requirements(pay_to, asset=Account.create().address)
    await assert_rejected(
        facilitator, pay(payer, req), req, ERR_ASSET_NOT_DEPLOYED_CONTRACT, ledger, payer.address, pay_to
    )


async def test_expired_authorization_is_refused(facilitator, payer, pay_to):
    ledger = Ledger(BASE)
    ledger.fund(payer.address, 50_000)
    req = requirements(pay_to)
    now = int(time.time())
    payload = pay_with_window(payer, req, valid_after=0, valid_before=now - 10)
    await assert_rejected(facilitator, payload, req, ERR_VALID_BEFORE_EXPIRED, ledger, payer.address, pay_to)


async def test_authorization_not_yet_valid_is_refused(facilitator, payer, pay_to):
    ledger = Ledger(BASE)
    ledger.fund(payer.address, 50_000)
    req = requirements(pay_to)
    now = int(time.time())
    payload = pay_with_window(payer, req, valid_after=now + 600, valid_before=now + 900)
    await assert_rejected(facilitator, payload, req, ERR_VALID_AFTER_FUTURE, ledger, payer.address, pay_to)


async def test_tampered_signature_is_refused(facilitator, payer, pay_to):
    ledger = Ledger(BASE)
    ledger.fund(payer.address, 50_000)
    req = requirements(pay_to)
    await assert_rejected(
        facilitator, tamper(pay(payer, req)), req, ERR_INVALID_SIGNATURE, ledger, payer.address, pay_to
    )


async def test_insufficient_balance_is_refused_and_leaves_the_nonce_unused(facilitator, payer, pay_to):
    ledger = Ledger(BASE)
    ledger.fund(payer.address, PRICE - 1)
    req = requirements(pay_to)
    payload = pay(payer, req)
    await assert_rejected(facilitator, payload, req, ERR_INSUFFICIENT_BALANCE, ledger, payer.address, pay_to)
    assert not ledger.authorization_used(payer.address, payload.payload["authorization"]["nonce"])

    # The refused settle rolled back whole: once funded, the same authorization goes through.
    ledger.fund(payer.address, 1)
    settled = await facilitator.settle(payload, req)
    assert settled.success, settled
    assert balances(ledger, payer.address, pay_to) == [0, PRICE]


async def test_unknown_network_is_refused_not_raised(facilitator, payer, pay_to):
    req = requirements(pay_to, network="eip155:1")
    payload = pay(payer, req)
    verified = await facilitator.verify(payload, req)
    assert not verified.is_valid and verified.invalid_reason == "unsupported_scheme"
    settled = await facilitator.settle(payload, req)
    assert not settled.success and settled.error_reason == "unsupported_scheme"


# ---------------------------------------------------------------------------------------------
# The emulated contract itself (what the SDK calls on the signer)
# ---------------------------------------------------------------------------------------------


def _auth_args(payload: PaymentPayload) -> tuple:
    a = payload.payload["authorization"]
    return (a["from"], a["to"], int(a["value"]), int(a["validAfter"]), int(a["validBefore"]), hex_to_bytes(a["nonce"]))


def _vrs(signature: bytes) -> tuple:
    return (signature[64], signature[:32], signature[32:64])


def test_contract_checks_hold_without_the_sdk_checks(store, payer, pay_to):
    """write_contract enforces FiatTokenV2's rules on its own, whatever the caller verified."""
    signer = signer_for(BASE)
    ledger = Ledger(BASE)
    ledger.fund(payer.address, 50_000)
    req = requirements(pay_to)
    now = int(time.time())

    expired = pay_with_window(payer, req, valid_after=0, valid_before=now - 1)
    early = pay_with_window(payer, req, valid_after=now + 60, valid_before=now + 600)
    forged = tamper(pay(payer, req))
    too_much = pay(payer, requirements(pay_to, amount=60_000))
    cases = [
        (expired, "authorization is expired"),
        (early, "authorization is not yet valid"),
        (forged, "invalid signature"),
        (too_much, "transfer amount exceeds balance"),
    ]
    for payload, reason in cases:
        sig = hex_to_bytes(payload.payload["signature"])
        with pytest.raises(LedgerRevert, match=reason):
            signer.write_contract(
                USDC_BASE,
                TRANSFER_WITH_AUTHORIZATION_VRS_ABI,
                "transferWithAuthorization",
                *_auth_args(payload),
                *_vrs(sig),
            )
        with pytest.raises(LedgerRevert, match=reason):  # the eth_call simulation agrees
            signer.read_contract(
                USDC_BASE,
                TRANSFER_WITH_AUTHORIZATION_VRS_ABI,
                "transferWithAuthorization",
                *_auth_args(payload),
                *_vrs(sig),
            )
    assert balances(ledger, payer.address, pay_to) == [50_000, 0]

    # The bytes-signature overload settles; its replay reverts in either overload.
    good = pay(payer, req)
    sig = hex_to_bytes(good.payload["signature"])
    tx = signer.write_contract(
        USDC_BASE, TRANSFER_WITH_AUTHORIZATION_BYTES_ABI, "transferWithAuthorization", *_auth_args(good), sig
    )
    assert signer.wait_for_transaction_receipt(tx).status == 1
    with pytest.raises(LedgerRevert, match="authorization is used"):
        signer.write_contract(
            USDC_BASE, TRANSFER_WITH_AUTHORIZATION_BYTES_ABI, "transferWithAuthorization", *_auth_args(good), sig
        )
    with pytest.raises(LedgerRevert, match="authorization is used"):
        signer.write_contract(
            USDC_BASE, TRANSFER_WITH_AUTHORIZATION_VRS_ABI, "transferWithAuthorization", *_auth_args(good), *_vrs(sig)
        )
    assert balances(ledger, payer.address, pay_to) == [30_000, PRICE]

    # A transaction sent as raw calldata goes through the same path.
    other = pay(payer, req)
    calldata = encode_contract_call(
        TRANSFER_WITH_AUTHORIZATION_BYTES_ABI,
        "transferWithAuthorization",
        *_auth_args(other),
        hex_to_bytes(other.payload["signature"]),
    )
    signer.send_transaction(USDC_BASE, calldata)
    assert balances(ledger, payer.address, pay_to) == [10_000, 2 * PRICE]
    with pytest.raises(TimeoutError):
        signer.wait_for_transaction_receipt("0x" + "ab" * 32)


def test_reads_and_multicall_as_the_sdk_decodes_them(store, payer, pay_to):
    signer = signer_for(BASE)
    ledger = Ledger(BASE)
    ledger.fund(payer.address, 25_000)
    payload = pay(payer, requirements(pay_to))
    nonce = hex_to_bytes(payload.payload["authorization"]["nonce"])

    assert signer.get_chain_id() == 8453
    assert signer_for(BASE_SEPOLIA).get_chain_id() == 84532
    assert signer.get_code(payer.address) == b"" and signer.get_code(USDC_BASE) != b""
    assert signer.get_balance(payer.address, USDC_BASE) == 25_000
    assert signer.read_contract(USDC_BASE, BALANCE_OF_ABI, "balanceOf", payer.address) == 25_000
    assert signer.read_contract(USDC_BASE, NAME_ABI, "name") == "USD Coin"
    assert signer.read_contract(USDC_BASE, VERSION_ABI, "version") == "2"
    assert signer.read_contract(USDC_BASE, AUTHORIZATION_STATE_ABI, "authorizationState", payer.address, nonce) is False

    # Through the SDK's own multicall helper (Multicall3 tryAggregate with encoded calldata).
    sig = hex_to_bytes(payload.payload["signature"])
    transfer = encode_contract_call(
        TRANSFER_WITH_AUTHORIZATION_BYTES_ABI, "transferWithAuthorization", *_auth_args(payload), sig
    )
    results = multicall(
        signer,
        [
            MulticallCall(address=USDC_BASE, abi=BALANCE_OF_ABI, function_name="balanceOf", args=(payer.address,)),
            MulticallCall(address=USDC_BASE, abi=NAME_ABI, function_name="name"),
            MulticallCall(address=USDC_BASE, abi=VERSION_ABI, function_name="version"),
            MulticallCall(address=USDC_BASE, call_data=transfer),
            # State carries across sub-calls, as on chain: the simulated transfer spent the nonce
            # and moved the balance, and a second run of it reverts.
            MulticallCall(
                address=USDC_BASE,
                abi=AUTHORIZATION_STATE_ABI,
                function_name="authorizationState",
                args=(payer.address, nonce),
            ),
            MulticallCall(address=USDC_BASE, abi=BALANCE_OF_ABI, function_name="balanceOf", args=(pay_to,)),
            MulticallCall(address=USDC_BASE, abi=BALANCE_OF_ABI, function_name="balanceOf", args=(payer.address,)),
            MulticallCall(address=USDC_BASE, call_data=transfer),
            MulticallCall(address=payer.address, abi=NAME_ABI, function_name="name"),  # an EOA
        ],
    )
    assert [r.success for r in results] == [True, True, True, True, True, True, True, False, False]
    assert [r.result for r in results[:3]] == [25_000, "USD Coin", "2"]
    assert [r.result for r in results[4:7]] == [True, PRICE, 5_000]
    assert "authorization is used" in str(results[7].error)
    # Nothing was written by the simulation.
    assert balances(ledger, payer.address, pay_to) == [25_000, 0]
    assert not ledger.authorization_used(payer.address, nonce)

    # The SDK's diagnosis of a failed simulation reads through the same multicall.
    auth = ExactEIP3009Payload.from_dict(payload.payload).authorization
    assert (
        diagnose_eip3009_simulation_failure(signer, USDC_BASE, auth, 30_000, "USD Coin", "2")
        == ERR_INSUFFICIENT_BALANCE
    )
    assert (
        diagnose_eip3009_simulation_failure(signer, USDC_BASE, auth, PRICE, "USD Coin", "1")
        == "invalid_exact_evm_token_version_mismatch"
    )
    signer.write_contract(
        USDC_BASE, TRANSFER_WITH_AUTHORIZATION_BYTES_ABI, "transferWithAuthorization", *_auth_args(payload), sig
    )
    assert (
        diagnose_eip3009_simulation_failure(signer, USDC_BASE, auth, PRICE, "USD Coin", "2") == ERR_NONCE_ALREADY_USED
    )


def test_fund_and_read_the_log(store, payer):
    ledger = Ledger(BASE)
    first = ledger.fund(payer.address, 5)
    ledger.fund(payer.address.lower(), 7)
    assert ledger.balance(payer.address) == 12
    log = ledger.transfers(payer.address)
    assert [t.amount for t in log] == [7, 5] and log[1].tx_hash == first
    assert all(t.kind == "fund" and t.from_address == "0x" + "00" * 20 for t in log)
    with pytest.raises(ValueError):
        ledger.fund(payer.address, -1)
    with pytest.raises(TypeError):
        ledger.fund(payer.address, 1.5)  # type: ignore[arg-type]


def test_funding_past_the_maximum_balance_is_refused_and_leaves_nothing(store, payer):
    ledger = Ledger(BASE)
    ledger.fund(payer.address, MAX_AMOUNT - 1)
    with pytest.raises(ValueError, match="balance would exceed the ledger's maximum"):
        ledger.fund(payer.address, 2)
    assert ledger.balance(payer.address) == MAX_AMOUNT - 1  # the credit was rolled back
    assert [t.amount for t in ledger.transfers(payer.address)] == [MAX_AMOUNT - 1]  # and not logged
    ledger.fund(payer.address, 1)  # up to the maximum itself is allowed
    assert ledger.balance(payer.address) == MAX_AMOUNT


# ---------------------------------------------------------------------------------------------
# Concurrency
# ---------------------------------------------------------------------------------------------


def _race(clients: list[LocalFacilitatorClient], jobs: list[tuple[PaymentPayload, PaymentRequirements]]):
    """Settle jobs[i] on clients[i] at the same moment, each in its own thread."""
    barrier = threading.Barrier(len(jobs))

    def run(i: int):
        barrier.wait()
        payload, req = jobs[i]
        return clients[i].settle_sync(payload, req)

    with ThreadPoolExecutor(len(jobs)) as pool:
        return list(pool.map(run, range(len(jobs))))


async def test_concurrent_settles_in_one_process_settle_once(facilitator, payer, pay_to):
    ledger = Ledger(BASE)
    ledger.fund(payer.address, 100_000)
    req = requirements(pay_to)
    payload = pay(payer, req)
    results = await asyncio.gather(*(facilitator.settle(payload, req) for _ in range(4)))
    assert sum(r.success for r in results) == 1, results
    assert {r.error_reason for r in results if not r.success} == {ERR_NONCE_ALREADY_USED}
    assert balances(ledger, payer.address, pay_to) == [100_000 - PRICE, PRICE]


def _two_engine_race(url: str, payer, pay_to: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Hold each transfer for a moment between the ledger's early "nonce used?" read and its
    # database transaction, so that both racers get past the read and only the store's
    # constraints (the authorization's primary key, the guarded debit) can stop the second.
    passed = []
    check = ledger_signer.check_signature_and_parties

    def slow_check(auth):
        check(auth)
        passed.append(auth.nonce_hex)
        time.sleep(0.3)

    monkeypatch.setattr(ledger_signer, "check_signature_and_parties", slow_check)
    engines = [store_engine.make_engine(url), store_engine.make_engine(url)]
    try:
        clients = [LocalFacilitatorClient([BASE], engine=e) for e in engines]
        ledger = Ledger(BASE, engine=engines[0])
        ledger.fund(payer.address, 30_000)
        req = requirements(pay_to)

        # The same authorization, twice: one settles, the other is a replay.
        payload = pay(payer, req)
        results = _race(clients, [(payload, req), (payload, req)])
        assert len(passed) == 2  # both reached the database transaction
        assert sum(r.success for r in results) == 1, results
        assert [r.error_reason for r in results if not r.success] == [ERR_NONCE_ALREADY_USED]
        assert balances(ledger, payer.address, pay_to) == [10_000, PRICE]

        # Two different authorizations that the balance cannot both cover: one settles, the
        # other finds the balance short, and it never goes negative.
        ledger.fund(payer.address, 20_000)  # 30_000: one more payment of 20_000 fits, not two
        results = _race(clients, [(pay(payer, req), req), (pay(payer, req), req)])
        assert len(passed) == 4
        assert sum(r.success for r in results) == 1, results
        assert [r.error_reason for r in results if not r.success] == [ERR_INSUFFICIENT_BALANCE]
        assert balances(ledger, payer.address, pay_to) == [10_000, 2 * PRICE]
        assert len(ledger.transfers(payer.address, kind="transfer")) == 2  # the store may hold other tests' rows
    finally:
        for e in engines:
            e.dispose()


def test_two_engines_on_one_sqlite_file_settle_once(store, payer, pay_to, monkeypatch):
    _two_engine_race(store, payer, pay_to, monkeypatch)


def test_two_engines_on_postgresql_settle_once(payer, pay_to, monkeypatch):
    url = os.environ.get("TWLOOKUP_TEST_DATABASE_URL")
    if not url:
        pytest.skip(
            "TWLOOKUP_TEST_DATABASE_URL is not set (a PostgreSQL URL, e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test)"
        )
    admin = store_engine.make_engine(url)
    existing = set(inspect(admin).get_table_names())
    mine = [t for t in LEDGER_TABLES if t.name not in existing]
    Base.metadata.create_all(admin, tables=mine)
    try:
        _two_engine_race(url, payer, pay_to, monkeypatch)
    finally:
        if mine:
            Base.metadata.drop_all(admin, tables=mine)
        if len(mine) < len(LEDGER_TABLES):  # tables a migration made: remove only this test's rows
            people = [payer.address, pay_to]
            with admin.begin() as conn:
                conn.execute(
                    delete(LedgerAuthorization.__table__).where(LedgerAuthorization.authorizer == payer.address)
                )
                conn.execute(delete(LedgerBalance.__table__).where(LedgerBalance.address.in_(people)))
                conn.execute(
                    delete(LedgerTransfer.__table__).where(
                        or_(LedgerTransfer.from_address.in_(people), LedgerTransfer.to_address.in_(people))
                    )
                )
        admin.dispose()


def test_build_local_facilitator_registers_one_scheme_per_network(store):
    facilitator = build_local_facilitator([BASE, BASE_SEPOLIA, BASE])
    networks = [k.network for k in facilitator.get_supported().kinds]
    assert sorted(networks) == [BASE, BASE_SEPOLIA]
    with pytest.raises(ValueError):
        LedgerSigner([BASE]).signer_for(BASE_SEPOLIA)
