"""Which facilitator the resource server talks to: remote over HTTP, or local in process."""

from __future__ import annotations

from typing import Any

from x402.http import FacilitatorConfig, HTTPFacilitatorClient

from twlookup.settings import Settings


def make_facilitator(settings: Settings) -> Any:
    """remote: any facilitator speaking the x402 HTTP protocol (/verify, /settle, /supported),
    with a bounded timeout. local: the SDK's exact-EVM facilitator in process on the local
    USDC ledger in the store (moves no real money)."""
    if settings.facilitator == "remote":
        return HTTPFacilitatorClient(
            FacilitatorConfig(url=settings.facilitator_url, timeout=settings.facilitator_timeout_seconds)
        )
    from twlookup.platform.payments.local_facilitator import LocalFacilitatorClient

    return LocalFacilitatorClient([settings.evm_mainnet, settings.evm_testnet])
