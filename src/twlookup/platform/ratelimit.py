"""Per-service, per-client-IP rate limit as a pure-ASGI layer, counted by the `limits` library.

Counters live in memory by default and in Redis when a Redis URL is configured, so several
processes share one budget per client. The client IP is the socket peer, or the right-most
X-Forwarded-For address not belonging to a trusted proxy when the peer is a trusted proxy.

Redis is asked with a short bound (TWLOOKUP_REDIS_TIMEOUT_SECONDS). When it refuses, hangs or
errs, the limiter does what TWLOOKUP_RATE_LIMIT_ON_STORE_ERROR says: `allow` (the default: the
request is served uncounted and the outage is logged), `local` (counted in this process's
memory, so each process enforces the limit on its own), or `refuse` (503 with Retry-After).
After a failure Redis is left alone for TWLOOKUP_REDIS_RETRY_SECONDS, so an outage costs each
request nothing. No route answers 500 because of it; /healthz reports it.
"""

from __future__ import annotations

import logging
import math
import time
from ipaddress import ip_address, ip_network
from typing import Any

from anyio import fail_after
from limits import RateLimitItem, parse
from limits.aio.storage import RedisStorage as AsyncRedisStorage
from limits.aio.strategies import FixedWindowRateLimiter as AsyncFixedWindow
from limits.util import WindowStats

from twlookup.platform.errors import Problem
from twlookup.platform.http import header, send_problem

log = logging.getLogger("twlookup.ratelimit")


class ClientIP:
    def __init__(self, trusted_proxies: list[str]) -> None:
        self.trusted = [ip_network(c, strict=False) for c in trusted_proxies]

    def is_trusted(self, addr: str) -> bool:
        """Whether `addr` is one of TWLOOKUP_TRUSTED_PROXIES (whose forwarded headers are believed)."""
        try:
            ip = ip_address(addr.strip())
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    def __call__(self, scope: dict[str, Any]) -> str:
        client = scope.get("client")
        peer = client[0] if client else "unknown"
        if not self.trusted or not self.is_trusted(peer):
            return peer
        forwarded = header(scope, b"x-forwarded-for")
        if not forwarded:
            return peer
        hops = [h.strip() for h in forwarded.decode("latin-1").split(",") if h.strip()]
        for hop in reversed(hops):
            if not self.is_trusted(hop):
                return hop
        return hops[0] if hops else peer


class LocalWindows:
    """Fixed-window counters in this process's memory, for one process or when Redis is away.

    The same rule as the `limits` library's fixed window (a window opens with a client's first
    request and lasts the limit's period; a request is allowed while fewer than the limit were
    allowed in it), without that library's storage layers on the hot path. Called on the event
    loop only. Windows that have ended are swept out at most once a second, so memory holds only
    the clients seen in the current period."""

    def __init__(self) -> None:
        self._windows: dict[tuple[Any, ...], list[float]] = {}  # key -> [allowed so far, ends at]
        self._sweep_at = 0.0

    def hit(self, item: RateLimitItem, *keys: str) -> bool:
        now = time.time()
        key = _window_key(item, keys)
        window = self._windows.get(key)
        if window is None or window[1] <= now:
            if now >= self._sweep_at:
                self._sweep(now)
            window = self._windows[key] = [0, now + item.get_expiry()]
        if window[0] >= item.amount:
            return False
        window[0] += 1
        return True

    def get_window_stats(self, item: RateLimitItem, *keys: str) -> WindowStats:
        now = time.time()
        window = self._windows.get(_window_key(item, keys))
        if window is None or window[1] <= now:
            return WindowStats(now + item.get_expiry(), item.amount)
        return WindowStats(window[1], max(0, item.amount - int(window[0])))

    def _sweep(self, now: float) -> None:
        self._windows = {k: w for k, w in self._windows.items() if w[1] > now}
        self._sweep_at = now + 1.0


def _window_key(item: RateLimitItem, keys: tuple[str, ...]) -> tuple[Any, ...]:
    return (item.amount, item.multiples, item.GRANULARITY.seconds, *keys)


class Counter:
    """One limiter for all services: memory (sync, no awaits on the hot path) or Redis (async)."""

    def __init__(
        self,
        redis_url: str | None,
        timeout: float = 0.25,
        on_error: str = "allow",
        retry_seconds: float = 5.0,
    ) -> None:
        self.redis_url = redis_url
        self.timeout = timeout
        self.on_error = on_error
        self.retry_seconds = retry_seconds
        self._down_until = 0.0
        self._last_error: str | None = None
        self._local = LocalWindows()
        if redis_url:
            url = redis_url if redis_url.startswith("async+") else "async+" + redis_url
            self._storage = AsyncRedisStorage(
                url, implementation="redispy", socket_timeout=timeout, socket_connect_timeout=timeout
            )
            self._async: AsyncFixedWindow | None = AsyncFixedWindow(self._storage)
            self.memory: LocalWindows | None = None
        else:
            self.memory = self._local  # counted in this process: answered without an await
            self._async = None

    @classmethod
    def from_settings(cls, settings: Any) -> Counter:
        return cls(
            settings.redis_url,
            settings.redis_timeout_seconds,
            settings.rate_limit_on_store_error,
            settings.redis_retry_seconds,
        )

    async def hit(self, item: RateLimitItem, *keys: str) -> bool:
        if self.memory is not None:
            return self.memory.hit(item, *keys)
        assert self._async is not None
        if time.monotonic() < self._down_until:
            return self._fallback(item, keys)
        try:
            with fail_after(self.timeout):
                return await self._async.hit(item, *keys)
        except Exception as exc:  # refused, hung, or erring: never a 500 for the client
            self._failed(exc)
            return self._fallback(item, keys)

    async def reset_in(self, item: RateLimitItem, *keys: str) -> int:
        stats = None
        if self.memory is not None:
            stats = self.memory.get_window_stats(item, *keys)
        elif time.monotonic() >= self._down_until:
            assert self._async is not None
            try:
                with fail_after(self.timeout):
                    stats = await self._async.get_window_stats(item, *keys)
            except Exception as exc:
                self._failed(exc)
        if stats is None:
            stats = self._local.get_window_stats(item, *keys)
        return max(1, math.ceil(stats.reset_time - time.time()))

    async def ping(self) -> dict[str, Any]:
        """For /healthz: whether the counters' store answers (memory always does)."""
        if self._async is None:
            return {"status": "ok", "storage": "memory"}
        try:
            with fail_after(self.timeout):
                ok = await self._storage.check()
        except Exception as exc:
            ok = False
            self._failed(exc)
        if ok:
            self._down_until = 0.0
            return {"status": "ok", "storage": "redis"}
        return {
            "status": "down",
            "storage": "redis",
            "detail": self._last_error or "PING failed",
            "when_down": self.on_error,
        }

    def _fallback(self, item: RateLimitItem, keys: tuple[str, ...]) -> bool:
        if self.on_error == "local":
            return self._local.hit(item, *keys)
        if self.on_error == "refuse":
            raise Problem(
                503,
                "The rate-limit store is not answering, and this server refuses requests it cannot count. Try again shortly.",
                kind="rate-limit-unavailable",
                headers={"Retry-After": str(max(1, math.ceil(self.retry_seconds)))},
            )
        return True

    def _failed(self, exc: BaseException) -> None:
        now = time.monotonic()
        first = now >= self._down_until
        self._down_until = now + self.retry_seconds
        self._last_error = "no answer in time" if isinstance(exc, TimeoutError) else type(exc).__name__
        if first:
            log.warning(
                "rate-limit store (Redis) unavailable: %s; %s requests for %.0f s",
                self._last_error,
                {"allow": "allowing uncounted", "local": "counting in process", "refuse": "refusing"}[self.on_error],
                self.retry_seconds,
            )


class RateLimit:
    def __init__(self, app: Any, service: str, limit: str, counter: Counter, client_ip: ClientIP) -> None:
        self.app = app
        self.service = service
        self.item = parse(limit)
        self.counter = counter
        self.client_ip = client_ip

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] == "OPTIONS":
            await self.app(scope, receive, send)
            return
        ip = self.client_ip(scope)
        memory = self.counter.memory
        if memory is not None:  # the usual single process: no coroutine on the hot path
            allowed = memory.hit(self.item, self.service, ip)
        else:
            try:
                allowed = await self.counter.hit(self.item, self.service, ip)
            except Problem as refused:  # the counters' store is down and the setting is "refuse"
                await send_problem(send, refused)
                return
        if allowed:
            await self.app(scope, receive, send)
            return
        reset = await self.counter.reset_in(self.item, self.service, ip)
        limit = self.item.amount
        window = self.item.get_expiry()
        problem = Problem(
            429,
            f"More than {limit} requests in {window} seconds from {ip} to {self.service}; retry in {reset} s.",
            headers={
                "Retry-After": str(reset),
                "RateLimit-Limit": str(limit),
                "RateLimit-Remaining": "0",
                "RateLimit-Reset": str(reset),
                "RateLimit-Policy": f"{limit};w={window}",
            },
        )
        await send_problem(send, problem)
