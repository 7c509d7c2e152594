"""Waiting for the store at start: `serve` retries an unreachable store for a while, then gives
up with one clear line instead of a traceback."""

from __future__ import annotations

import time

from sqlalchemy import text
from sqlalchemy.engine import make_url

from twlookup.platform.store import engine as store_engine


class StoreUnreachable(Exception):
    pass


def wait_for_store(url: str, seconds: float, limits: store_engine.StoreTimeouts | None = None) -> None:
    """Return once the store answers; raise StoreUnreachable after `seconds` of trying."""
    limits = limits or store_engine.StoreTimeouts()
    deadline = time.monotonic() + seconds
    engine = store_engine.make_engine(url, limits)
    try:
        while True:
            try:
                with engine.connect() as conn:
                    conn.execute(text("SELECT 1"))
                return
            except Exception as exc:  # refused, unknown host, bad credentials, no answer
                reason = type(getattr(exc, "orig", None) or exc).__name__
                if time.monotonic() >= deadline:
                    shown = make_url(store_engine.normalize_url(url)).render_as_string(hide_password=True)
                    raise StoreUnreachable(
                        f"the store {shown} did not answer within {seconds:g} s ({reason}); "
                        "start it, or check TWLOOKUP_DATABASE_URL (TWLOOKUP_STARTUP_WAIT_SECONDS sets the wait)"
                    ) from None
                time.sleep(min(1.0, max(0.05, deadline - time.monotonic())))
    finally:
        engine.dispose()
