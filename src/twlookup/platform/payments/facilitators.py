"""Which facilitator the resource server talks to: remote over HTTP, or local in process."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from twlookup.platform.payments import sdk
from twlookup.platform.payments.guard import GuardedFacilitator
from twlookup.settings import Settings


def make_facilitator(settings: Settings) -> GuardedFacilitator:
    """remote: any facilitator speaking the x402 HTTP protocol (/verify, /settle, /supported),
    with a bounded timeout. local: the SDK's exact-EVM facilitator in process on the local
    USDC ledger in the store (moves no real money). Either is wrapped in `GuardedFacilitator`:
    bounded calls, and a remembered failure with back-off. The client itself is built when the
    first paid request asks what it supports (in a worker thread), so the x402 SDK and the
    Ethereum libraries are not loaded by a process that is never paid."""

    def build() -> Any:
        sdk.load()  # keeps the recursion limit that py_ecc, under the SDK, would raise
        if settings.facilitator == "remote":
            from x402.http import FacilitatorConfig, HTTPFacilitatorClient

            return HTTPFacilitatorClient(
                FacilitatorConfig(url=settings.facilitator_url, timeout=settings.facilitator_timeout_seconds)
            )
        from twlookup.platform.payments.local_facilitator import LocalFacilitatorClient

        return LocalFacilitatorClient([settings.evm_mainnet, settings.evm_testnet])

    return GuardedFacilitator(
        LazyClient(build),
        settings.facilitator_timeout_seconds,
        settings.facilitator_retry_max_seconds,
        name=settings.facilitator,
    )


class LazyClient:
    """A facilitator client built on first use. `GuardedFacilitator.prepare()` makes that first
    use (`get_supported`) in a worker thread, before any verify or settle."""

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build = build
        self._client: Any = None
        self._lock = threading.Lock()

    @property
    def client(self) -> Any:
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._build()
        return self._client

    def get_supported(self) -> Any:
        return self.client.get_supported()

    async def verify(self, payload: Any, requirements: Any) -> Any:
        return await self.client.verify(payload, requirements)

    async def settle(self, payload: Any, requirements: Any) -> Any:
        return await self.client.settle(payload, requirements)

    def __getattr__(self, name: str) -> Any:  # anything else the SDK may ask of the client
        return getattr(self.client, name)
