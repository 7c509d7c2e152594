"""Times read back from the store: SQLite hands back naive datetimes; everything is stored in UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, overload

from pydantic import BeforeValidator


@overload
def as_utc(value: datetime) -> datetime: ...


@overload
def as_utc(value: None) -> None: ...


def as_utc(value: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; everything here is stored in UTC."""
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# an answer field holding a time read from the store, made aware (UTC) whatever the store handed back
StoredTime = Annotated[datetime, BeforeValidator(as_utc)]
