"""`/pay/pass`: where a pass is sold, by x402, for the services that have a free quota.

GET /pay/pass without payment answers 402 with the pass price; paid, it returns the pass token,
its expiry and how to show it. One pass covers every quota service of this deployment.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import Field

from twlookup.platform.errors import InvalidParameter, Problem, method_not_allowed, no_route
from twlookup.platform.http import query_params, send_problem
from twlookup.platform.operations import build_operation
from twlookup.platform.payments.gate import PaymentGate
from twlookup.platform.payments.passes import PassBook
from twlookup.platform.public_origin import PublicOrigin
from twlookup.platform.schemas import LazyModel
from twlookup.settings import Settings


class PassOut(LazyModel):
    token: str = Field(description="Send it as `Authorization: Bearer <token>` once the free quota is used up")
    expires_at: datetime = Field(description="The pass is refused from this moment (UTC)")
    valid_hours: int
    services: list[str] = Field(description="Services whose free quota the pass lifts")
    free_quota_per_minute: int
    how_to_use: str


class PassShop:
    """Pure ASGI, mounted at /pay. Only /pay/pass exists."""

    def __init__(
        self,
        settings: Settings,
        facilitator: Any,
        passes: PassBook,
        services: list[str],
        solana: bool = False,
        public: PublicOrigin | None = None,
    ) -> None:
        def buy_pass() -> PassOut:
            """A pass that lifts the free per-minute quota of the quota services."""
            issued = passes.issue()
            return PassOut(
                token=issued.token,
                expires_at=datetime.fromtimestamp(issued.expires_at, UTC),
                valid_hours=passes.hours,
                services=services,
                free_quota_per_minute=settings.free_quota_per_minute,
                how_to_use="Past the free quota, send the header `Authorization: Bearer <token>` with each call.",
            )

        self.op = build_operation(buy_pass, "GET", "/pass", None, settings.pass_price)
        self.op.example_output = False  # running it issues a pass: never done for an example
        self.gate = PaymentGate(
            settings,
            settings.evm_mainnet,
            facilitator,
            {"/pass": settings.pass_price},
            solana=solana,
            service="pay",
            public=public,
        )

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            if scope["path"] != "/pass":
                hint = "only /pay/pass exists here: it sells a pass that lifts the free quota"
                raise no_route("/pay", "/pay" + scope["path"], hint)
            if scope["method"] not in ("GET", "HEAD"):  # HEAD shows the challenge, never sells
                raise method_not_allowed("/pay/pass", ["GET"])
            for name in query_params(scope):
                raise InvalidParameter(name, "unknown parameter; /pay/pass takes none")
            await self.gate.serve(scope, self.op, lambda: self.op.call({}), send)
        except Problem as problem:
            await send_problem(send, problem)
