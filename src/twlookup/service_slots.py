"""Services loaded when first needed: a start imports none of the twenty.

Importing a service (its operations, schemas, records and tables) and building its layers
(`platform/service_app.py`) is most of a start's work: about 0.7 s of the 1.2-1.5 s a warm start
took on a 2-core machine, for twenty services of which the first request needs one. A
`ServiceSlot` stands in the app's routing table for each service until something needs it:

- its first request, which loads it in a worker thread (the event loop answers the services
  already loaded meanwhile), after which the slot steps aside: the routing table then holds the
  built service, so later requests pay nothing for the indirection;
- the index (`/`), whose listing of every service loads the rest (`Listings`);
- the preload, which a serving process runs right after the start (`Preload`), one service at a
  time in a worker thread, so that every service is loaded within about a second of a start
  without the first answer waiting for them: it begins after the first answer, and gives way
  to requests that load their own service.

Loading is once per slot (a lock), from any thread. What a loaded service declares that the app
must know before any request, its privacy (no query of a private service reaches a log line), is
in the catalogue (`twlookup.services.Entry.private`), checked against the service when it loads.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from anyio import to_thread
from sqlalchemy.orm import configure_mappers

from twlookup.platform.errors import internal_error, log_unhandled
from twlookup.platform.http import send_problem
from twlookup.platform.on_demand import OnDemand
from twlookup.services import CATALOG, load_service

if TYPE_CHECKING:
    from twlookup.platform.listing import ServiceListing
    from twlookup.platform.service import Service
    from twlookup.platform.service_app import ServiceApp

log = logging.getLogger("twlookup")
PRIVATE = frozenset(entry.name for entry in CATALOG if entry.private)
_ZH = {entry.name: entry.zh for entry in CATALOG}


class ServiceSlot:
    """One service's place in the app: built by `load()` (any thread) or on its first request."""

    def __init__(
        self,
        name: str,
        build: Callable[[Service], ServiceApp],
        on_loaded: Callable[[str, ServiceApp], None],
        service: Service | None = None,
    ) -> None:
        self.name = name
        self._build = build
        self._on_loaded = on_loaded
        self._service = service  # given (tests build apps of their own services), else imported by name
        self._once = OnDemand(self._make)  # made once, whichever thread asks first; kept for good

    @property
    def built(self) -> ServiceApp | None:
        """The built service, or None while it is not loaded."""
        built: ServiceApp | None = self._once.built
        return built

    def load(self) -> ServiceApp:
        """The built service, importing and building it the first time (blocking; thread-safe)."""
        built: ServiceApp = self._once.app
        return built

    def _make(self) -> ServiceApp:
        service = self._service or load_service(self.name)
        if self._service is None and service.private != (self.name in PRIVATE):
            raise RuntimeError(
                f"service {self.name!r}: private={service.private} in its declaration but not in the"
                " catalogue (twlookup.services.CATALOG), which the access log's filter is built from"
            )
        built = self._build(service)
        built.subapp.zh_name = _ZH.get(self.name, "")
        configure_mappers()  # its tables' mappers, now rather than in its first store read
        self._on_loaded(self.name, built)  # before `built` is published: lifespans, routing
        return built

    async def ensure(self) -> ServiceApp:
        """The built service, loaded in a worker thread if it is not yet."""
        built = self.built
        return built if built is not None else await to_thread.run_sync(self.load)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        Preload.asked += 1  # the preload waits while requests load their services, and a moment after
        Preload.last_asked = time.monotonic()
        try:
            built = await self.ensure()
        except Exception as exc:  # a bug of ours: logged, a 500 problem; the next request tries again
            log_unhandled(self.name, "(while loading the service)", exc, self.name in PRIVATE)
            await send_problem(send, internal_error())
            return
        finally:
            Preload.asked -= 1
        await built.asgi(scope, receive, send)
        Preload.answered = True


class Listings(Mapping[str, "ServiceListing"]):
    """What the index says of each service, by name: reading one loads that service (blocking), while
    the names themselves cost nothing."""

    def __init__(self, slots: Mapping[str, ServiceSlot]) -> None:
        self._slots = slots

    def __getitem__(self, name: str) -> ServiceListing:
        return self._slots[name].load().listing

    def __iter__(self) -> Iterator[str]:
        return iter(self._slots)

    def __len__(self) -> int:
        return len(self._slots)


class Preload:
    """Loading every service not loaded yet, after the start, without slowing the requests that
    come meanwhile: it begins once a service has answered its first request (or after `WAIT`
    seconds without one), and before each service waits while requests are loading their own and
    for `QUIET` seconds after the last began (one loading at a time runs at full speed; two share
    the interpreter, and a burst of first requests after a start loads what it asks for first).
    Counted per process."""

    WAIT = 1.0
    QUIET = 0.2
    asked = 0  # requests loading their service right now
    last_asked = 0.0  # when the last of them began (time.monotonic)
    answered = False  # a service has answered a request since the start

    @classmethod
    async def run(cls, slots: Mapping[str, ServiceSlot]) -> None:
        """Load every service not yet loaded, one at a time off the event loop. A service that fails
        to load is logged and left to its first request, which answers the error. The collector
        runs as usual meanwhile (requests are being served: pausing it would keep their garbage),
        and each service's loading ends by freezing what it built (`ServiceSlot.load`)."""
        began = time.monotonic()
        while not cls.answered and time.monotonic() - began < cls.WAIT:
            await asyncio.sleep(0.01)
        for slot in slots.values():
            while cls.asked or time.monotonic() - cls.last_asked < cls.QUIET:
                await asyncio.sleep(0.01)
            try:
                await slot.ensure()
            except Exception:
                log.exception("service %s did not load", slot.name)
