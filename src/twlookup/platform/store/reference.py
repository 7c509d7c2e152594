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

When the store stalls, a service whose references are built keeps answering from memory for
`grace_seconds` after the store last answered a version check (`servable`): a request waits at
most `stall_wait_seconds` for the check, and none waits while a check is already under way or the
store has just failed one (`suspect`); one check at a time goes on in the background to notice
the store coming back. Past the grace period, and for work that needs the store itself, a request
waits at most `stall_wait_seconds` while the store is suspect (operations.py), then answers 503.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, ClassVar, Generic, TypeVar

from sqlalchemy.orm import Session

from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.meta import read_version
from twlookup.startup import long_lived

T = TypeVar("T")
A = TypeVar("A")
R = TypeVar("R")
log = logging.getLogger("twlookup.store")
# Set while an operation runs on the event loop after its references were refreshed (or found
# servable): a built reference is then read from memory, never checked against the store.
_FROM_MEMORY: ContextVar[bool] = ContextVar("reference_from_memory", default=False)
SUSPECT_SECONDS = 10.0  # a failed check makes the store suspect this long (or until one succeeds)


class Reference(Generic[T]):
    check_seconds: ClassVar[float] = 2.0
    grace_seconds: ClassVar[float] = 30.0  # TWLOOKUP_STORE_GRACE_SECONDS
    stall_wait_seconds: ClassVar[float] = 2.0  # TWLOOKUP_STORE_STALL_WAIT_SECONDS
    _all: ClassVar[weakref.WeakSet[Reference[Any]]] = weakref.WeakSet()
    _version: ClassVar[int] = -1
    _checked_at: ClassVar[float] = 0.0
    _ok_at: ClassVar[float] = float("-inf")  # when the store last answered a version check
    _failed_at: ClassVar[float] = float("-inf")  # when a version check (or a store wait) last failed
    _check_started: ClassVar[float | None] = None  # a version check under way since then
    _background_at: ClassVar[float] = float("-inf")
    _lock: ClassVar[threading.Lock] = threading.Lock()
    _check_lock: ClassVar[threading.Lock] = threading.Lock()
    _fresh_until: ClassVar[dict[str | None, float]] = {}  # per group: until then no get() touches the store
    # Counts the values built (and the resets): an answer worked out from the references read at
    # one generation holds while it is unchanged (platform/answer_cache.py). Raised after the new
    # value is in place, so that a reader that has seen the new generation reads the new value.
    generation: ClassVar[int] = 0

    def __init__(self, loader: Callable[[Session], T]) -> None:
        self._loader = loader
        self.group = group_of(loader.__module__)
        self._value: T | None = None
        self._built_at = -2
        Reference._all.add(self)

    @classmethod
    def current_version(cls) -> int:
        now = time.monotonic()
        if now - cls._checked_at < cls.check_seconds:
            return cls._version
        # one check at a time: the others wait for its answer (bounded) instead of asking too
        if not cls._check_lock.acquire(timeout=store_engine.timeouts().pool + store_engine.timeouts().statement):
            raise TimeoutError("the data version check has not finished and the store has not answered")
        try:
            if time.monotonic() - cls._checked_at < cls.check_seconds:
                return cls._version  # checked while this thread waited
            cls._check_started = time.monotonic()
            try:
                with store_engine.get_engine().connect() as conn:
                    version = read_version(conn)
            except BaseException:
                cls._failed_at = time.monotonic()
                raise
            finally:
                cls._check_started = None
            cls._version, cls._checked_at, cls._ok_at = version, now, time.monotonic()
            return version
        finally:
            cls._check_lock.release()

    @classmethod
    def set_timing(cls, check_seconds: float, grace_seconds: float, stall_wait_seconds: float) -> None:
        """The version check's cadence, the grace period and the stall wait (from the settings).
        What was found fresh under an earlier cadence is checked again: a window it promised could
        otherwise outlast the new cadence (a check every 0 s still skipping checks for 2 s)."""
        cls.check_seconds, cls.grace_seconds, cls.stall_wait_seconds = check_seconds, grace_seconds, stall_wait_seconds
        cls._fresh_until = {}

    @classmethod
    def servable(cls, group: str | None) -> bool:
        """True when `group`'s references are all built at the last known version and the store
        answered a version check within the grace period: they may be served from memory."""
        if time.monotonic() - cls._ok_at >= cls.grace_seconds:
            return False
        refs = [ref for ref in list(cls._all) if ref.group in (group, None)]
        return all(ref._value is not None and ref._built_at == cls._version for ref in refs)

    @classmethod
    def suspect(cls) -> bool:
        """True while a version check has been under way longer than `stall_wait_seconds`, or for a
        while after one failed (until one succeeds): the store is stalling or down."""
        now = time.monotonic()
        started = cls._check_started
        if started is not None and now - started > cls.stall_wait_seconds:
            return True
        return cls._failed_at > cls._ok_at and now - cls._failed_at < SUSPECT_SECONDS

    @classmethod
    def store_failed(cls) -> None:
        """Note that a wait on the store failed (a request timed out or the store refused)."""
        cls._failed_at = time.monotonic()

    @classmethod
    def check_in_background(cls, group: str | None) -> None:
        """Start one refresh of `group` in a thread of its own, unless a check is under way or one
        was started within `stall_wait_seconds`: how a stalled store is seen coming back."""
        now = time.monotonic()
        if cls._check_started is not None or now - cls._background_at < cls.stall_wait_seconds:
            return
        cls._background_at = now

        def run() -> None:
            try:
                cls.refresh(group)
            except Exception as exc:  # still down: noted by current_version; nobody waits on this
                log.debug("background data version check failed: %s", type(exc).__name__)

        threading.Thread(target=run, name="twlookup-version-check", daemon=True).start()

    @staticmethod
    def in_memory(fn: Callable[[A], R], arg: A) -> R:
        """`fn(arg)` with every built reference returned as it is, without a version check (for
        an operation on the event loop whose group was just refreshed or found servable)."""
        token = _FROM_MEMORY.set(True)
        try:
            return fn(arg)
        finally:
            _FROM_MEMORY.reset(token)

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
        cls._ok_at = cls._failed_at = cls._background_at = float("-inf")
        for ref in list(cls._all):
            ref._value = None
            ref._built_at = -2
        cls.generation += 1

    def get(self) -> T:
        if self._value is not None and _FROM_MEMORY.get():
            return self._value
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
                    Reference.generation += 1
                    long_lived()  # kept until the data changes: out of the collector's scans
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


store_engine.on_configure(Reference.reset_all)
