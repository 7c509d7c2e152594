"""Key/value table for store-wide facts; `data_version` goes up on every seed or import."""

from __future__ import annotations

from sqlalchemy import String, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, Session, mapped_column

from twlookup.platform.store.base import Base


class StoreMeta(Base):
    __tablename__ = "store_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


def read_version(conn: Connection) -> int:
    row = conn.execute(select(StoreMeta.value).where(StoreMeta.key == "data_version")).scalar()
    return int(row) if row is not None else 0


def bump_version(session: Session) -> int:
    current = session.get(StoreMeta, "data_version", with_for_update=True)
    if current is None:
        session.add(StoreMeta(key="data_version", value="1"))
        return 1
    current.value = str(int(current.value) + 1)
    return int(current.value)
