"""The "local" facilitator mode: the x402 SDK's own facilitator, in process, on the local ledger.

`build_local_facilitator` puts the SDK's exact-EVM facilitator scheme (`ExactEvmFacilitatorScheme`,
EIP-3009), one instance per network each with the ledger signer of that network, on an
`x402FacilitatorSync`: the SDK's schemes are synchronous (even `x402Facilitator`
calls them without awaiting), and the ledger does blocking database work, so the async
`LocalFacilitatorClient` runs verify and settle in a worker thread.

`LocalFacilitatorClient` satisfies the resource server's `FacilitatorClient` protocol
(`x402.server_base.FacilitatorClient`): async `verify`, async `settle`, sync `get_supported`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import anyio.to_thread
from x402 import x402FacilitatorSync
from x402.mechanisms.evm.constants import ERR_UNSUPPORTED_SCHEME, SCHEME_EXACT
from x402.mechanisms.evm.exact import ExactEvmFacilitatorScheme, ExactEvmSchemeConfig
from x402.schemas import (
    PaymentPayload,
    PaymentRequirements,
    SchemeNotFoundError,
    SettleResponse,
    SupportedResponse,
    VerifyResponse,
)

from twlookup.platform.payments.ledger import EngineSource, LedgerSigner


class ExactEvmPerNetwork:
    """The SDK's exact-EVM facilitator scheme, one instance per network, behind one registration.

    Needed because `x402FacilitatorBase.register(networks, scheme)` turns any list of eip155
    networks, even a single one, into the pattern "eip155:*", and `_find_facilitator` returns the
    first registration whose pattern matches: schemes registered network by network would all be
    answered by the first one. This object is registered once for all the networks and hands each
    call to the `ExactEvmFacilitatorScheme` of `requirements.network`, whose signer is bound to
    that network's chain. A network it does not serve raises the SDK's SchemeNotFoundError.
    """

    scheme = SCHEME_EXACT
    caip_family = "eip155:*"

    def __init__(self, schemes: dict[str, ExactEvmFacilitatorScheme]) -> None:
        self.schemes = schemes

    def _for(self, network: object) -> ExactEvmFacilitatorScheme:
        scheme = self.schemes.get(str(network))
        if scheme is None:
            raise SchemeNotFoundError(SCHEME_EXACT, str(network))
        return scheme

    def get_extra(self, network: str) -> dict[str, Any] | None:
        return self._for(network).get_extra(network)

    def get_signers(self, network: str) -> list[str]:
        return self._for(network).get_signers(network)

    def verify(self, payload: PaymentPayload, requirements: PaymentRequirements, context: Any = None) -> VerifyResponse:
        return self._for(requirements.network).verify(payload, requirements, context)

    def settle(self, payload: PaymentPayload, requirements: PaymentRequirements, context: Any = None) -> SettleResponse:
        return self._for(requirements.network).settle(payload, requirements, context)


def build_local_facilitator(
    networks: Sequence[str],
    *,
    treasury_address: str | None = None,
    engine: EngineSource = None,
    signer: LedgerSigner | None = None,
    simulate_in_settle: bool = False,
) -> x402FacilitatorSync:
    """The SDK's facilitator with the exact EVM scheme on `networks` (e.g. ["eip155:8453",
    "eip155:84532"]), each settled on the ledger's USDC of that network.

    `signer` may be given to choose the assets per network; it must serve every network. Only
    x402 version 2 is registered (the SDK's `register_exact_evm_facilitator` would also register
    version 1 on every legacy network with one signer, which the ledger cannot route by chain).
    """
    networks = list(dict.fromkeys(networks))
    if not networks:
        raise ValueError("the local facilitator needs at least one network")
    ledger_signer = signer or LedgerSigner(networks, treasury_address, engine=engine)
    config = ExactEvmSchemeConfig(simulate_in_settle=simulate_in_settle)
    schemes = {n: ExactEvmFacilitatorScheme(ledger_signer.signer_for(n), config) for n in networks}
    facilitator = x402FacilitatorSync()
    facilitator.register(networks, ExactEvmPerNetwork(schemes))
    return facilitator


class LocalFacilitatorClient:
    """A `FacilitatorClient` for `x402ResourceServer` that verifies and settles in process.

    Give either `networks` (a facilitator is built on the store's engine, or on `engine`) or a
    ready `facilitator`. A payment for a scheme or network the facilitator does not serve is
    answered as invalid (reason "unsupported_scheme") rather than raised, as a remote
    facilitator would refuse it.
    """

    def __init__(
        self,
        networks: Sequence[str] | None = None,
        *,
        facilitator: x402FacilitatorSync | None = None,
        treasury_address: str | None = None,
        engine: EngineSource = None,
    ) -> None:
        if facilitator is None:
            if not networks:
                raise ValueError("give the networks to serve, or a facilitator")
            facilitator = build_local_facilitator(networks, treasury_address=treasury_address, engine=engine)
        self.facilitator = facilitator
        self.networks = list(networks) if networks else [k.network for k in facilitator.get_supported().kinds]

    async def verify(self, payload: PaymentPayload, requirements: PaymentRequirements) -> VerifyResponse:
        return await anyio.to_thread.run_sync(self.verify_sync, payload, requirements, abandon_on_cancel=True)

    async def settle(self, payload: PaymentPayload, requirements: PaymentRequirements) -> SettleResponse:
        return await anyio.to_thread.run_sync(self.settle_sync, payload, requirements, abandon_on_cancel=True)

    def get_supported(self) -> SupportedResponse:
        return self.facilitator.get_supported()

    # The same, blocking (a FacilitatorClientSync for x402ResourceServerSync).

    def verify_sync(self, payload: PaymentPayload, requirements: PaymentRequirements) -> VerifyResponse:
        try:
            return self.facilitator.verify(payload, requirements)
        except SchemeNotFoundError as exc:
            return VerifyResponse(
                is_valid=False, invalid_reason=ERR_UNSUPPORTED_SCHEME, invalid_message=str(exc), payer=_payer(payload)
            )

    def settle_sync(self, payload: PaymentPayload, requirements: PaymentRequirements) -> SettleResponse:
        try:
            return self.facilitator.settle(payload, requirements)
        except SchemeNotFoundError as exc:
            return SettleResponse(
                success=False,
                error_reason=ERR_UNSUPPORTED_SCHEME,
                error_message=str(exc),
                transaction="",
                network=str(requirements.network),
                payer=_payer(payload),
            )


def _payer(payload: PaymentPayload) -> str | None:
    auth = (payload.payload or {}).get("authorization")
    return auth.get("from") if isinstance(auth, dict) else None


__all__ = ["ExactEvmPerNetwork", "LocalFacilitatorClient", "build_local_facilitator"]
