"""ASGI apps built on their first request: the FastAPI apps (the root's index and health, each
service's summary, OpenAPI and docs) that the operations' fast path never reaches.

A process that answers only operations and MCP never builds them, and never imports FastAPI (a
tenth of a start's imports). The first request that needs one builds it on the event loop, once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from twlookup.startup import long_lived

if TYPE_CHECKING:
    from fastapi import FastAPI

    from twlookup.platform.listing import ServiceListing


class OnDemand:
    """An ASGI app made by `build()` when first called (or first read, `app`)."""

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build = build
        self._app: Any = None

    @property
    def app(self) -> Any:
        if self._app is None:
            self._app = self._build()
            long_lived()  # lives as long as the process (twlookup/startup.py)
        return self._app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)


class SubappOnDemand(OnDemand):
    """The service's FastAPI app (platform/subapp.py). `zh_name` is the service's Chinese name,
    which its page shows."""

    def __init__(self, listing: ServiceListing, zh_name: str = "") -> None:
        super().__init__(self._make)
        self.listing = listing
        self.zh_name = zh_name

    @property
    def app(self) -> FastAPI:
        app: FastAPI = super().app
        return app

    def _make(self) -> FastAPI:
        from twlookup.platform.subapp import build_subapp

        app = build_subapp(self.listing)
        app.state.zh_name = self.zh_name
        return app
