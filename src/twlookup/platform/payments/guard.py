"""The facilitator behind bounds: every call has a deadline, and a failure is remembered.

The x402 resource server learns what a facilitator supports by a blocking `get_supported()`
call (`x402ResourceServer.initialize`). Made on the event loop, a slow remote facilitator would
freeze every route; retried on every paid request while it fails, it would keep doing so.
`GuardedFacilitator` wraps the facilitator client the resource servers are given:

- `prepare()` (awaited by the gate before it builds a challenge) fetches `/supported` once, in a
  worker thread, bounded by the facilitator timeout, shared by every service's resource server;
  later `get_supported()` calls return that answer at once.
- A failed fetch starts a back-off (1 s, doubling, at most `facilitator_retry_max_seconds`):
  until it ends, paid requests get 503 with Retry-After at once, without calling out.
- `verify` and `settle` are bounded by the same timeout.

Free routes and /healthz never wait on it; /healthz reports its last known state.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

from anyio import fail_after, to_thread

log = logging.getLogger("twlookup.payments")
T = TypeVar("T")


class FacilitatorUnavailable(Exception):
    def __init__(self, retry_after: int, reason: str) -> None:
        super().__init__(reason)
        self.retry_after = retry_after
        self.reason = reason


class GuardedFacilitator:
    def __init__(
        self, client: Any, timeout: float = 10.0, max_backoff: float = 60.0, name: str = "facilitator"
    ) -> None:
        self.client = client
        self.timeout = timeout
        self.max_backoff = max_backoff
        self.name = name
        self._supported: Any = None
        self._failures = 0
        self._retry_at = 0.0
        self._last_error: str | None = None
        self._lock: asyncio.Lock | None = None

    # -- what the resource server calls ----------------------------------------------------

    def get_supported(self) -> Any:
        if self._supported is None:  # only reached if someone initialises without prepare()
            raise FacilitatorUnavailable(self._retry_in(), "the facilitator's supported kinds are not known yet")
        return self._supported

    async def verify(self, payload: Any, requirements: Any) -> Any:
        return await self._bounded("verify", self.client.verify(payload, requirements))

    async def settle(self, payload: Any, requirements: Any) -> Any:
        return await self._bounded("settle", self.client.settle(payload, requirements))

    # -- readiness -------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        return self._supported is not None

    async def prepare(self) -> None:
        """Know what the facilitator supports, or raise FacilitatorUnavailable promptly."""
        if self._supported is not None:
            return
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:  # one fetch in flight; the others wait for its outcome
            if self._supported is not None:
                return
            if time.monotonic() < self._retry_at:
                raise FacilitatorUnavailable(self._retry_in(), self._last_error or "recently failed")
            try:
                with fail_after(self.timeout):
                    supported = await to_thread.run_sync(self.client.get_supported, abandon_on_cancel=True)
                if not getattr(supported, "kinds", None):
                    raise RuntimeError("it supports no payment kinds")
            except Exception as exc:
                self._fail(exc)
                raise FacilitatorUnavailable(self._retry_in(), self._last_error or "") from None
            self._supported = supported
            self._failures = 0
            self._last_error = None

    def status(self) -> dict[str, Any]:
        """Last known state, without calling out (for /healthz)."""
        if self._supported is not None:
            return {"status": "ok"}
        if self._failures:
            return {"status": "down", "detail": self._last_error, "retry_in_seconds": self._retry_in()}
        return {"status": "unknown", "detail": "not contacted yet (contacted on the first paid request)"}

    def _fail(self, exc: BaseException) -> None:
        self._failures += 1
        delay = min(self.max_backoff, 2.0 ** (self._failures - 1))
        self._retry_at = time.monotonic() + delay
        self._last_error = "no answer in time" if isinstance(exc, TimeoutError) else type(exc).__name__
        log.warning("x402 %s unavailable (%s); next try in %.0f s", self.name, self._last_error, delay)

    def _retry_in(self) -> int:
        return max(1, math.ceil(self._retry_at - time.monotonic()))

    async def _bounded(self, step: str, call: Awaitable[T]) -> T:
        try:
            with fail_after(self.timeout):
                return await call
        except TimeoutError:
            raise TimeoutError(f"the facilitator's {step} did not answer within {self.timeout:g} s") from None

    def __getattr__(self, name: str) -> Any:  # anything else the SDK may ask of the client
        return getattr(self.client, name)
