"""What a request answers when the store cannot: 503 problem with Retry-After, never a 500.

A store that refuses connections, drops them, stops answering, or cancels a statement that ran
past its bound is not the client's fault and not a bug of ours; the client may retry shortly.
"""

from __future__ import annotations

import logging
import time

from sqlalchemy import exc as sa_exc

from twlookup.platform.errors import Problem

log = logging.getLogger("twlookup.store")
RETRY_AFTER = "5"

# Connection refused or lost, a pool with no free connection, a statement cancelled by its
# timeout (psycopg's QueryCanceled is an OperationalError), SQLite's "database is locked".
STORE_ERRORS: tuple[type[BaseException], ...] = (
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.TimeoutError,
    sa_exc.DisconnectionError,
)

_last_logged = 0.0


def is_store_error(exc: BaseException) -> bool:
    return isinstance(exc, STORE_ERRORS)


def store_unavailable(exc: BaseException | None = None, waited: float | None = None) -> Problem:
    """The 503 a client gets; the exception goes to the log (at most once a second), never
    into the body, which carries no SQL and no driver text."""
    global _last_logged
    now = time.monotonic()
    if now - _last_logged >= 1.0:
        _last_logged = now
        if exc is not None:
            log.warning(
                "store unavailable: %s: %s", type(exc).__name__, str(exc).splitlines()[0][:200] if str(exc) else ""
            )
        else:
            log.warning("store unavailable: no answer within %.1f s", waited or 0)
    detail = "The data store is not answering"
    detail += f" (no answer within {waited:g} s)" if waited else ""
    detail += "; nothing was charged. Try again in a few seconds."
    return Problem(503, detail, kind="store-unavailable", headers={"Retry-After": RETRY_AFTER})
