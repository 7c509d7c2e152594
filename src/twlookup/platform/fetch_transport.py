"""The safe fetcher's connection: an httpx transport whose connection pool connects to the
addresses `twlookup.platform.fetch` resolved and checked for a host, never resolving the name
again. A module of its own so that httpx and httpcore are imported when a service first fetches a
URL, not when the process starts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import httpcore
import httpx

from twlookup.platform.tls import client_context


class PinnedBackend(httpcore.AsyncNetworkBackend):
    """Connects to the addresses checked for a host instead of resolving the name again."""

    def __init__(self) -> None:
        self.pins: dict[str, list[str]] = {}
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = self.pins.get(host.lower().strip("[]"))
        if not addresses:
            raise httpcore.ConnectError(f"{host} was not resolved and checked by the safe fetcher")
        last: Exception | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(
                    address, port, timeout=timeout, local_address=local_address, socket_options=socket_options
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
        assert last is not None
        raise last

    async def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> Any:
        raise httpcore.ConnectError("unix sockets are not fetched")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class PinnedTransport(httpx.AsyncHTTPTransport):
    """httpx's transport with a connection pool whose network backend is a `PinnedBackend`."""

    def __init__(self) -> None:
        super().__init__(verify=client_context(), trust_env=False, retries=0)
        self.backend = PinnedBackend()
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=client_context(),
            max_connections=4,
            http1=True,
            http2=False,
            retries=0,
            network_backend=self.backend,
        )
