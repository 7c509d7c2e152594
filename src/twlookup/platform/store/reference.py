"""Read-mostly reference data cached in process, reloaded when any process re-seeds the store.

Every `Reference` holds the value its loader built from the store and the data version it was
built at. At most every `check_seconds` it reads the version row; when another process (or a
`twlookup seed` / `twlookup ingest` run) has bumped it, the value is rebuilt. So a re-seed is seen
by every running process within a couple of seconds, with no restart and no per-request query.

`due()` says whether the next `get()` could touch the store (a version check is due, or some
reference is not built at the current version). Operations use it to stay off the store on the
event loop: when it is due, `refresh_all()` runs in a worker thread first, and the operation
itself then reads only memory.
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
    _fresh_until: ClassVar[float] = 0.0  # until then no get() touches the store

    def __init__(self, loader: Callable[[Session], T]) -> None:
        self._loader = loader
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
    def due(cls) -> bool:
        """True when a `get()` now could read the store rather than memory."""
        return time.monotonic() >= cls._fresh_until

    @classmethod
    def refresh_all(cls) -> None:
        """Check the version and (re)build every reference not built at it: blocking, so call it
        from a worker thread. Afterwards no `get()` touches the store until the next check."""
        checked_at = time.monotonic()
        version = cls.current_version()
        for ref in list(cls._all):
            ref.get()
        if all(ref._built_at == version and ref._value is not None for ref in list(cls._all)):
            cls._fresh_until = checked_at + cls.check_seconds

    @classmethod
    def reset_all(cls) -> None:
        """Forget every cached value (a new engine was configured, or a test re-seeded)."""
        cls._fresh_until = 0.0
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
