"""What one service offers, as its summary, its pages, `/api/pro`, OpenAPI and the index show it:
routes and prices, tools, payment networks, and whether each paid route is for sale now.

Nothing here answers a request; the dispatcher (`platform.router`) and the service's FastAPI app
(`platform.subapp`) read it.
"""

from __future__ import annotations

from typing import Any

from twlookup.platform.operations import Operation
from twlookup.platform.payments.sale import SaleCheck
from twlookup.platform.public_origin import PublicOrigin
from twlookup.platform.service import Service
from twlookup.settings import Settings


class ServiceListing:
    def __init__(
        self,
        service: Service,
        settings: Settings,
        public: PublicOrigin,
        prices: dict[str, str],
        networks: list[str],
        tools: dict[str, Operation],
        sale: SaleCheck,
    ) -> None:
        self.service = service
        self.settings = settings
        self.public = public  # where clients reach us: every absolute URL written
        self.prices = prices  # paid path -> USD price (TWLOOKUP_PRICES applied)
        self.networks = networks  # where a payment is accepted (CAIP-2 ids)
        self.tools = tools  # MCP tool name -> operation (platform/tools.py)
        self.sale = sale
        self._paid_routes: dict[tuple[str, bool], list[dict[str, Any]]] = {}

    def paid_routes(self, base: str, schemas: bool = True) -> list[dict[str, Any]]:
        """The paid routes with their schemas (built once per base path and form: they depend on
        the declarations and settings only, so the index and /api/pro stay cheap), each with whether
        it is for sale now (`open`: switched on and its data real and fresh; see `sale_state`).
        `schemas=False` leaves out the input and output JSON schemas, which the index does not
        show: building every paid model's schema was most of the first index's time.
        Blocking when the sale facts are due: call it from a worker thread."""
        cached = self._paid_routes.get((base, schemas))
        if cached is None:
            cached = self._paid_routes[(base, schemas)] = self._build_paid_routes(base, schemas)
        ops = [op for op in self.service.operations if op.paid]
        return [{**route, **self.sale_state(op)} for route, op in zip(cached, ops, strict=True)]

    def sale_state(self, op: Operation) -> dict[str, Any]:
        """`open`: for sale right now; `switched_on`: the operator's switch (TWLOOKUP_PRO_CLOSED,
        payments on); `not_for_sale`: why the data does not allow a sale now (platform/payments/sale.py)."""
        switched_on = self.settings.pro_open(self.service.name, op.path)
        state = self.sale.state(op)
        out: dict[str, Any] = {"open": bool(switched_on and state["for_sale"]), "switched_on": switched_on}
        if state.get("not_for_sale"):
            out["not_for_sale"] = state["not_for_sale"]
        return out

    def _build_paid_routes(self, base: str, schemas: bool) -> list[dict[str, Any]]:
        routes = []
        for op in self.service.operations:
            if op.paid:
                route: dict[str, Any] = {
                    "method": op.method,
                    "path": base + op.path,
                    "price_usd": self.prices[op.path],
                    "summary": op.summary,
                }
                if schemas:
                    route["input_schema"] = op.params.model_json_schema()
                    route["output_schema"] = op.result.model_json_schema()
                routes.append(route)
        return routes

    def summary(self, base: str) -> dict[str, Any]:
        return {
            "name": self.service.name,
            "title": self.service.title,
            "description": self.service.description,
            "notice": self.service.notice,
            "base": base or "/",
            "docs": f"{base}/docs",
            "openapi": f"{base}/openapi.json",
            "mcp": f"{base}/mcp",
            "tools": [op.tool for op in self.service.tools],
            "routes": [
                {
                    "method": op.method,
                    "path": base + op.path,
                    "summary": op.summary,
                    "price_usd": self.prices.get(op.path),
                    "markdown": base + op.path + ".md" if op.markdown else None,
                    **({"open": self.sale_state(op)["open"]} if op.paid else {}),
                }
                for op in self.service.operations
            ],
            "text_pages": [base + path for path in self.service.text_routes],
        }
