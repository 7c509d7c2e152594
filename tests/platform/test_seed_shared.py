"""A new SQLite store is seeded by two processes (platform/store/seed_shared.py): it must end as the
one-process seed leaves a store, clean up after itself, and fail whole when its helper fails."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store import seed_shared as shared
from twlookup.platform.store.seed import seed, seeded_fingerprint
from twlookup.services import SEED_HELPER, load_seeders, upgrade_store


def _new_store(folder: Path) -> str:
    folder.mkdir()
    url = f"sqlite:///{folder / 'twlookup.db'}"
    upgrade_store(url)  # its tables, empty
    return url


def _tables(path: Path) -> dict[str, list[str]]:
    with closing(sqlite3.connect(path)) as db:
        names = [r[0] for r in db.execute("select name from sqlite_master where type = 'table' order by name")]
        return {n: sorted(map(repr, db.execute(f'select * from "{n}"').fetchall())) for n in names}


@pytest.fixture
def restore_engine(db_url):
    yield
    store_engine.configure(db_url)


def test_a_store_seeded_by_two_processes_is_the_one_process_seed(tmp_path, restore_engine):
    one = _new_store(tmp_path / "one")
    counts_one = seed(load_seeders(), DEFAULT_DATA)
    two = _new_store(tmp_path / "two")
    counts_two = shared.seed_shared(load_seeders(), DEFAULT_DATA, two, SEED_HELPER)
    assert counts_two == counts_one and list(counts_two) == list(counts_one)  # the same counts, in order
    tables_one, tables_two = (
        _tables(Path(one.removeprefix("sqlite:///"))),
        _tables(Path(two.removeprefix("sqlite:///"))),
    )
    assert set(tables_two) == set(tables_one)
    assert [t for t in tables_one if tables_one[t] != tables_two[t]] == []  # every row of every table
    assert sum(len(rows) for t, rows in tables_two.items() if t.startswith("search_")) > 10_000  # helper's index
    assert sorted(p.name for p in (tmp_path / "two").iterdir() if "seed-part" in p.name) == []  # cleaned up


def test_a_failing_helper_fails_the_whole_seed(tmp_path, monkeypatch, restore_engine):
    url = _new_store(tmp_path / "store")

    def broken(*_args):
        raise RuntimeError("the helper breaks")

    monkeypatch.setattr(shared, "_helper", broken)
    with pytest.raises(RuntimeError, match="the seed's helper process failed"):
        shared.seed_shared(load_seeders(), DEFAULT_DATA, url, SEED_HELPER)
    store_engine.configure(url)
    assert seeded_fingerprint() is None  # nothing of the main side's work was kept either
    assert _tables(tmp_path / "store" / "twlookup.db")["bikes_model"] == []
    assert [p.name for p in (tmp_path / "store").iterdir() if "seed-part" in p.name] == []


def test_services_sharing_a_seeder_stay_together_in_one_process(tmp_path, monkeypatch, restore_engine):
    seeders = load_seeders()
    shared_seeder = next(s for s in seeders["life"] if any(s in seeders[n] for n in seeders if n != "life"))
    assert shared_seeder  # (the Taiwan calendar: life and holiday both seed it)
    url = _new_store(tmp_path / "store")

    def no_fork():
        raise AssertionError("forked a helper for a service whose seeder another service runs too")

    monkeypatch.setattr(os, "fork", no_fork)
    counts = shared.seed_shared(seeders, DEFAULT_DATA, url, ("life",))
    assert counts["life"] > 0 and seeded_fingerprint() is not None  # seeded by this process alone


@pytest.mark.parametrize("two_processes", [False, True], ids=["one process", "two processes"])
def test_the_collector_is_paused_while_a_seed_runs(tmp_path, restore_engine, two_processes):
    """A seed makes a few hundred thousand objects it drops when it is done: with the collector
    running it scanned them again and again, about a quarter of a seed's CPU time. It is paused
    for the seed (a `serve` with several workers seeds in a child interpreter, `twlookup seed` in
    its own process, where nothing had paused it) and runs again after it."""
    import gc

    url = _new_store(tmp_path / "store")
    seeders = load_seeders()
    collections: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            collections.append(info["generation"])

    assert gc.isenabled()
    gc.callbacks.append(count)
    try:
        if two_processes:
            shared.seed_shared(seeders, DEFAULT_DATA, url, SEED_HELPER)
        else:
            seed(seeders, DEFAULT_DATA)
    finally:
        gc.callbacks.remove(count)
    assert seeded_fingerprint() is not None
    # none while it ran (there were hundreds); at most the one due as soon as it is back on
    assert len(collections) <= 1, collections
    assert gc.isenabled()
