"""The free quota of a service (`Service(free_quota=True)`, the spec's food service) and the passes
that lift it, as an ASGI layer between the dispatcher and the operations' endpoint.

Free calls are counted per client IP (TWLOOKUP_FREE_QUOTA_PER_MINUTE). Past the quota a free
operation answers 402: pay this one call by x402 (TWLOOKUP_QUOTA_CALL_PRICE), or show a pass
(`Authorization: Bearer <pass>`, sold at /pay/pass; platform/payments/passes.py). A pass that does
not verify is a 401, not counted against the quota. Bad input still gets its 422 first. Paid
routes are not counted (they are paid anyway), nor is anything but an operation: the layer acts
on the operation the dispatcher matched (`scope[MATCH]`). MCP counts its tool calls with the
same `FreeQuota.over` (platform/mcp.py), never its set-up messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from limits import RateLimitItem

from twlookup.platform.endpoint import MATCH, Match, read_params
from twlookup.platform.errors import Problem
from twlookup.platform.http import header
from twlookup.platform.payments.passes import PassBook, PassRefused
from twlookup.platform.ratelimit import ClientIP, Counter
from twlookup.platform.request import bearer_token

if TYPE_CHECKING:
    from twlookup.platform.payments.gate import PaymentGate


class FreeQuota:
    def __init__(
        self, service: str, limit: RateLimitItem, counter: Counter, client_ip: ClientIP, passes: PassBook | None
    ) -> None:
        self.service = service
        self.limit = limit
        self.counter = counter
        self.client_ip = client_ip
        self.passes = passes

    @property
    def amount(self) -> int:
        return self.limit.amount

    async def over(self, scope: dict[str, Any]) -> bool:
        """True when this call is past the client's free quota and shows no pass. A pass that
        does not verify is refused (401) rather than counted against the quota."""
        value = header(scope, b"authorization")
        token = bearer_token(value.decode("latin-1") if value is not None else None)
        if token is not None and self.passes is not None:
            try:
                await self.passes.check_async(token)  # off the loop: may read the key from the store
                return False
            except PassRefused as exc:
                raise Problem(
                    401,
                    f"Pass not accepted: {exc}. Buy a new one at /pay/pass.",
                    kind="invalid-pass",
                    headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
                ) from None
        return not await self.counter.hit(self.limit, "quota", self.service, self.client_ip(scope))


class QuotaLayer:
    """ASGI: free operations within the quota (or with a pass) go on to `app`; past it, 402."""

    def __init__(self, app: Any, quota: FreeQuota, gate: PaymentGate | None, price: str, max_body: int) -> None:
        self.app = app
        self.quota = quota
        self.gate = gate  # None: payments are switched off, and only a pass or the next minute helps
        self.price = price  # what one call past the quota costs
        self.max_body = max_body

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        match: Match = scope[MATCH]
        if match.op.paid or not await self.quota.over(scope):
            await self.app(scope, receive, send)
            return
        op = match.op
        params = op.parse(await read_params(match, scope, receive, self.max_body))  # a 422 comes first
        amount = self.quota.amount
        if self.gate is None:
            raise Problem(402, f"The free quota of {amount} calls per minute is used up.", kind="quota-exceeded")
        why = (
            f"Free quota of {amount} calls per minute used up: pay this call, or send a pass "
            "(Authorization: Bearer <pass>, bought at /pay/pass)"
        )
        await self.gate.serve(scope, op, lambda: op.run(params), send, price=self.price, why=why)
