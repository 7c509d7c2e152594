"""A service: name, title, where it is reachable, its operations and its reference data."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy.orm import Session

from twlookup.platform.feeds.declare import Feed
from twlookup.platform.operations import Operation, build_operation

if TYPE_CHECKING:  # FastAPI is imported only where a FastAPI app is built (platform/subapp.py)
    from fastapi import APIRouter, FastAPI

# Which payment network a service states (spec document 1, "Authentication").
NetworkChoice = Literal["mainnet", "testnet"]
Importer = Callable[[Session, Path], int]  # parse one file of a live feed into the store; returns rows
Markdown = Callable[[Any], str]  # renders an operation's result as a Markdown page
TextPage = Callable[..., str]  # builds a plain-text page (e.g. /llms.txt); may take the service's absolute base URL
Lifespan = Callable[["FastAPI"], AbstractAsyncContextManager[Any]]


@dataclass
class Service:
    name: str
    title: str
    description: str
    cors: bool = False
    network: NetworkChoice = "mainnet"
    notice: str | None = None  # e.g. "Information, not medical advice."
    private: bool = False  # queries and answers must reach no log line (health, wellness)
    solana: bool = False  # also accepts USDC on Solana (food, share), where the facilitator supports it
    free_quota: bool = False  # free calls per client per minute are limited; past it x402 per call or a pass
    operations: list[Operation] = field(default_factory=list)
    importers: dict[str, Importer] = field(default_factory=dict)
    feeds: dict[str, Feed] = field(default_factory=dict)  # the importers' official sources (platform.feeds)
    text_routes: dict[str, TextPage] = field(default_factory=dict)
    # The service's FastAPI app (platform.subapp) answers what no operation declares: ordinary
    # FastAPI routes added to `api`, with their dependencies; exception handlers; a lifespan.
    exception_handlers: dict[Any, Callable[..., Any]] = field(default_factory=dict)
    lifespan: Lifespan | None = None
    _router: APIRouter | None = field(default=None, repr=False, compare=False)

    @property
    def api(self) -> APIRouter:
        """The service's ordinary FastAPI routes (an `APIRouter`), made when first asked for, so
        that a process serving only operations never imports FastAPI."""
        if self._router is None:
            from fastapi import APIRouter

            self._router = APIRouter()
        return self._router

    def operation(
        self,
        method: Literal["GET", "POST"],
        path: str,
        *,
        tool: str | None = None,
        price: str | None = None,
        markdown: Markdown | None = None,
        blocking: bool = False,
        check: Callable[[Any], None] | None = None,
        example: dict[str, Any] | None = None,
        rests_on: tuple[Any, ...] = (),
        writes: bool = False,
        varies: bool = False,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Declare an operation: REST route, MCP tool (when `tool` is given; a paid route is the
        tool `pro_<path words>`, platform/mcp.py), x402 price, and a
        Markdown page at `<path>.md` (when `markdown`, a renderer of the result, is given).
        `blocking=True` for a plain `def` that reads the store itself or does slow work: it then
        always runs in a worker thread (see `platform.operations`).
        `check(params)` (paid routes) raises NotFound for an unknown id before payment is asked;
        `example` (paid routes) is an input example, published with its answer in the 402's
        discovery metadata. `rests_on` (paid routes): the feeds of this service (by name) and the
        store tables its answer rests on; while one is sample, empty or stale the route is not for
        sale (a 503 before any payment is asked for; see `platform.payments.sale`). `writes=True` for
        an operation that changes something beyond its answer (a stored submission, URLs posted to a
        search engine): its MCP tool is then not read-only. `varies=True` for an operation whose answer
        can differ between two calls with the same parameters on the same day and data (a random
        draw, a new key, the time of day): its answer is never kept (platform/answer_cache.py)."""
        if path.startswith("/api/pro/") != (price is not None):
            raise ValueError(f"{path}: routes under /api/pro/ and only those carry a price")
        if price is not None and tool is not None:
            raise ValueError(f"{path}: a paid route's MCP tool is named from its path (pro_..., platform/mcp.py)")
        if markdown is not None and (method != "GET" or price is not None):
            raise ValueError(f"{path}: only free GET routes have a Markdown page")
        if check is not None and price is None:
            raise ValueError(f"{path}: a pre-payment check is for paid routes")
        if rests_on and price is None:
            raise ValueError(f"{path}: what a route rests on decides whether it is sold; free routes flag it instead")

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            op = build_operation(
                fn,
                method,
                path,
                tool,
                price,
                markdown,
                blocking,
                check,
                example,
                rests_on=rests_on,
                writes=writes,
                varies=varies,
            )
            for other in self.operations:
                if (other.method, other.path) == (method, path) or (tool and other.tool == tool):
                    raise ValueError(f"{self.name}: {method} {path} / tool {tool} declared twice")
            self.operations.append(op)
            return fn

        return register

    def text_route(self, path: str, fn: TextPage) -> TextPage:
        """Serve `fn()` as text/plain at GET `path` (e.g. /llms.txt); not an operation, no MCP tool.
        A `fn(base)` is given the service's absolute base URL as the client reaches it
        (platform/public_origin.py), for the links it writes."""
        if not path.startswith("/") or path in self.text_routes or any(op.path == path for op in self.operations):
            raise ValueError(f"{self.name}: text route {path} must start with / and be declared once")
        takes_base = bool(inspect.signature(fn).parameters)
        self.text_routes[path] = fn if takes_base else (lambda _base, _fn=fn: _fn())
        return fn

    def importer(self, feed: str) -> Callable[[Importer], Importer]:
        """Register `twlookup ingest FEED FILE`: parse the official publisher's file into the store."""

        def register(fn: Importer) -> Importer:
            if "." in feed:
                raise ValueError(
                    f"{self.name}: feed {feed!r} is named without the service (it becomes {self.name}.NAME)"
                )
            self.importers[feed] = fn
            return fn

        return register

    def feed(self, feed: Feed) -> Feed:
        """Declare a live feed: its importer (`twlookup ingest`), its official source and cadence
        (`twlookup refresh`, the scheduler) and its licence; `/api/status` reports it."""
        if feed.service != self.name or feed.name in self.feeds:
            raise ValueError(f"{self.name}: feed {feed.full_name} declared twice or under another service")
        self.importer(feed.name)(feed.importer)
        self.feeds[feed.name] = feed
        return feed

    @property
    def tools(self) -> list[Operation]:
        return [op for op in self.operations if op.tool]
