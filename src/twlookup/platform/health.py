"""The /healthz body: each dependency's state, answered within a second whatever is down.

Every check is bounded by `health_timeout_seconds` (at most 0.9 s) and they run concurrently.
A store check runs in a worker thread of its own limiter, and at most one is in flight: when the
previous one is still stuck on a stalled database, the answer says how long it has waited instead
of starting another. The facilitator is not called (it is remote and may be slow); its last
known state is reported.

Status: 200 "ok" when every dependency answers; 200 "degraded" when only the rate-limit store
is down (requests are served as TWLOOKUP_RATE_LIMIT_ON_STORE_ERROR says); 503 "unavailable"
when the store is down (most routes answer 503 then; what needs no store keeps answering).
`services` says how many of its services this process has loaded: a serving process answers
before it has loaded them all, and loads the rest in the background (twlookup/service_slots.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from anyio import CapacityLimiter, to_thread
from sqlalchemy import text

from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.meta import read_version


class Probe:
    """One bounded check with at most one attempt in flight."""

    def __init__(self, check: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        self.check = check
        self.task: asyncio.Task[dict[str, Any]] | None = None
        self.started = 0.0

    async def __call__(self, timeout: float) -> dict[str, Any]:
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.check())
            self.task.add_done_callback(_consume)
            self.started = time.monotonic()
        try:
            return await asyncio.wait_for(asyncio.shield(self.task), timeout)
        except TimeoutError:
            return {"status": "down", "detail": f"no answer for {time.monotonic() - self.started:.1f} s"}
        except Exception as exc:
            return {"status": "down", "detail": describe(exc)}


def _consume(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()  # retrieved, so an abandoned failure is not reported as never retrieved


def describe(exc: BaseException) -> str:
    """A short, safe name for what failed: the driver's error class, never its text (which may
    carry SQL, host names or credentials)."""
    orig = getattr(exc, "orig", None)
    name = type(orig).__name__ if orig is not None else type(exc).__name__
    return "no answer in time" if name in ("TimeoutError", "QueryCanceled") else name


class Health:
    def __init__(
        self,
        settings: Any,
        counter: Any = None,
        facilitator: Any = None,
        services: Callable[[], tuple[int, int]] | None = None,
    ) -> None:
        self.settings = settings
        self.counter = counter
        self.facilitator = facilitator
        self.services = services  # how many services this process has loaded, of how many
        self.timeout = min(0.9, settings.health_timeout_seconds)
        self._limiter = CapacityLimiter(2)  # its own threads: never queued behind stuck requests
        self._store = Probe(self._check_store)
        self._redis = Probe(self._check_redis) if counter is not None else None

    async def _check_store(self) -> dict[str, Any]:
        version = await to_thread.run_sync(_store_version, abandon_on_cancel=True, limiter=self._limiter)
        return {"status": "ok", "data_version": version}

    async def _check_redis(self) -> dict[str, Any]:
        return await self.counter.ping()

    async def report(self) -> tuple[dict[str, Any], int]:
        checks = [self._store(self.timeout)]
        if self._redis is not None:
            checks.append(self._redis(self.timeout))
        results = await asyncio.gather(*checks)
        store = results[0]
        limiter = results[1] if self._redis is not None else {"status": "ok", "storage": "memory"}
        store["kind"] = store_engine.get_engine().dialect.name
        down = [name for name, part in (("store", store), ("rate_limit", limiter)) if part["status"] != "ok"]
        status = "unavailable" if "store" in down else "degraded" if down else "ok"
        settings = self.settings
        body: dict[str, Any] = {
            "status": status,
            "down": down,
            "store": store["kind"],
            "data_version": store.get("data_version"),
            "rate_limit_storage": "redis" if settings.redis_url else "memory",
            "checks": {"store": store, "rate_limit": limiter},
            "facilitator": settings.facilitator,
            "payments": (
                "local ledger: payments settle on an in-process test ledger and move no real money"
                if settings.facilitator == "local"
                else f"remote facilitator {settings.facilitator_url}: payments move real USDC"
            ),
        }
        if self.services is not None:  # a process loads its services after its start (twlookup/service_slots.py)
            loaded, of = self.services()
            body["services"] = {"loaded": loaded, "of": of}
        if self.facilitator is not None and hasattr(self.facilitator, "status"):
            body["checks"]["facilitator"] = self.facilitator.status()
        if store["status"] != "ok":
            body["detail"] = f"store: {store.get('detail')}"
        return body, 503 if status == "unavailable" else 200


def _store_version() -> int:
    with store_engine.get_engine().connect() as conn:
        conn.execute(text("SELECT 1"))
        return read_version(conn)
