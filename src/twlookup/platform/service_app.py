"""One service as an ASGI application, put together from its layers.

Outermost first: CORS (only for the services the spec calls cross-origin), the rate limit, then
the dispatcher (`platform.router`), which hands a matched operation to the free quota (services
with one, `platform.quota`) and the operations' endpoint (`platform.endpoint`, with the x402 gate
for /api/pro), `/mcp` to the MCP endpoint, and everything else to the service's FastAPI app
(`platform.subapp`). The listing (`platform.listing`) is what the pages, OpenAPI and the index say
of the service.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from limits import parse as parse_limit

from twlookup.platform import privacy
from twlookup.platform.answer_cache import AnswerCache
from twlookup.platform.cors import with_cors
from twlookup.platform.endpoint import OperationEndpoint
from twlookup.platform.http import head_as_get
from twlookup.platform.listing import ServiceListing
from twlookup.platform.mcp import Billing, MCPEndpoint
from twlookup.platform.on_demand import SubappOnDemand
from twlookup.platform.origins import OriginPolicy
from twlookup.platform.payments.gate import PaymentGate
from twlookup.platform.payments.passes import PassBook
from twlookup.platform.payments.sale import SaleCheck
from twlookup.platform.payments.tool_payments import ToolPayments
from twlookup.platform.public_origin import PublicOrigin
from twlookup.platform.quota import FreeQuota, QuotaLayer
from twlookup.platform.ratelimit import ClientIP, Counter, RateLimit
from twlookup.platform.router import Dispatcher, TextPage
from twlookup.platform.service import Service
from twlookup.platform.tools import tool_table
from twlookup.settings import Settings


@dataclass
class ServiceApp:
    listing: ServiceListing
    subapp: (
        SubappOnDemand  # the service's FastAPI app, built when first needed (its lifespan runs with the whole app's)
    )
    dispatcher: Dispatcher
    asgi: Any  # the service with all its layers


def build_service_app(
    service: Service,
    settings: Settings,
    counter: Counter,
    client_ip: ClientIP,
    facilitator: Any = None,
    passes: PassBook | None = None,
    public: PublicOrigin | None = None,
    answers: AnswerCache | None = None,
) -> ServiceApp:
    # where clients reach us: every absolute URL written (challenge, pages, OpenAPI, llms.txt)
    public = public or PublicOrigin.from_settings(settings, client_ip, [service.name])
    network = settings.evm_testnet if service.network == "testnet" else settings.evm_mainnet
    # What each paid route charges: its declared price unless TWLOOKUP_PRICES overrides it.
    prices = {op.path: settings.price_for(service.name, op.path, op.price) for op in service.operations if op.price}
    paid = any(op.paid for op in service.operations) or service.free_quota
    gate = (
        PaymentGate(
            settings,
            network,
            facilitator,
            prices,
            solana=service.solana,
            private=service.private,
            service=service.name,
            public=public,
        )
        if paid and facilitator is not None
        else None
    )
    sale = SaleCheck(service, settings)  # nothing sample, empty or stale is sold
    # The free quota (services with free_quota): counted per client IP, lifted by a pass.
    quota = (
        FreeQuota(service.name, parse_limit(f"{settings.free_quota_per_minute}/minute"), counter, client_ip, passes)
        if service.free_quota
        else None
    )
    tools = tool_table(service, paid=True)
    listing = ServiceListing(
        service,
        settings,
        public,
        prices,
        [n for n, _ in gate.options] if gate is not None else [network],
        tools,
        sale,
    )

    networks = [network]
    if service.solana and settings.pay_to_svm and facilitator is not None and settings.facilitator != "local":
        networks.append(settings.svm_mainnet)  # where the facilitator settles it (platform/payments/gate.py)
    billing = Billing(
        public=public,
        prices=prices,
        networks=networks,
        is_open=lambda path: settings.pro_open(service.name, path),
        payments=ToolPayments(gate) if gate is not None else None,
        over_quota=quota.over if quota is not None else None,
        quota_amount=quota.amount if quota is not None else 0,
        quota_price=settings.quota_call_price,
    )
    mcp = MCPEndpoint(
        service, settings.max_body_bytes, OriginPolicy.from_settings(settings, service.name, public), billing
    )
    mcp.sale = sale
    # repeatable lookups' answers, kept (one cache for the whole app); a private service keeps none
    if answers is None:
        answers = AnswerCache(settings.answer_cache_bytes)
    kept = None if service.private else answers
    mcp.answers = kept

    endpoint: Any = OperationEndpoint(service.name, settings, client_ip, gate, sale, kept)
    if quota is not None:
        endpoint = QuotaLayer(endpoint, quota, gate, settings.quota_call_price, settings.max_body_bytes)
    subapp = SubappOnDemand(listing)
    dispatcher = Dispatcher(
        service.name,
        service.private,
        service.operations,
        endpoint,
        _text_pages(service, public),
        mcp,
        head_as_get(subapp),  # its GET routes answer HEAD too
    )
    if service.private:  # the access log shows only declared routes of a private service
        templates = {op.path: op.pattern for op in service.operations if op.pattern is not None}
        privacy.register_routes(service.name, dispatcher.routes, templates.items())
    app: Any = RateLimit(dispatcher, service.name, settings.rate_limit_for(service.name), counter, client_ip)
    if service.cors:
        app = with_cors(app)
    return ServiceApp(listing, subapp, dispatcher, app)


def _text_pages(service: Service, public: PublicOrigin) -> dict[str, TextPage]:
    """Each text route as a page of the request: given the service's absolute base URL."""

    def for_request(page: Callable[[str], str]) -> TextPage:
        return lambda scope: page(public.url(scope))

    return {path: for_request(page) for path, page in service.text_routes.items()}
