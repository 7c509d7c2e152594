"""Read-mostly reference data cached in process, reloaded when any process re-seeds the store.

Every `Reference` holds the value its loader built from the store and the data version it was
built at. At most every `check_seconds` it reads the version row; when another process (or a
`twlookup seed` / `twlookup ingest` run) has bumped it, the value is rebuilt. So a re-seed is seen
by every running process within a couple of seconds, with no restart and no per-request query.

`due(group)` says whether the next `get()` of a group could touch the store (a version check is
due, or one of its references is not built at the current version). Operations use it to stay off
the store on the event loop: when it is due, `refresh(group)` runs in a worker thread first, and
the operation itself then reads only memory. A reference's group is the service whose package
defines it (`twlookup.services.<name>`); references defined elsewhere (shared domain tables) belong
to every group. So the first request to one service after start or a re-seed builds that service's
references only, not all twenty services'.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from typing import ClassVar, Generic, TypeVar

from sqlalchemy.orm import Session

from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.meta import read_version

T = TypeVar("T")


class Reference(Generic[T]):
    check_seconds: ClassVar[float] = 2.0
    _all: ClassVar[weakref.WeakSet[Reference[object]]] = weakref.WeakSet()
    _version: ClassVar[int] = -1
    _checked_at: ClassVar[float] = 0.0
    _lock: ClassVar[threading.Lock] = threading.Lock()
    _fresh_until: ClassVar[dict[str | None, float]] = {}  # per group: until then no get() touches the store

    def __init__(self, loader: Callable[[Session], T]) -> None:
        self._loader = loader
        self.group = group_of(loader.__module__)
        self._value: T | None = None
        self._built_at = -2
        Reference._all.add(self)  # type: ignore[arg-type]

    @classmethod
    def current_version(cls) -> int:
        now = time.monotonic()
        if now - cls._checked_at >= cls.check_seconds:
            with store_engine.get_engine().connect() as conn:
                cls._version = read_version(conn)
            cls._checked_at = now
        return cls._version

    @classmethod
    def due(cls, group: str | None = None) -> bool:
        """True when a `get()` of `group`'s references (all, for None) could now read the store."""
        fresh = cls._fresh_until
        return time.monotonic() >= max(fresh.get(None, 0.0), fresh.get(group, 0.0) if group else 0.0)

    @classmethod
    def refresh(cls, group: str | None = None) -> None:
        """Check the version and (re)build `group`'s references (every reference, for None) not
        built at it: blocking, so call it from a worker thread. Afterwards no `get()` of the group
        touches the store until the next check is due."""
        version = cls.current_version()
        checked_at = cls._checked_at
        refs = [ref for ref in list(cls._all) if group is None or ref.group in (group, None)]
        for ref in refs:
            ref.get()
        if all(ref._built_at == version and ref._value is not None for ref in refs):
            cls._fresh_until[group] = checked_at + cls.check_seconds

    @classmethod
    def reset_all(cls) -> None:
        """Forget every cached value (a new engine was configured, or a test re-seeded)."""
        cls._fresh_until = {}
        cls._checked_at = 0.0
        cls._version = -1
        for ref in list(cls._all):
            ref._value = None
            ref._built_at = -2

    def get(self) -> T:
        version = Reference.current_version()
        if self._built_at != version or self._value is None:
            # bounded: a loader stuck on a stalled store must not queue every other request forever
            if not Reference._lock.acquire(timeout=store_engine.timeouts().pool + store_engine.timeouts().statement):
                raise TimeoutError("reference data is being reloaded and the store has not answered")
            try:
                if self._built_at != version or self._value is None:
                    with store_engine.session() as session:
                        self._value = self._loader(session)
                    self._built_at = version
            finally:
                Reference._lock.release()
        assert self._value is not None
        return self._value


def group_of(module: str) -> str | None:
    """The service a module belongs to (`twlookup.services.<name>.…` → name), else None."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[:2] == ["twlookup", "services"]:
        return parts[2]
    return None
