"""Who is asking: the calling client and its Authorization header, for the operations that need them.

Operations take only their parameters. The few that must know the caller (a public submission is
rate limited per client; an operator's decision needs the operator's token) read the request the
endpoint is serving from this context variable. The endpoint (platform/endpoint.py) sets it around
every REST call, as a function that works the facts out only when an operation asks; it is copied
into the worker thread of a plain `def` operation. MCP calls set nothing (no tool needs it).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from twlookup.platform.errors import Problem


@dataclass(frozen=True)
class RequestInfo:
    service: str
    client: str  # the client IP as the rate limiter sees it (trusted proxies resolved)
    authorization: str | None  # the raw Authorization header, if any
    settings: Any  # the app's Settings (tests build their own; operations must not read globals)


# Who is asking, worked out when first asked (most operations never ask).
CURRENT: ContextVar[Callable[[], RequestInfo] | None] = ContextVar("twlookup_request", default=None)
# How many times an operation asked who is asking: such an answer is the caller's own, and is not
# kept for others (platform/answer_cache.py).
askings = 0


def current() -> RequestInfo:
    global askings
    askings += 1
    asking = CURRENT.get()
    if asking is None:
        raise Problem(400, "This operation is available over HTTP only (it needs to know the caller).")
    return asking()


def bearer(info: RequestInfo) -> str | None:
    return bearer_token(info.authorization)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, or None for any other header."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None
