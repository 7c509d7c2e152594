"""ASGI apps built on their first request: the FastAPI apps (the root's index and health, each
service's summary, OpenAPI and docs) that the operations' fast path never reaches.

A process that answers only operations and MCP never builds them, and never imports FastAPI (a
tenth of a start's imports). The first request that needs one builds it on the event loop, once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from anyio import to_thread

from twlookup.startup import long_lived

if TYPE_CHECKING:
    from fastapi import FastAPI

    from twlookup.platform.listing import ServiceListing


class OnDemand:
    """An ASGI app made by `build()` when first called (or first read, `app`), once (a lock: it may
    be read from worker threads). `in_thread`: a first request builds it in a worker thread rather
    than on the event loop (a build that may take long)."""

    def __init__(self, build: Callable[[], Any], in_thread: bool = False) -> None:
        self._build = build
        self._app: Any = None
        self._lock = threading.Lock()
        self._in_thread = in_thread

    @property
    def app(self) -> Any:
        if self._app is None:
            with self._lock:
                if self._app is None:
                    self._app = self._build()
                    long_lived()  # lives as long as the process (twlookup/startup.py)
        return self._app

    @property
    def built(self) -> Any:
        """The app if it has been made, else None (makes nothing)."""
        return self._app

    def _get(self) -> Any:
        return self.app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        app = self._app
        if app is None:
            app = await to_thread.run_sync(self._get) if self._in_thread else self.app
        await app(scope, receive, send)


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
