"""One store-wide lock for schema and seed work, so that processes starting together take turns.

Several `twlookup serve` processes started at once against one empty store would otherwise all
migrate and seed it at the same moment and trip over each other's rows. PostgreSQL gets a
session-level advisory lock; a SQLite file gets an exclusive `flock` on a file beside it; other
stores (in-memory SQLite) are used by one process only and need none.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator

from sqlalchemy import text

from twlookup.platform.store import engine as store_engine

# An arbitrary constant that names this project's lock among a database's advisory locks.
ADVISORY_KEY = 0x7477_6C6B  # "twlk"


@contextlib.contextmanager
def maintenance_lock(url: str) -> Iterator[None]:
    url = store_engine.normalize_url(url)
    if url.startswith("postgresql"):
        # waiting for another process's migration or seed may take long: no statement bound here
        engine = store_engine.make_engine(
            url, store_engine.StoreTimeouts(connect=store_engine.timeouts().connect, statement=0)
        )
        try:
            with engine.connect() as conn:
                conn.execute(text("select pg_advisory_lock(:k)"), {"k": ADVISORY_KEY})
                conn.commit()
                try:
                    yield
                finally:
                    conn.execute(text("select pg_advisory_unlock(:k)"), {"k": ADVISORY_KEY})
                    conn.commit()
        finally:
            engine.dispose()
    elif (file := store_engine.sqlite_file(url)) is not None:
        path = file.with_name(file.name + ".lock")
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)
    else:
        yield
