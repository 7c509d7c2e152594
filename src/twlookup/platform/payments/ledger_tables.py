"""The tables of the local USDC ledger (platform/payments/ledger/ is the ledger itself).

Kept apart so that the schema's metadata (Alembic, `load_tables`) needs no Ethereum library.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, DateTime, Integer, Numeric, String
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from twlookup.platform.store.base import Base


class _ExactNumeric(Numeric[Decimal]):
    """NUMERIC whose values pass through the driver untouched: SQLite hands back its integers as
    Python ints (SQLAlchemy's own Numeric would go through float there), psycopg a Decimal."""

    def bind_processor(self, dialect: Dialect) -> None:
        return None

    def result_processor(self, dialect: Dialect, coltype: object) -> None:
        return None


class TokenAmount(TypeDecorator[int]):
    """An integer token amount, NUMERIC(78, 0) in the schema (uint256 fits), an int in Python."""

    impl = _ExactNumeric(78, 0)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Dialect) -> int | None:
        return None if value is None else int(value)

    def process_result_value(self, value: Decimal | int | None, dialect: Dialect) -> int | None:
        return None if value is None else int(value)


class LedgerBalance(Base):
    __tablename__ = "ledger_balance"
    __table_args__ = (CheckConstraint("amount >= 0", name="amount_not_negative"),)

    network: Mapped[str] = mapped_column(String(64), primary_key=True)
    asset: Mapped[str] = mapped_column(String(42), primary_key=True)
    address: Mapped[str] = mapped_column(String(42), primary_key=True)
    amount: Mapped[int] = mapped_column(TokenAmount(), default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LedgerAuthorization(Base):
    """A used EIP-3009 authorization. The primary key is the replay guard: the row is inserted in
    the transaction that moves the balance, and a second insert of the same key fails."""

    __tablename__ = "ledger_authorization"

    network: Mapped[str] = mapped_column(String(64), primary_key=True)
    asset: Mapped[str] = mapped_column(String(42), primary_key=True)
    authorizer: Mapped[str] = mapped_column(String(42), primary_key=True)
    nonce: Mapped[str] = mapped_column(String(66), primary_key=True)
    tx_hash: Mapped[str] = mapped_column(String(66))
    used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LedgerTransfer(Base):
    """The log: every funding (kind "fund", from the zero address) and every transfer."""

    __tablename__ = "ledger_transfer"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tx_hash: Mapped[str] = mapped_column(String(66), unique=True)
    network: Mapped[str] = mapped_column(String(64))
    asset: Mapped[str] = mapped_column(String(42))
    kind: Mapped[str] = mapped_column(String(16))
    from_address: Mapped[str] = mapped_column(String(42), index=True)
    to_address: Mapped[str] = mapped_column(String(42), index=True)
    amount: Mapped[int] = mapped_column(TokenAmount())
    nonce: Mapped[str | None] = mapped_column(String(66), default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


LEDGER_TABLES = [LedgerBalance.__table__, LedgerAuthorization.__table__, LedgerTransfer.__table__]
