"""The process-wide engine, configured once from settings (or by tests)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

_engine: Engine | None = None
_sessions: sessionmaker[Session] | None = None


def normalize_url(url: str) -> str:
    """Let users write postgresql:// and get the psycopg 3 driver we ship."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, pool_pre_ping=not url.startswith("sqlite"))
    if url.startswith("sqlite"):

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.close()

    return engine


def configure(url: str) -> Engine:
    global _engine, _sessions
    if _engine is not None and str(_engine.url) == normalize_url(url):
        return _engine
    if _engine is not None:
        _engine.dispose()
    _engine = make_engine(url)
    _sessions = sessionmaker(_engine, expire_on_commit=False)
    from twlookup.platform.store.reference import Reference

    Reference.reset_all()
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
