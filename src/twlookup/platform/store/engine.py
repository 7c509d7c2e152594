"""The process-wide engine, configured once from settings (or by tests)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.orm import Session, sessionmaker

_engine: Engine | None = None
_sessions: sessionmaker[Session] | None = None


@dataclass(frozen=True)
class StoreTimeouts:
    """Bounds on waiting for the store, so that a stalled database cannot hold a request forever.

    connect: opening a connection (PostgreSQL `connect_timeout`; whole seconds, at least 2).
    pool: waiting for a free pooled connection. statement: one SQL statement (PostgreSQL
    `statement_timeout`, SQLite `busy_timeout`). Bounds the server cannot enforce (a connection
    that stops answering mid-query) are enforced around the request by `Operation.run`.
    """

    connect: float = 5.0
    pool: float = 5.0
    statement: float = 10.0

    @classmethod
    def from_settings(cls, settings: object) -> StoreTimeouts:
        return cls(
            connect=getattr(settings, "store_connect_timeout_seconds", cls.connect),
            pool=getattr(settings, "store_pool_timeout_seconds", cls.pool),
            statement=getattr(settings, "store_statement_timeout_seconds", cls.statement),
        )


_timeouts = StoreTimeouts()


def timeouts() -> StoreTimeouts:
    return _timeouts


def normalize_url(url: str) -> str:
    """Let users write postgresql:// and get the psycopg 3 driver we ship."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite store; None for any other store, in-memory SQLite included."""
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        return Path(url.removeprefix("sqlite:///"))
    return None


def make_engine(url: str, limits: StoreTimeouts | None = None) -> Engine:
    url = normalize_url(url)
    limits = limits or _timeouts
    if (file := sqlite_file(url)) is not None:
        file.parent.mkdir(parents=True, exist_ok=True)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": limits.statement or 5.0})
    elif url.startswith("postgresql"):
        connect_args: dict[str, object] = {"connect_timeout": max(2, round(limits.connect))}
        if limits.statement > 0:  # 0: no bound (maintenance work such as waiting for the schema lock)
            statement_ms = max(1, int(limits.statement * 1000))
            connect_args["options"] = f"-c statement_timeout={statement_ms}"
        engine = create_engine(url, pool_pre_ping=True, pool_timeout=limits.pool, connect_args=connect_args)
    else:
        engine = create_engine(url, pool_pre_ping=True, pool_timeout=limits.pool)
    if url.startswith("sqlite"):
        busy_ms = max(1, int((limits.statement or 5.0) * 1000))

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: DBAPIConnection, _record: object) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA busy_timeout={busy_ms}")
            cur.close()

    return engine


_on_configure: list[Callable[[], None]] = []


def on_configure(hook: Callable[[], None]) -> None:
    """Call `hook` each time a new engine is configured (the reference caches forget their values:
    `store/reference.py` registers itself, so the engine does not import it)."""
    _on_configure.append(hook)


def configure(url: str, limits: StoreTimeouts | None = None) -> Engine:
    global _engine, _sessions, _timeouts
    changed = limits is not None and limits != _timeouts
    if limits is not None:
        _timeouts = limits
    if _engine is not None and str(_engine.url) == normalize_url(url) and not changed:
        return _engine
    if _engine is not None:
        _engine.dispose()
    _engine = make_engine(url)
    _sessions = sessionmaker(_engine, expire_on_commit=False)
    for hook in _on_configure:
        hook()
    return _engine


def get_engine() -> Engine:
    if _engine is None:
        from twlookup.settings import get_settings

        configure(get_settings().database_url)
    assert _engine is not None
    return _engine


def session() -> Session:
    get_engine()
    assert _sessions is not None
    return _sessions()
