"""Read-mostly reference data cached in process, reloaded when any process re-seeds the store.

Every `Reference` holds the value its loader built from the store and the data version it was
built at. At most every `check_seconds` it reads the version row; when another process (or a
`twlookup seed` / `twlookup ingest` run) has bumped it, the value is rebuilt. So a re-seed is seen
by every running process within a couple of seconds, with no restart and no per-request query.
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
    def reset_all(cls) -> None:
        """Forget every cached value (a new engine was configured, or a test re-seeded)."""
        cls._checked_at = 0.0
        cls._version = -1
        for ref in list(cls._all):
            ref._value = None
            ref._built_at = -2

    def get(self) -> T:
        version = Reference.current_version()
        if self._built_at != version or self._value is None:
            with Reference._lock:
                if self._built_at != version or self._value is None:
                    with store_engine.session() as session:
                        self._value = self._loader(session)
                    self._built_at = version
        assert self._value is not None
        return self._value
