"""The local USDC ledger of the "local" facilitator mode, kept in the SQL store.

`LedgerSigner` implements the x402 SDK's `FacilitatorEvmSigner` protocol by emulating, against
three tables, exactly the contract calls that the SDK's exact-EVM facilitator makes for EIP-3009
USDC payments:

- on the token: `balanceOf`, `authorizationState(authorizer, nonce)`, `name`, `version`,
  `decimals`, `symbol`, and `transferWithAuthorization` in both overloads (v,r,s and bytes
  signature). Through `read_contract` (an `eth_call`) the transfer is only simulated; through
  `write_contract` (or `send_transaction` with its calldata) it is executed like FiatTokenV2 does:
  validity window, unused nonce, EIP-712 signature recovered with eth_account over the token's own
  domain, sufficient balance; then, in one database transaction, the nonce is marked used (an
  insert that must succeed: a unique violation means replay, also across processes sharing
  PostgreSQL) and the balance moves (`UPDATE ... WHERE amount >= :value`, so it never goes
  negative).
- on Multicall3 (`tryAggregate`, which the SDK's `multicall` helper uses, and `aggregate3`): the
  encoded sub-calls are decoded and run read-only against the ledger, with the state they change
  carried from one sub-call to the next as on chain, and the results returned as
  `(success, returnData)` pairs with revert data encoded as `Error(string)`.

Reverts raise `LedgerRevert`, whose message reads like a node's ("execution reverted: FiatTokenV2:
authorization is expired"), so the SDK maps it to its own invalid reasons.

Every account other than a known token or Multicall3 is an EOA (`get_code` returns b""); token
addresses report placeholder bytecode, since the SDK refuses assets without code. The signer is
bound to one network per use (`signer_for(network)`), because the SDK hands the signer no chain
id: a contract call carries only the contract address, and `get_chain_id()` takes no argument.
Transaction hashes are deterministic (keccak of the chain id, token and authorization), and
`wait_for_transaction_receipt` answers from the transfer log, with the ERC-20 `Transfer` event the
SDK checks, so any process sharing the store can confirm a settlement.

Amounts are integers of the token's smallest unit, at most 2**63 - 1 per balance (the range that
SQLite stores exactly; PostgreSQL keeps them in NUMERIC(78, 0)).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from eth_account import Account
from eth_account.messages import encode_typed_data
from eth_utils import keccak, to_checksum_address
from sqlalchemy import (
    Engine,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from x402.mechanisms.evm.constants import (
    AUTHORIZATION_STATE_ABI,
    BALANCE_OF_ABI,
    MULTICALL3_ADDRESS,
    NAME_ABI,
    TRANSFER_WITH_AUTHORIZATION_BYTES_ABI,
    TRANSFER_WITH_AUTHORIZATION_VRS_ABI,
    TX_STATUS_SUCCESS,
    VERSION_ABI,
)
from x402.mechanisms.evm.default_assets import DEFAULT_ASSETS, find_default_asset
from x402.mechanisms.evm.exact.eip3009_utils import ERC20_TRANSFER_EVENT_TOPIC
from x402.mechanisms.evm.types import AUTHORIZATION_TYPES, TransactionReceipt
from x402.mechanisms.evm.utils import get_evm_chain_id, normalize_address
from x402.mechanisms.evm.verify import verify_typed_data_strict

# the tables live in ledger_tables, which the schema's metadata imports without the Ethereum libraries
from twlookup.platform.payments.ledger_tables import LEDGER_TABLES, LedgerAuthorization, LedgerBalance, LedgerTransfer
from twlookup.platform.store import engine as store_engine

ZERO_ADDRESS = "0x0000000000000000000000000000000000000000"
MAX_AMOUNT = 2**63 - 1
SECP256K1_HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0

#: The facilitator's own address when none is configured (it pays no gas here; it only names
#: the sender of the ledger's transactions and the signer listed in /supported).
DEFAULT_TREASURY_ADDRESS = to_checksum_address(keccak(b"twlookup local ledger facilitator")[-20:])

# Placeholder bytecode reported for token and Multicall3 addresses (the SDK checks len > 0).
_CONTRACT_CODE = bytes.fromhex("6080604052")


# ---------------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    """An EIP-3009 token the ledger emulates: its EIP-712 domain is (name, version, chain id,
    address), as on chain."""

    network: str
    address: str
    name: str
    version: str
    decimals: int
    symbol: str

    @property
    def chain_id(self) -> int:
        return get_evm_chain_id(self.network)


def default_token(network: str) -> Token:
    """The network's default EIP-3009 stablecoin (USDC on Base and Base Sepolia), from the SDK's
    own table of default assets."""
    for entry in DEFAULT_ASSETS.get(network, []):
        if entry.get("asset_transfer_method") != "permit2":
            return _token_from_entry(network, entry)
    raise ValueError(f"no default EIP-3009 asset for network {network}")


def token_for(network: str, asset: str | None = None) -> Token:
    """The token of `asset` on `network` (the default one when asset is None), known to the SDK."""
    if asset is None:
        return default_token(network)
    entry = find_default_asset(asset, network)
    if entry is None:
        raise ValueError(f"asset {asset} is not a known asset on {network}")
    return _token_from_entry(network, entry)


def _token_from_entry(network: str, entry: Mapping[str, Any]) -> Token:
    return Token(
        network=network,
        address=normalize_address(entry["asset"]),
        name=entry["name"],
        version=entry["version"],
        decimals=int(entry["decimals"]),
        symbol=entry["symbol"],
    )


# ---------------------------------------------------------------------------------------------
# Helpers shared by Ledger and LedgerSigner
# ---------------------------------------------------------------------------------------------

EngineSource = Engine | Callable[[], Engine] | None


def _resolve_engine(source: EngineSource) -> Engine:
    if source is None:
        return store_engine.get_engine()
    if isinstance(source, Engine):
        return source
    return source()


def _now() -> datetime:
    return datetime.now(UTC)


def _nonce_hex(nonce: bytes | str) -> str:
    raw = nonce if isinstance(nonce, bytes) else bytes.fromhex(str(nonce).removeprefix("0x"))
    if len(raw) != 32:
        raise ValueError(f"nonce must be 32 bytes, got {len(raw)}")
    return "0x" + raw.hex()


def _check_amount(amount: int) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise TypeError("amounts are integers of the token's smallest unit")
    if amount < 0 or amount > MAX_AMOUNT:
        raise ValueError(f"amount out of range: {amount}")
    return amount


def _read_balance(conn: Connection, network: str, asset: str, address: str) -> int:
    t = LedgerBalance.__table__
    value = conn.execute(
        select(t.c.amount).where(t.c.network == network, t.c.asset == asset, t.c.address == address)
    ).scalar()
    return int(value) if value is not None else 0


def _credit(conn: Connection, network: str, asset: str, address: str, amount: int) -> None:
    """Add to a balance, creating its row if needed (an upsert where the dialect has one)."""
    t = LedgerBalance.__table__
    values = {"network": network, "asset": asset, "address": address, "amount": amount, "updated_at": _now()}
    dialect = conn.dialect.name
    if dialect in ("sqlite", "postgresql"):
        ins = (sqlite_insert if dialect == "sqlite" else pg_insert)(t).values(**values)
        stmt = ins.on_conflict_do_update(
            index_elements=[t.c.network, t.c.asset, t.c.address],
            set_={"amount": t.c.amount + ins.excluded.amount, "updated_at": ins.excluded.updated_at},
        )
        conn.execute(stmt)
        return
    result = conn.execute(
        update(t)
        .where(t.c.network == network, t.c.asset == asset, t.c.address == address)
        .values(amount=t.c.amount + amount, updated_at=values["updated_at"])
    )
    if result.rowcount == 0:
        conn.execute(insert(t).values(**values))


def _debit(conn: Connection, network: str, asset: str, address: str, amount: int) -> bool:
    """Subtract from a balance only if it covers the amount; False when it does not."""
    t = LedgerBalance.__table__
    result = conn.execute(
        update(t)
        .where(t.c.network == network, t.c.asset == asset, t.c.address == address, t.c.amount >= amount)
        .values(amount=t.c.amount - amount, updated_at=_now())
    )
    return result.rowcount == 1


@dataclass(frozen=True)
class TransferRecord:
    id: int
    tx_hash: str
    network: str
    asset: str
    kind: str
    from_address: str
    to_address: str
    amount: int
    nonce: str | None
    created_at: datetime


def _record(row: Any) -> TransferRecord:
    return TransferRecord(
        id=row.id,
        tx_hash=row.tx_hash,
        network=row.network,
        asset=row.asset,
        kind=row.kind,
        from_address=row.from_address,
        to_address=row.to_address,
        amount=int(row.amount),
        nonce=row.nonce,
        created_at=row.created_at,
    )


# ---------------------------------------------------------------------------------------------
# Ledger: funding and reading, for the CLI, the app and tests
# ---------------------------------------------------------------------------------------------


class Ledger:
    """The balances of one token on one network.

    `engine` is the SQLAlchemy engine (or a callable returning it); by default the store's
    process-wide engine, looked up on each call.
    """

    def __init__(self, network: str, asset: str | None = None, *, engine: EngineSource = None) -> None:
        self.network = network
        self.token = token_for(network, asset)
        self.asset = self.token.address
        self._engine = engine

    @property
    def engine(self) -> Engine:
        return _resolve_engine(self._engine)

    def fund(self, address: str, amount: int) -> str:
        """Mint `amount` to `address` (logged as a transfer from the zero address); returns its
        transaction hash."""
        _check_amount(amount)
        address = normalize_address(address)
        tx_hash = "0x" + keccak(b"twlookup-ledger-fund:" + uuid.uuid4().bytes).hex()
        with self.engine.begin() as conn:
            _credit(conn, self.network, self.asset, address, amount)  # a write first (see below)
            if _read_balance(conn, self.network, self.asset, address) > MAX_AMOUNT:
                raise ValueError("balance would exceed the ledger's maximum")  # rolls back
            conn.execute(
                insert(LedgerTransfer.__table__).values(
                    tx_hash=tx_hash,
                    network=self.network,
                    asset=self.asset,
                    kind="fund",
                    from_address=ZERO_ADDRESS,
                    to_address=address,
                    amount=amount,
                    nonce=None,
                    created_at=_now(),
                )
            )
        return tx_hash

    def balance(self, address: str) -> int:
        with self.engine.connect() as conn:
            return _read_balance(conn, self.network, self.asset, normalize_address(address))

    def transfers(
        self, address: str | None = None, *, kind: str | None = None, limit: int = 100
    ) -> list[TransferRecord]:
        """The log, newest first: all of this token's entries, or those from or to `address`."""
        t = LedgerTransfer.__table__
        stmt = select(t).where(t.c.network == self.network, t.c.asset == self.asset)
        if address is not None:
            a = normalize_address(address)
            stmt = stmt.where(or_(t.c.from_address == a, t.c.to_address == a))
        if kind is not None:
            stmt = stmt.where(t.c.kind == kind)
        stmt = stmt.order_by(t.c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [_record(row) for row in conn.execute(stmt)]

    def authorization_used(self, authorizer: str, nonce: bytes | str) -> bool:
        t = LedgerAuthorization.__table__
        with self.engine.connect() as conn:
            return (
                conn.execute(
                    select(t.c.tx_hash).where(
                        t.c.network == self.network,
                        t.c.asset == self.asset,
                        t.c.authorizer == normalize_address(authorizer),
                        t.c.nonce == _nonce_hex(nonce),
                    )
                ).first()
                is not None
            )


# ---------------------------------------------------------------------------------------------
# Contract emulation
# ---------------------------------------------------------------------------------------------


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
class _Function:
    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]

    @property
    def selector(self) -> bytes:
        return keccak(text=f"{self.name}({','.join(self.inputs)})")[:4]


_TOKEN_FUNCTIONS = [
    _Function(
        e["name"],
        tuple(i["type"] for i in e.get("inputs", [])),
        tuple(o["type"] for o in e.get("outputs", [])),
    )
    for e in _SIMPLE_ABIS
]
_BY_SELECTOR = {f.selector: f for f in _TOKEN_FUNCTIONS}


def _find_function(name: str, nargs: int) -> _Function:
    for f in _TOKEN_FUNCTIONS:
        if f.name == name and len(f.inputs) == nargs:
            return f
    raise LedgerRevert(f"local ledger: the token has no function {name} with {nargs} arguments")


def _normalize_args(fn: _Function, args: tuple[Any, ...]) -> tuple[Any, ...]:
    out: list[Any] = []
    for typ, value in zip(fn.inputs, args, strict=True):
        if typ == "address":
            out.append(normalize_address(str(value)))
        elif typ.startswith("uint"):
            out.append(int(value))
        elif typ in ("bytes32", "bytes"):
            out.append(value if isinstance(value, bytes) else bytes.fromhex(str(value).removeprefix("0x")))
        else:
            out.append(value)
    return tuple(out)


class _State:
    """Ledger state as seen by one eth_call: the database plus the changes earlier sub-calls of
    the same multicall made (never written)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.deltas: dict[tuple[str, str], int] = {}
        self.used: set[tuple[str, str, str]] = set()

    def balance(self, token: Token, address: str) -> int:
        return _read_balance(self.conn, token.network, token.address, address) + self.deltas.get(
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
class _Authorization:
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


def _authorization_from_call(token: Token, fn: _Function, args: tuple[Any, ...]) -> _Authorization:
    frm, to, value, valid_after, valid_before, nonce = args[:6]
    if fn.inputs[-1] == "bytes":
        signature = args[6]
    else:
        v, r, s = args[6], args[7], args[8]
        signature = bytes(r).rjust(32, b"\0") + bytes(s).rjust(32, b"\0") + bytes([int(v) & 0xFF])
    return _Authorization(token, frm, to, value, valid_after, valid_before, nonce, signature)


def _recover_signer(auth: _Authorization) -> str | None:
    """ecrecover over the token's own EIP-712 domain, as FiatTokenV2's SignatureChecker does for
    an EOA; None when the signature is malformed."""
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


def _check_authorization(auth: _Authorization, now: float) -> None:
    """FiatTokenV2's checks before state is touched, in its order."""
    if not now > auth.valid_after:
        raise LedgerRevert(REVERT_NOT_YET_VALID)
    if not now < auth.valid_before:
        raise LedgerRevert(REVERT_EXPIRED)


def _check_signature_and_parties(auth: _Authorization) -> None:
    recovered = _recover_signer(auth)
    if recovered is None or recovered.lower() != auth.frm.lower():
        raise LedgerRevert(REVERT_INVALID_SIGNATURE)
    if auth.frm == ZERO_ADDRESS:
        raise LedgerRevert(REVERT_FROM_ZERO)
    if auth.to == ZERO_ADDRESS:
        raise LedgerRevert(REVERT_TO_ZERO)


# ---------------------------------------------------------------------------------------------
# The signer
# ---------------------------------------------------------------------------------------------


class LedgerSigner:
    """`FacilitatorEvmSigner` over the ledger.

    `networks_assets` is either a list of networks (each gets its default EIP-3009 asset from the
    SDK, i.e. USDC on Base and Base Sepolia) or a mapping network -> asset addresses (known to the
    SDK's default-asset table, which gives each token's EIP-712 name and version).

    The SDK never tells the signer which network a call is for (contract calls carry only the
    contract address and `get_chain_id()` takes no argument), so a signer serving several networks
    routes token calls by token address, which must then be unique across its networks, and
    cannot answer `get_chain_id()`. Use `signer_for(network)` for the signer of one network; the
    local facilitator registers one scheme per network that way.
    """

    def __init__(
        self,
        networks_assets: Mapping[str, Iterable[str]] | Iterable[str],
        treasury_address: str | None = None,
        *,
        engine: EngineSource = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if isinstance(networks_assets, Mapping):
            pairs = [(n, list(a)) for n, a in networks_assets.items()]
        else:
            pairs = [(n, []) for n in networks_assets]
        tokens: dict[str, Token] = {}
        self.networks: list[str] = []
        for network, assets in pairs:
            get_evm_chain_id(network)  # fail early on a non-EVM network
            self.networks.append(network)
            for token in [token_for(network, a) for a in assets] or [default_token(network)]:
                if token.address in tokens and tokens[token.address].network != network:
                    raise ValueError(
                        f"token {token.address} is on both {tokens[token.address].network} and {network}: "
                        "use one signer per network (signer_for)"
                    )
                tokens[token.address] = token
        if not self.networks:
            raise ValueError("a ledger signer needs at least one network")
        self.tokens = tokens
        self.treasury_address = normalize_address(treasury_address or DEFAULT_TREASURY_ADDRESS)
        self._engine = engine
        self._clock = clock

    # -- helpers ----------------------------------------------------------------------------

    @property
    def engine(self) -> Engine:
        return _resolve_engine(self._engine)

    def signer_for(self, network: str) -> LedgerSigner:
        """The signer of one of this signer's networks, with the same store and treasury."""
        if network not in self.networks:
            raise ValueError(f"network {network} is not served by this ledger signer")
        assets = [t.address for t in self.tokens.values() if t.network == network]
        return LedgerSigner({network: assets}, self.treasury_address, engine=self._engine, clock=self._clock)

    def ledger(self, network: str | None = None, asset: str | None = None) -> Ledger:
        network = network or self.networks[0]
        if asset is None:
            asset = next(t.address for t in self.tokens.values() if t.network == network)
        return Ledger(network, asset, engine=self._engine)

    def _token(self, address: str) -> Token | None:
        try:
            return self.tokens.get(normalize_address(address))
        except ValueError:
            return None

    def _call_token(self, state: _State, token: Token, fn: _Function, args: tuple[Any, ...]) -> Any:
        """Run one read-only token call against `state`; returns the decoded Python value."""
        if fn.name == "balanceOf":
            return state.balance(token, args[0])
        if fn.name == "authorizationState":
            return state.authorization_used(token, args[0], "0x" + args[1].hex())
        if fn.name == "name":
            return token.name
        if fn.name == "version":
            return token.version
        if fn.name == "decimals":
            return token.decimals
        if fn.name == "symbol":
            return token.symbol
        if fn.name == "transferWithAuthorization":
            auth = _authorization_from_call(token, fn, args)
            _check_authorization(auth, self._clock())
            if state.authorization_used(token, auth.frm, auth.nonce_hex):
                raise LedgerRevert(REVERT_USED)
            _check_signature_and_parties(auth)
            state.simulate_transfer(token, auth.frm, auth.to, auth.value, auth.nonce_hex)
            return None
        raise LedgerRevert(f"local ledger: unsupported function {fn.name}")

    def _multicall(
        self, conn: Connection, entries: list[tuple[str, bytes, bool]], require_all: bool
    ) -> list[tuple[bool, bytes]]:
        state: _State | None = None
        results: list[tuple[bool, bytes]] = []
        for target, calldata, allow_failure in entries:
            token = self._token(target)
            try:
                if token is None:
                    # An EOA: eth_call to code-less address succeeds with empty return data; the
                    # SDK's callers treat that as a failed decode. Anything else we cannot run.
                    raise LedgerRevert("local ledger: call to an address that is not a known token")
                fn = _BY_SELECTOR.get(bytes(calldata[:4]))
                if fn is None:
                    raise LedgerRevert("local ledger: unknown function selector 0x" + bytes(calldata[:4]).hex())
                args = _normalize_args(fn, tuple(abi_decode(list(fn.inputs), bytes(calldata[4:]))))
                if state is None:
                    state = _State(conn)
                value = self._call_token(state, token, fn, args)
                data = abi_encode(list(fn.outputs), [value]) if fn.outputs else b""
                results.append((True, data))
            except LedgerRevert as revert:
                if require_all or not allow_failure:
                    raise
                results.append((False, revert.revert_data()))
            except Exception as exc:  # undecodable calldata
                revert = LedgerRevert(f"local ledger: bad call ({exc})")
                if require_all or not allow_failure:
                    raise revert from exc
                results.append((False, revert.revert_data()))
        return results

    # -- FacilitatorEvmSigner ---------------------------------------------------------------

    def get_addresses(self) -> list[str]:
        return [self.treasury_address]

    def get_chain_id(self) -> int:
        if len(self.networks) != 1:
            raise RuntimeError("this ledger signer serves several networks: use signer_for(network)")
        return get_evm_chain_id(self.networks[0])

    def get_code(self, address: str) -> bytes:
        if self._token(address) is not None or address.lower() == MULTICALL3_ADDRESS.lower():
            return _CONTRACT_CODE
        return b""

    def get_balance(self, address: str, token_address: str) -> int:
        token = self._token(token_address) if token_address else None
        if token is None:
            return 0  # native coin and unknown tokens: the ledger holds none
        with self.engine.connect() as conn:
            return _read_balance(conn, token.network, token.address, normalize_address(address))

    def read_contract(self, address: str, abi: list[dict[str, Any]], function_name: str, *args: Any) -> Any:
        """An eth_call: token reads, a simulated transferWithAuthorization (returns None or raises
        LedgerRevert), or Multicall3 tryAggregate/aggregate3 over token calls."""
        if address.lower() == MULTICALL3_ADDRESS.lower():
            if function_name == "tryAggregate":
                require_success, calls = args
                entries = [(str(target), bytes(data), True) for target, data in calls]
                require_all = bool(require_success)
            elif function_name == "aggregate3":
                (calls,) = args
                entries = [(str(target), bytes(data), bool(allow)) for target, allow, data in calls]
                require_all = False
            else:
                raise LedgerRevert(f"local ledger: Multicall3.{function_name} is not supported")
            with self.engine.connect() as conn:
                return self._multicall(conn, entries, require_all)
        token = self._token(address)
        if token is None:
            raise LedgerRevert(f"local ledger: {address} is not a contract")
        fn = _find_function(function_name, len(args))
        with self.engine.connect() as conn:
            return self._call_token(_State(conn), token, fn, _normalize_args(fn, args))

    def verify_typed_data(
        self,
        address: str,
        domain: Any,
        types: dict[str, list[Any]],
        primary_type: str,
        message: dict[str, Any],
        signature: bytes,
    ) -> bool:
        return verify_typed_data_strict(self, address, domain, types, primary_type, message, signature)

    def write_contract(
        self,
        address: str,
        abi: list[dict[str, Any]],
        function_name: str,
        *args: Any,
        data_suffix: str | None = None,
    ) -> str:
        """A transaction: only transferWithAuthorization on a known token. Returns its hash, or
        raises LedgerRevert (nothing is written then)."""
        token = self._token(address)
        if token is None:
            raise LedgerRevert(f"local ledger: {address} is not a contract")
        fn = _find_function(function_name, len(args))
        if fn.name != "transferWithAuthorization":
            raise LedgerRevert(f"local ledger: {fn.name} cannot be sent as a transaction")
        return self._transfer_with_authorization(_authorization_from_call(token, fn, _normalize_args(fn, args)))

    def send_transaction(self, to: str, data: bytes) -> str:
        token = self._token(to)
        if token is None:
            raise LedgerRevert(f"local ledger: cannot send a transaction to {to} (no contract there)")
        fn = _BY_SELECTOR.get(bytes(data[:4]))
        if fn is None or fn.name != "transferWithAuthorization":
            raise LedgerRevert("local ledger: only transferWithAuthorization can be sent as a transaction")
        args = _normalize_args(fn, tuple(abi_decode(list(fn.inputs), bytes(data[4:]))))
        return self._transfer_with_authorization(_authorization_from_call(token, fn, args))

    def wait_for_transaction_receipt(self, tx_hash: str) -> TransactionReceipt:
        t = LedgerTransfer.__table__
        with self.engine.connect() as conn:
            row = conn.execute(select(t).where(t.c.tx_hash == tx_hash.lower())).first()
        if row is None:
            raise TimeoutError(f"transaction {tx_hash} is not in the local ledger")
        log = {
            "address": row.asset,
            "topics": [
                ERC20_TRANSFER_EVENT_TOPIC,
                "0x" + "00" * 12 + row.from_address.lower().removeprefix("0x"),
                "0x" + "00" * 12 + row.to_address.lower().removeprefix("0x"),
            ],
            "data": "0x" + int(row.amount).to_bytes(32, "big").hex(),
            "transactionHash": row.tx_hash,
            "logIndex": 0,
            "blockNumber": row.id,
        }
        return TransactionReceipt(status=TX_STATUS_SUCCESS, block_number=row.id, tx_hash=row.tx_hash, logs=[log])

    # -- the one state change ---------------------------------------------------------------

    def _transfer_with_authorization(self, auth: _Authorization) -> str:
        _check_authorization(auth, self._clock())
        if Ledger(auth.token.network, auth.token.address, engine=self._engine).authorization_used(auth.frm, auth.nonce):
            raise LedgerRevert(REVERT_USED)  # early, cheap answer; the insert below is the guard
        _check_signature_and_parties(auth)
        if auth.value > MAX_AMOUNT:
            raise LedgerRevert(REVERT_INSUFFICIENT)
        tx_hash = auth.tx_hash()
        token = auth.token
        now = _now()
        try:
            with self.engine.begin() as conn:
                # First statement is a write, so SQLite takes its write lock here (no read-then-
                # upgrade), and on PostgreSQL a concurrent insert of the same key waits for us.
                conn.execute(
                    insert(LedgerAuthorization.__table__).values(
                        network=token.network,
                        asset=token.address,
                        authorizer=auth.frm,
                        nonce=auth.nonce_hex,
                        tx_hash=tx_hash,
                        used_at=now,
                    )
                )
                if auth.value > 0:
                    # Touch the two balance rows in address order, so that two transfers in
                    # opposite directions cannot deadlock on PostgreSQL.
                    steps = sorted([(auth.frm, "debit"), (auth.to, "credit")], key=lambda s: (s[0].lower(), s[1]))
                    for address, step in steps:
                        if step == "debit":
                            if not _debit(conn, token.network, token.address, address, auth.value):
                                raise LedgerRevert(REVERT_INSUFFICIENT)
                        else:
                            _credit(conn, token.network, token.address, address, auth.value)
                            if _read_balance(conn, token.network, token.address, address) > MAX_AMOUNT:
                                raise LedgerRevert("local ledger: balance would exceed the ledger's maximum")
                conn.execute(
                    insert(LedgerTransfer.__table__).values(
                        tx_hash=tx_hash,
                        network=token.network,
                        asset=token.address,
                        kind="transfer",
                        from_address=auth.frm,
                        to_address=auth.to,
                        amount=auth.value,
                        nonce=auth.nonce_hex,
                        created_at=now,
                    )
                )
        except IntegrityError as exc:
            if Ledger(token.network, token.address, engine=self._engine).authorization_used(auth.frm, auth.nonce):
                raise LedgerRevert(REVERT_USED) from exc
            raise LedgerRevert(f"local ledger: transfer refused by the store ({exc.orig})") from exc
        return tx_hash


def signer_for(
    network: str,
    treasury_address: str | None = None,
    *,
    assets: Iterable[str] | None = None,
    engine: EngineSource = None,
) -> LedgerSigner:
    """The ledger signer of one network (its default USDC unless `assets` are given)."""
    return LedgerSigner({network: list(assets or [])}, treasury_address, engine=engine)


__all__ = [
    "DEFAULT_TREASURY_ADDRESS",
    "LEDGER_TABLES",
    "Ledger",
    "LedgerAuthorization",
    "LedgerBalance",
    "LedgerRevert",
    "LedgerSigner",
    "LedgerTransfer",
    "Token",
    "TransferRecord",
    "default_token",
    "signer_for",
    "token_for",
]
