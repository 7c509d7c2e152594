"""`LedgerSigner`: the x402 SDK's `FacilitatorEvmSigner` over the local ledger (see the package's
notes): contract calls answered by the emulated token (`contract`) against the balances
(`balances`), the one state change being `transferWithAuthorization`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from eth_utils import keccak, to_checksum_address
from sqlalchemy import Engine, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from x402.mechanisms.evm.constants import MULTICALL3_ADDRESS, TX_STATUS_SUCCESS
from x402.mechanisms.evm.exact.eip3009_utils import ERC20_TRANSFER_EVENT_TOPIC
from x402.mechanisms.evm.types import TransactionReceipt
from x402.mechanisms.evm.utils import get_evm_chain_id
from x402.mechanisms.evm.verify import verify_typed_data_strict

from twlookup.platform.payments.ledger.balances import (
    MAX_AMOUNT,
    EngineSource,
    Ledger,
    credit,
    debit,
    log_transfer,
    read_balance,
    resolve_engine,
    utcnow,
)
from twlookup.platform.payments.ledger.contract import (
    BY_SELECTOR,
    REVERT_INSUFFICIENT,
    REVERT_USED,
    Authorization,
    CallState,
    LedgerRevert,
    TokenFunction,
    authorization_from_call,
    check_authorization,
    check_signature_and_parties,
    find_function,
    normalize_args,
)
from twlookup.platform.payments.ledger.tokens import Token, checksum, default_token, token_for
from twlookup.platform.payments.ledger_tables import LedgerAuthorization, LedgerTransfer

#: The facilitator's own address when none is configured (it pays no gas here; it only names
#: the sender of the ledger's transactions and the signer listed in /supported).
DEFAULT_TREASURY_ADDRESS = to_checksum_address(keccak(b"twlookup local ledger facilitator")[-20:])

# Placeholder bytecode reported for token and Multicall3 addresses (the SDK checks len > 0).
_CONTRACT_CODE = bytes.fromhex("6080604052")


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
        self.treasury_address = checksum(treasury_address or DEFAULT_TREASURY_ADDRESS)
        self._engine = engine
        self._clock = clock

    # -- helpers ----------------------------------------------------------------------------

    @property
    def engine(self) -> Engine:
        return resolve_engine(self._engine)

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
            return self.tokens.get(checksum(address))
        except ValueError:
            return None

    def _call_token(self, state: CallState, token: Token, fn: TokenFunction, args: tuple[Any, ...]) -> Any:
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
            auth = authorization_from_call(token, fn, args)
            check_authorization(auth, self._clock())
            if state.authorization_used(token, auth.frm, auth.nonce_hex):
                raise LedgerRevert(REVERT_USED)
            check_signature_and_parties(auth)
            state.simulate_transfer(token, auth.frm, auth.to, auth.value, auth.nonce_hex)
            return None
        raise LedgerRevert(f"local ledger: unsupported function {fn.name}")

    def _multicall(
        self, conn: Connection, entries: list[tuple[str, bytes, bool]], require_all: bool
    ) -> list[tuple[bool, bytes]]:
        state: CallState | None = None
        results: list[tuple[bool, bytes]] = []
        for target, calldata, allow_failure in entries:
            token = self._token(target)
            try:
                if token is None:
                    # An EOA: eth_call to code-less address succeeds with empty return data; the
                    # SDK's callers treat that as a failed decode. Anything else we cannot run.
                    raise LedgerRevert("local ledger: call to an address that is not a known token")
                fn = BY_SELECTOR.get(bytes(calldata[:4]))
                if fn is None:
                    raise LedgerRevert("local ledger: unknown function selector 0x" + bytes(calldata[:4]).hex())
                args = normalize_args(fn, tuple(abi_decode(list(fn.inputs), bytes(calldata[4:]))))
                if state is None:
                    state = CallState(conn)
                value = self._call_token(state, token, fn, args)
                data = abi_encode(list(fn.outputs), [value]) if fn.outputs else b""
                results.append((True, data))
            except LedgerRevert as revert:
                if require_all or not allow_failure:
                    raise
                results.append((False, revert.revert_data()))
            except Exception as exc:  # undecodable calldata
                bad = LedgerRevert(f"local ledger: bad call ({exc})")
                if require_all or not allow_failure:
                    raise bad from exc
                results.append((False, bad.revert_data()))
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
            return read_balance(conn, token.network, token.address, checksum(address))

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
        fn = find_function(function_name, len(args))
        with self.engine.connect() as conn:
            return self._call_token(CallState(conn), token, fn, normalize_args(fn, args))

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
        fn = find_function(function_name, len(args))
        if fn.name != "transferWithAuthorization":
            raise LedgerRevert(f"local ledger: {fn.name} cannot be sent as a transaction")
        return self._transfer_with_authorization(authorization_from_call(token, fn, normalize_args(fn, args)))

    def send_transaction(self, to: str, data: bytes) -> str:
        token = self._token(to)
        if token is None:
            raise LedgerRevert(f"local ledger: cannot send a transaction to {to} (no contract there)")
        fn = BY_SELECTOR.get(bytes(data[:4]))
        if fn is None or fn.name != "transferWithAuthorization":
            raise LedgerRevert("local ledger: only transferWithAuthorization can be sent as a transaction")
        args = normalize_args(fn, tuple(abi_decode(list(fn.inputs), bytes(data[4:]))))
        return self._transfer_with_authorization(authorization_from_call(token, fn, args))

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

    def _transfer_with_authorization(self, auth: Authorization) -> str:
        check_authorization(auth, self._clock())
        if Ledger(auth.token.network, auth.token.address, engine=self._engine).authorization_used(auth.frm, auth.nonce):
            raise LedgerRevert(REVERT_USED)  # early, cheap answer; the insert below is the guard
        check_signature_and_parties(auth)
        if auth.value > MAX_AMOUNT:
            raise LedgerRevert(REVERT_INSUFFICIENT)
        tx_hash = auth.tx_hash()
        token = auth.token
        now = utcnow()
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
                            if not debit(conn, token.network, token.address, address, auth.value):
                                raise LedgerRevert(REVERT_INSUFFICIENT)
                        elif not credit(conn, token.network, token.address, address, auth.value):
                            raise LedgerRevert("local ledger: balance would exceed the ledger's maximum")
                log_transfer(
                    conn,
                    token.network,
                    token.address,
                    "transfer",
                    tx_hash,
                    auth.frm,
                    auth.to,
                    auth.value,
                    auth.nonce_hex,
                    now,
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
