"""Per-service, per-client-IP rate limit as a pure-ASGI layer, counted by the `limits` library.

Counters live in memory by default and in Redis when a Redis URL is configured, so several
processes share one budget per client. The client IP is the socket peer, or the right-most
X-Forwarded-For address not belonging to a trusted proxy when the peer is a trusted proxy.
"""

from __future__ import annotations

import math
import time
from ipaddress import ip_address, ip_network
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.storage import RedisStorage as AsyncRedisStorage
from limits.aio.strategies import FixedWindowRateLimiter as AsyncFixedWindow
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from twlookup.platform.errors import Problem
from twlookup.platform.http import header, send_problem


class ClientIP:
    def __init__(self, trusted_proxies: list[str]) -> None:
        self.trusted = [ip_network(c, strict=False) for c in trusted_proxies]

    def _is_trusted(self, addr: str) -> bool:
        try:
            ip = ip_address(addr.strip())
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    def __call__(self, scope: dict[str, Any]) -> str:
        client = scope.get("client")
        peer = client[0] if client else "unknown"
        if not self.trusted or not self._is_trusted(peer):
            return peer
        forwarded = header(scope, b"x-forwarded-for")
        if not forwarded:
            return peer
        hops = [h.strip() for h in forwarded.decode("latin-1").split(",") if h.strip()]
        for hop in reversed(hops):
            if not self._is_trusted(hop):
                return hop
        return hops[0] if hops else peer


class Counter:
    """One limiter for all services: memory (sync, no awaits on the hot path) or Redis (async)."""

    def __init__(self, redis_url: str | None) -> None:
        self.redis_url = redis_url
        if redis_url:
            url = redis_url if redis_url.startswith("async+") else "async+" + redis_url
            self._async = AsyncFixedWindow(AsyncRedisStorage(url, implementation="redispy"))
            self._sync = None
        else:
            self._sync = FixedWindowRateLimiter(MemoryStorage())
            self._async = None

    async def hit(self, item: RateLimitItem, *keys: str) -> bool:
        if self._sync is not None:
            return self._sync.hit(item, *keys)
        assert self._async is not None
        return await self._async.hit(item, *keys)

    async def reset_in(self, item: RateLimitItem, *keys: str) -> int:
        if self._sync is not None:
            stats = self._sync.get_window_stats(item, *keys)
        else:
            assert self._async is not None
            stats = await self._async.get_window_stats(item, *keys)
        return max(1, math.ceil(stats.reset_time - time.time()))


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
        if await self.counter.hit(self.item, self.service, ip):
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
