"""The local ledger's balances and transfer log in the store: funding, reading, and the guarded
credit and debit the emulated contract moves money with.

Amounts are integers of the token's smallest unit, at most 2**63 - 1 per balance (the range that
SQLite stores exactly; PostgreSQL keeps them in NUMERIC(78, 0)).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any

from eth_utils import keccak
from sqlalchemy import Engine, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from twlookup.platform.payments.ledger.tokens import checksum, token_for
from twlookup.platform.payments.ledger_tables import LedgerAuthorization, LedgerBalance, LedgerTransfer
from twlookup.platform.store import engine as store_engine

ZERO_ADDRESS = "0x0000000000000000000000000000000000000000"
MAX_AMOUNT = 2**63 - 1

EngineSource = Engine | Callable[[], Engine] | None


def resolve_engine(source: EngineSource) -> Engine:
    if source is None:
        return store_engine.get_engine()
    if isinstance(source, Engine):
        return source
    return source()


def utcnow() -> datetime:
    return datetime.now(UTC)


def nonce_hex(nonce: bytes | str) -> str:
    raw = nonce if isinstance(nonce, bytes) else bytes.fromhex(str(nonce).removeprefix("0x"))
    if len(raw) != 32:
        raise ValueError(f"nonce must be 32 bytes, got {len(raw)}")
    return "0x" + raw.hex()


def check_amount(amount: int) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise TypeError("amounts are integers of the token's smallest unit")
    if amount < 0 or amount > MAX_AMOUNT:
        raise ValueError(f"amount out of range: {amount}")
    return amount


def read_balance(conn: Connection, network: str, asset: str, address: str) -> int:
    t = LedgerBalance.__table__
    value = conn.execute(
        select(t.c.amount).where(t.c.network == network, t.c.asset == asset, t.c.address == address)
    ).scalar()
    return int(value) if value is not None else 0


def credit(conn: Connection, network: str, asset: str, address: str, amount: int) -> bool:
    """Add to a balance, creating its row if needed (an upsert where the dialect has one); False
    when the balance is then over MAX_AMOUNT (the caller raises, which rolls the credit back)."""
    t = LedgerBalance.__table__
    values = {"network": network, "asset": asset, "address": address, "amount": amount, "updated_at": utcnow()}
    dialect = conn.dialect.name
    if dialect in ("sqlite", "postgresql"):
        ins = (sqlite_insert if dialect == "sqlite" else pg_insert)(t).values(**values)
        stmt = ins.on_conflict_do_update(
            index_elements=[t.c.network, t.c.asset, t.c.address],
            set_={"amount": t.c.amount + ins.excluded.amount, "updated_at": ins.excluded.updated_at},
        )
        conn.execute(stmt)
    else:
        result = conn.execute(
            update(t)
            .where(t.c.network == network, t.c.asset == asset, t.c.address == address)
            .values(amount=t.c.amount + amount, updated_at=values["updated_at"])
        )
        if result.rowcount == 0:
            conn.execute(insert(t).values(**values))
    return read_balance(conn, network, asset, address) <= MAX_AMOUNT


def debit(conn: Connection, network: str, asset: str, address: str, amount: int) -> bool:
    """Subtract from a balance only if it covers the amount; False when it does not."""
    t = LedgerBalance.__table__
    result = conn.execute(
        update(t)
        .where(t.c.network == network, t.c.asset == asset, t.c.address == address, t.c.amount >= amount)
        .values(amount=t.c.amount - amount, updated_at=utcnow())
    )
    return result.rowcount == 1


def log_transfer(
    conn: Connection,
    network: str,
    asset: str,
    kind: str,
    tx_hash: str,
    frm: str,
    to: str,
    amount: int,
    nonce: str | None,
    at: datetime,
) -> None:
    """Append an entry to the transfer log: a `fund` (from the zero address, no nonce) or a
    `transfer` by authorization."""
    conn.execute(
        insert(LedgerTransfer.__table__).values(
            tx_hash=tx_hash,
            network=network,
            asset=asset,
            kind=kind,
            from_address=frm,
            to_address=to,
            amount=amount,
            nonce=nonce,
            created_at=at,
        )
    )


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
    return TransferRecord(**{f.name: getattr(row, f.name) for f in fields(TransferRecord)})  # amount: an int


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
        return resolve_engine(self._engine)

    def fund(self, address: str, amount: int) -> str:
        """Mint `amount` to `address` (logged as a transfer from the zero address); returns its
        transaction hash."""
        check_amount(amount)
        address = checksum(address)
        tx_hash = "0x" + keccak(b"twlookup-ledger-fund:" + uuid.uuid4().bytes).hex()
        with self.engine.begin() as conn:
            if not credit(conn, self.network, self.asset, address, amount):  # a write first (see below)
                raise ValueError("balance would exceed the ledger's maximum")  # rolls back
            log_transfer(conn, self.network, self.asset, "fund", tx_hash, ZERO_ADDRESS, address, amount, None, utcnow())
        return tx_hash

    def balance(self, address: str) -> int:
        with self.engine.connect() as conn:
            return read_balance(conn, self.network, self.asset, checksum(address))

    def transfers(
        self, address: str | None = None, *, kind: str | None = None, limit: int = 100
    ) -> list[TransferRecord]:
        """The log, newest first: all of this token's entries, or those from or to `address`."""
        t = LedgerTransfer.__table__
        stmt = select(t).where(t.c.network == self.network, t.c.asset == self.asset)
        if address is not None:
            a = checksum(address)
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
                        t.c.authorizer == checksum(authorizer),
                        t.c.nonce == nonce_hex(nonce),
                    )
                ).first()
                is not None
            )
