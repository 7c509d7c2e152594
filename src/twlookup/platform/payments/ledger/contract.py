"""The emulated token contract: FiatTokenV2's functions decoded from calldata, its checks on an
EIP-3009 authorization (validity window, unused nonce, the EIP-712 signature recovered over the
token's own domain) and its revert strings, and the state one eth_call sees.

Reverts raise `LedgerRevert`, whose message reads like a node's ("execution reverted: FiatTokenV2:
authorization is expired"), so the SDK maps it to its own invalid reasons.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from eth_abi import encode as abi_encode
from eth_account import Account
from eth_account.messages import encode_typed_data
from eth_utils import keccak
from sqlalchemy import select
from sqlalchemy.engine import Connection
from x402.mechanisms.evm.constants import (
    AUTHORIZATION_STATE_ABI,
    BALANCE_OF_ABI,
    NAME_ABI,
    TRANSFER_WITH_AUTHORIZATION_BYTES_ABI,
    TRANSFER_WITH_AUTHORIZATION_VRS_ABI,
    VERSION_ABI,
)
from x402.mechanisms.evm.types import AUTHORIZATION_TYPES

from twlookup.platform.payments.ledger.balances import ZERO_ADDRESS, read_balance
from twlookup.platform.payments.ledger.tokens import Token, checksum
from twlookup.platform.payments.ledger_tables import LedgerAuthorization

SECP256K1_HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0


class LedgerRevert(Exception):
    """A call the emulated contract reverts. The message reads like a node's revert error so that
    the SDK's `is_contract_revert` and `parse_eip3009_transfer_error` classify it."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"execution reverted: {reason}")

    def revert_data(self) -> bytes:
        return bytes.fromhex("08c379a0") + abi_encode(["string"], [self.reason])


# FiatTokenV2(.2) revert strings.
REVERT_EXPIRED = "FiatTokenV2: authorization is expired"
REVERT_NOT_YET_VALID = "FiatTokenV2: authorization is not yet valid"
REVERT_USED = "FiatTokenV2: authorization is used or canceled"
REVERT_INVALID_SIGNATURE = "FiatTokenV2: invalid signature"
REVERT_INSUFFICIENT = "ERC20: transfer amount exceeds balance"
REVERT_TO_ZERO = "ERC20: transfer to the zero address"
REVERT_FROM_ZERO = "ERC20: transfer from the zero address"

_SIMPLE_ABIS: list[dict[str, Any]] = [
    *BALANCE_OF_ABI,
    *AUTHORIZATION_STATE_ABI,
    *NAME_ABI,
    *VERSION_ABI,
    {
        "inputs": [],
        "name": "decimals",
        "outputs": [{"name": "", "type": "uint8"}],
        "stateMutability": "view",
        "type": "function",
    },
    {
        "inputs": [],
        "name": "symbol",
        "outputs": [{"name": "", "type": "string"}],
        "stateMutability": "view",
        "type": "function",
    },
    *TRANSFER_WITH_AUTHORIZATION_VRS_ABI,
    *TRANSFER_WITH_AUTHORIZATION_BYTES_ABI,
]


@dataclass(frozen=True)
class TokenFunction:
    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]

    @property
    def selector(self) -> bytes:
        return keccak(text=f"{self.name}({','.join(self.inputs)})")[:4]


TOKEN_FUNCTIONS = [
    TokenFunction(
        e["name"],
        tuple(i["type"] for i in e.get("inputs", [])),
        tuple(o["type"] for o in e.get("outputs", [])),
    )
    for e in _SIMPLE_ABIS
]
BY_SELECTOR = {f.selector: f for f in TOKEN_FUNCTIONS}


def find_function(name: str, nargs: int) -> TokenFunction:
    for f in TOKEN_FUNCTIONS:
        if f.name == name and len(f.inputs) == nargs:
            return f
    raise LedgerRevert(f"local ledger: the token has no function {name} with {nargs} arguments")


def normalize_args(fn: TokenFunction, args: tuple[Any, ...]) -> tuple[Any, ...]:
    out: list[Any] = []
    for typ, value in zip(fn.inputs, args, strict=True):
        if typ == "address":
            out.append(checksum(str(value)))
        elif typ.startswith("uint"):
            out.append(int(value))
        elif typ in ("bytes32", "bytes"):
            out.append(value if isinstance(value, bytes) else bytes.fromhex(str(value).removeprefix("0x")))
        else:
            out.append(value)
    return tuple(out)


class CallState:
    """Ledger state as seen by one eth_call: the database plus the changes earlier sub-calls of
    the same multicall made (never written)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.deltas: dict[tuple[str, str], int] = {}
        self.used: set[tuple[str, str, str]] = set()

    def balance(self, token: Token, address: str) -> int:
        return read_balance(self.conn, token.network, token.address, address) + self.deltas.get(
            (token.address, address), 0
        )

    def authorization_used(self, token: Token, authorizer: str, nonce_hex: str) -> bool:
        if (token.address, authorizer, nonce_hex) in self.used:
            return True
        t = LedgerAuthorization.__table__
        return (
            self.conn.execute(
                select(t.c.tx_hash).where(
                    t.c.network == token.network,
                    t.c.asset == token.address,
                    t.c.authorizer == authorizer,
                    t.c.nonce == nonce_hex,
                )
            ).first()
            is not None
        )

    def simulate_transfer(self, token: Token, frm: str, to: str, value: int, nonce_hex: str) -> None:
        if self.balance(token, frm) < value:
            raise LedgerRevert(REVERT_INSUFFICIENT)
        self.used.add((token.address, frm, nonce_hex))
        self.deltas[(token.address, frm)] = self.deltas.get((token.address, frm), 0) - value
        self.deltas[(token.address, to)] = self.deltas.get((token.address, to), 0) + value


@dataclass(frozen=True)
class Authorization:
    token: Token
    frm: str
    to: str
    value: int
    valid_after: int
    valid_before: int
    nonce: bytes
    signature: bytes  # r || s || v (65 bytes) or the bytes overload's signature

    @property
    def nonce_hex(self) -> str:
        return "0x" + self.nonce.hex()

    def tx_hash(self) -> str:
        encoded = abi_encode(
            ["uint256", "address", "address", "address", "uint256", "uint256", "uint256", "bytes32"],
            [
                self.token.chain_id,
                self.token.address,
                self.frm,
                self.to,
                self.value,
                self.valid_after,
                self.valid_before,
                self.nonce,
            ],
        )
        return "0x" + keccak(b"twlookup-ledger-transferWithAuthorization:" + encoded).hex()


def authorization_from_call(token: Token, fn: TokenFunction, args: tuple[Any, ...]) -> Authorization:
    frm, to, value, valid_after, valid_before, nonce = args[:6]
    if fn.inputs[-1] == "bytes":
        signature = args[6]
    else:
        v, r, s = args[6], args[7], args[8]
        signature = bytes(r).rjust(32, b"\0") + bytes(s).rjust(32, b"\0") + bytes([int(v) & 0xFF])
    return Authorization(token, frm, to, value, valid_after, valid_before, nonce, signature)


@functools.lru_cache(maxsize=1024)
def recover_signer(auth: Authorization) -> str | None:
    """ecrecover over the token's own EIP-712 domain, as FiatTokenV2's SignatureChecker does for
    an EOA; None when the signature is malformed. Kept for the last authorizations seen: a payment
    is recovered when it is verified, again when its settlement is simulated and once more when it
    is written, and the answer depends on the authorization alone."""
    sig = auth.signature
    if len(sig) != 65:
        return None  # only EOAs exist on the ledger: a contract signature cannot be checked
    v = sig[64]
    if v < 27:
        v += 27
    s = int.from_bytes(sig[32:64], "big")
    if v not in (27, 28) or s > SECP256K1_HALF_N:
        return None
    typed_data = {
        "types": {
            "EIP712Domain": [
                {"name": "name", "type": "string"},
                {"name": "version", "type": "string"},
                {"name": "chainId", "type": "uint256"},
                {"name": "verifyingContract", "type": "address"},
            ],
            **AUTHORIZATION_TYPES,
        },
        "primaryType": "TransferWithAuthorization",
        "domain": {
            "name": auth.token.name,
            "version": auth.token.version,
            "chainId": auth.token.chain_id,
            "verifyingContract": auth.token.address,
        },
        "message": {
            "from": auth.frm,
            "to": auth.to,
            "value": auth.value,
            "validAfter": auth.valid_after,
            "validBefore": auth.valid_before,
            "nonce": auth.nonce,
        },
    }
    try:
        signable = encode_typed_data(full_message=typed_data)
        return Account.recover_message(signable, vrs=(v, sig[:32], sig[32:64]))
    except Exception:
        return None


def check_authorization(auth: Authorization, now: float) -> None:
    """FiatTokenV2's checks before state is touched, in its order."""
    if not now > auth.valid_after:
        raise LedgerRevert(REVERT_NOT_YET_VALID)
    if not now < auth.valid_before:
        raise LedgerRevert(REVERT_EXPIRED)


def check_signature_and_parties(auth: Authorization) -> None:
    recovered = recover_signer(auth)
    if recovered is None or recovered.lower() != auth.frm.lower():
        raise LedgerRevert(REVERT_INVALID_SIGNATURE)
    if auth.frm == ZERO_ADDRESS:
        raise LedgerRevert(REVERT_FROM_ZERO)
    if auth.to == ZERO_ADDRESS:
        raise LedgerRevert(REVERT_TO_ZERO)
