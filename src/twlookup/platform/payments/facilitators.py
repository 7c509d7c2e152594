"""Which facilitator the resource server talks to: remote over HTTP, or local in process."""

from __future__ import annotations

from typing import Any

from x402.http import FacilitatorConfig, HTTPFacilitatorClient

from twlookup.platform.payments.guard import GuardedFacilitator
from twlookup.settings import Settings


def make_facilitator(settings: Settings) -> Any:
    """remote: any facilitator speaking the x402 HTTP protocol (/verify, /settle, /supported),
    with a bounded timeout. local: the SDK's exact-EVM facilitator in process on the local
    USDC ledger in the store (moves no real money). Either is wrapped in `GuardedFacilitator`:
    bounded calls, and a remembered failure with back-off."""
    if settings.facilitator == "remote":
        client: Any = HTTPFacilitatorClient(
            FacilitatorConfig(url=settings.facilitator_url, timeout=settings.facilitator_timeout_seconds)
        )
    else:
        from twlookup.platform.payments.local_facilitator import LocalFacilitatorClient

        client = LocalFacilitatorClient([settings.evm_mainnet, settings.evm_testnet])
    return GuardedFacilitator(
        client, settings.facilitator_timeout_seconds, settings.facilitator_retry_max_seconds, name=settings.facilitator
    )
