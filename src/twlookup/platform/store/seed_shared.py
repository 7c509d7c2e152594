"""A new SQLite store seeded by two processes at once.

Seeding a new store is most of a cold start (about a second of one core on a 2-core machine),
and the seeders of different services share nothing but the search's tables, where each service
writes its own collections. So a new SQLite store is seeded in two halves: a forked helper
seeds some of the services (`helper`: named by the caller, those whose seeders no other service
also runs) into a store file of its own beside the new one, while this process seeds the rest
into the new store; this process then copies the helper's rows over (its file attached: SQLite
copies the values as stored) and finishes the seed (version, fingerprint) in the same transaction. The
store ends as `seed` would leave it (`tests/platform/test_seed_shared.py` compares every table).

Only for a store that was empty before its tables were created: the copied rows are inserted, not
merged. Anything else, and any platform without `fork`, is seeded by `seed` in one process.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import traceback
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from sqlalchemy.orm import Session

from twlookup.platform.data_prefetch import collect
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.meta import StoreMeta
from twlookup.platform.store.seed import Seeder, finish_seed, run_seeders, seed
from twlookup.startup import collector_paused

PART = "seed_part"  # the helper's store, attached to this process's connection for the copy


def seed_shared(
    seeders: Mapping[str, Sequence[Seeder]], data_dir: Path, url: str, helper: Collection[str]
) -> dict[str, int]:
    """`seed(seeders, data_dir)` of the new SQLite store at `url` (configured, its tables just
    created and empty), the services named in `helper` seeded by a forked helper process."""
    with collector_paused():  # (the helper is forked with it paused too)
        return _seed_shared(seeders, data_dir, url, helper)


def _seed_shared(
    seeders: Mapping[str, Sequence[Seeder]], data_dir: Path, url: str, helper: Collection[str]
) -> dict[str, int]:
    store = store_engine.sqlite_file(url)
    others = [s for name, own in seeders.items() if name not in helper for s in own]
    theirs = {name: own for name, own in seeders.items() if name in helper and not set(own) & set(others)}
    if store is None or not theirs or not hasattr(os, "fork"):
        return seed(seeders, data_dir)
    mine = {name: own for name, own in seeders.items() if name not in theirs}
    part = store.with_name(store.name + ".seed-part")
    _remove(part)
    collect()  # the data files parsed by the prefetch child, held before the fork (both read them)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the helper: whatever happens, it ends here
        status = 1
        try:
            os.close(read)
            _helper(theirs, data_dir, part, write)
            status = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(status)
    os.close(write)
    reader = os.fdopen(read, "rb")
    try:
        with store_engine.get_engine().connect() as conn:
            try:
                with Session(bind=conn, expire_on_commit=False) as session, session.begin():
                    counts = run_seeders(session, mine, data_dir)
                    told = reader.read()
                    _, status = os.waitpid(pid, 0)
                    pid = 0
                    if os.waitstatus_to_exitcode(status) != 0 or not told:
                        raise RuntimeError("the seed's helper process failed (its traceback is above)")
                    counts.update(json.loads(told))
                    _copy_rows(session, part)
                    finish_seed(session, seeders, data_dir)
            finally:  # (not while the transaction is open; and not there when the copy was not reached)
                with contextlib.suppress(Exception):
                    conn.exec_driver_sql(f"DETACH DATABASE {PART}")
    finally:
        reader.close()
        if pid:  # this side failed first: the helper is not needed any more
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        _remove(part)
    from twlookup.platform.store.reference import Reference

    Reference.reset_all()
    return {name: counts[name] for name in seeders}


def _helper(seeders: Mapping[str, Sequence[Seeder]], data_dir: Path, part: Path, write: int) -> None:
    """In the forked helper: seed `seeders` into a store of its own at `part`, say the counts."""
    from twlookup.platform.store.migrate import upgrade

    store_engine.get_engine().dispose(close=False)  # the pooled connections stay the parent's
    upgrade(f"sqlite:///{part}", lambda: None)  # every table is declared here already
    with store_engine.session() as session, session.begin():
        counts = run_seeders(session, seeders, data_dir)
    store_engine.get_engine().dispose()  # its writes checkpointed into the file
    with os.fdopen(write, "wb") as fh:
        fh.write(json.dumps(counts).encode())


def _copy_rows(session: Session, part: Path) -> None:
    """Every row of the helper's store (but its store metadata) into this session's store, parent
    tables first, as SQLite stored them (the helper's file attached to this connection; it is
    detached once the transaction is over)."""
    from twlookup.platform.store.base import Base

    conn = session.connection()
    conn.exec_driver_sql(f"ATTACH DATABASE ? AS {PART}", (str(part),))
    for table in Base.metadata.sorted_tables:
        if table.name != StoreMeta.__tablename__:
            columns = ", ".join(f'"{c.name}"' for c in table.columns)
            conn.exec_driver_sql(
                f'INSERT INTO main."{table.name}" ({columns}) SELECT {columns} FROM {PART}."{table.name}"'
            )


def _remove(part: Path) -> None:
    for path in (part, part.with_name(part.name + "-wal"), part.with_name(part.name + "-shm")):
        path.unlink(missing_ok=True)
