"""Waiting for the store at start: `serve` retries an unreachable store for a while, then gives
up with one clear line instead of a traceback. A store that answers but cannot be used (a
PostgreSQL database that is not UTF-8, a refused password, a missing database) is said at once,
as what it is, not waited on as if it were unreachable."""

from __future__ import annotations

import time

from sqlalchemy import text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import OperationalError

from twlookup.platform.store import engine as store_engine


class StoreUnreachable(Exception):
    pass


class StoreUnusable(StoreUnreachable):
    """The store answered, and what it answered means twlookup cannot use it."""


# what libpq says when the server answered and refused: waiting does not help with these
_REFUSALS = ("password authentication failed", "does not exist", "no pg_hba.conf entry", "role ")


def _shown(url: str) -> str:
    return make_url(store_engine.normalize_url(url)).render_as_string(hide_password=True)


def postgres_encoding(url: URL) -> str:
    """server_encoding of a PostgreSQL database, asked without SQLAlchemy (whose dialect cannot
    start on a database that answers in bytes)."""
    import psycopg

    conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, connect_timeout=5) as conn:
        row = conn.execute("SHOW server_encoding").fetchone()
    value = row[0] if row else ""
    return value.decode("ascii", "replace") if isinstance(value, bytes) else str(value)


def _unusable(url: str, exc: Exception) -> StoreUnusable | None:
    """The reason the store cannot be used, when the error says it answered; None when it may be
    unreachable still."""
    parsed = make_url(store_engine.normalize_url(url))
    if parsed.get_backend_name() == "postgresql":
        import psycopg

        try:
            encoding = postgres_encoding(parsed)
        except (psycopg.Error, OSError):  # unreachable after all, or refused: said below
            encoding = ""
        if encoding and encoding.upper().replace("-", "") != "UTF8":
            return StoreUnusable(
                f"the store {_shown(url)} answered, but its encoding is {encoding}; twlookup keeps Chinese text "
                "and needs UTF8: create the database with ENCODING 'UTF8' (CREATE DATABASE ... ENCODING 'UTF8' "
                "TEMPLATE template0, or initdb -E UTF8)"
            )
    message = str(getattr(exc, "orig", None) or exc)
    if not isinstance(exc, OperationalError):
        return StoreUnusable(
            f"the store {_shown(url)} answered, but it cannot be used: {type(exc).__name__}: {message}"
        )
    if any(refusal in message for refusal in _REFUSALS):
        first_line = message.strip().splitlines()[-1] if message.strip() else message
        return StoreUnusable(f"the store {_shown(url)} refused the connection: {first_line.strip()}")
    return None


def wait_for_store(url: str, seconds: float, limits: store_engine.StoreTimeouts | None = None) -> None:
    """Return once the store answers; raise StoreUnusable at once when it answers with a reason it
    cannot be used, StoreUnreachable after `seconds` of trying."""
    limits = limits or store_engine.StoreTimeouts()
    deadline = time.monotonic() + seconds
    engine = store_engine.make_engine(url, limits)
    try:
        while True:
            try:
                with engine.connect() as conn:
                    conn.execute(text("SELECT 1"))
                return
            except Exception as exc:  # refused, unknown host, bad credentials, no answer, unusable
                unusable = _unusable(url, exc)
                if unusable is not None:
                    raise unusable from None
                reason = type(getattr(exc, "orig", None) or exc).__name__
                if time.monotonic() >= deadline:
                    raise StoreUnreachable(
                        f"the store {_shown(url)} did not answer within {seconds:g} s ({reason}); "
                        "start it, or check TWLOOKUP_DATABASE_URL (TWLOOKUP_STARTUP_WAIT_SECONDS sets the wait)"
                    ) from None
                time.sleep(min(1.0, max(0.05, deadline - time.monotonic())))
    finally:
        engine.dispose()
