"""The store: migrations and seeding on SQLite and PostgreSQL, and re-seeds seen without restart."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from sqlalchemy import inspect, text
from stores import copy_store, empty_store
from yaml_files import load_yaml

from twlookup.app import create_app
from twlookup.cli import DEFAULT_DATA, ensure_ready
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.seed import seed
from twlookup.services import load_seeders, load_services, load_tables


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_seed_is_idempotent(db_url):
    store_engine.configure(db_url)
    first = seed(load_seeders(), DEFAULT_DATA)
    second = seed(load_seeders(), DEFAULT_DATA)
    assert first == second and first["models"] >= 60
    with store_engine.get_engine().connect() as conn:
        assert conn.execute(text("select count(*) from models_model")).scalar() == first["models"]


def test_every_seeded_record_has_provenance(db_url):
    engine = store_engine.configure(db_url)
    with engine.connect() as conn:
        for table in ("models_model", "calendar_year"):
            missing = conn.execute(
                text(f"select count(*) from {table} where source is null or source = '' or checked is null")
            ).scalar()
            assert missing == 0, table


def _wait_for(url: str, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(proc.stderr.read().decode() if proc.stderr else "server exited")
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("server did not start")


def _reseed_is_seen_by_a_running_process(url: str, tmp_path: Path) -> None:
    """`url` is a seeded store of this test's own (nothing to restore afterwards)."""
    env = dict(os.environ, TWLOOKUP_DATABASE_URL=url, TWLOOKUP_DATA_CHECK_SECONDS="0.5")
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "twlookup", "serve", "--port", str(port), "--no-access-log", "--log-level", "warning"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}/models/api/model"
    try:
        _wait_for(base + "?id=gpt-4-0613", proc)
        before = httpx.get(base, params={"id": "gpt-4-0613"}).json()["model"]
        data = tmp_path / "data"
        shutil.copytree(DEFAULT_DATA, data)
        doc = load_yaml((data / "models" / "models.yaml").read_text(encoding="utf-8"))
        for m in doc["models"]:
            if m["id"] == "gpt-4-0613":
                m["note"] = "edited by the re-seed test"
        (data / "models" / "models.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
        subprocess.run(
            [sys.executable, "-m", "twlookup", "seed", "--data", str(data)], env=env, check=True, capture_output=True
        )
        deadline = time.monotonic() + 5
        after = before
        while time.monotonic() < deadline and after["note"] == before["note"]:
            time.sleep(0.2)
            after = httpx.get(base, params={"id": "gpt-4-0613"}).json()["model"]
        assert after["note"] == "edited by the re-seed test"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)


def test_reseed_seen_without_restart_sqlite(template_store, tmp_path):
    _reseed_is_seen_by_a_running_process(copy_store(template_store, tmp_path), tmp_path)


@pytest.fixture
def pg_url(settings):
    url = os.environ.get("TWLOOKUP_TEST_DATABASE_URL")
    if not url:
        pytest.skip("TWLOOKUP_TEST_DATABASE_URL is not set (PostgreSQL tests need a server; .ci/run sets it)")
    yield empty_store(url)
    store_engine.configure(settings.database_url)


def test_postgres_migrate_seed_and_serve(pg_url, settings):
    ensure_ready(pg_url, DEFAULT_DATA)
    app = create_app(settings.model_copy(update={"database_url": pg_url}))
    assert store_engine.get_engine().dialect.name == "postgresql"

    async def run() -> None:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            assert (await c.get("/healthz")).json()["store"] == "postgresql"
            r = await c.get("/models/api/model", params={"id": "gpt-4-0613"})
            assert r.status_code == 200 and r.json()["model"]["status"] == "retired"
            r = await c.get("/holiday/api/long-weekends-2027")
            assert r.status_code == 200

    import asyncio

    asyncio.run(run())


def test_reseed_seen_without_restart_postgres(pg_url, tmp_path, settings):
    ensure_ready(pg_url, DEFAULT_DATA)  # the fixture left the database empty
    store_engine.configure(settings.database_url)
    _reseed_is_seen_by_a_running_process(pg_url, tmp_path)


def test_serve_reseeds_when_data_changed(tmp_path):
    url = f"sqlite:///{tmp_path}/fp.db"
    ensure_ready(url, DEFAULT_DATA)
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA, data)
    with store_engine.get_engine().connect() as conn:
        version = conn.execute(text("select value from store_meta where key = 'data_version'")).scalar()
    ensure_ready(url, data)  # same content: nothing to do
    with store_engine.get_engine().connect() as conn:
        assert conn.execute(text("select value from store_meta where key = 'data_version'")).scalar() == version
    (data / "models" / "models.yaml").write_text(
        (data / "models" / "models.yaml").read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8"
    )
    ensure_ready(url, data)
    with store_engine.get_engine().connect() as conn:
        assert (
            int(conn.execute(text("select value from store_meta where key = 'data_version'")).scalar())
            == int(version) + 1
        )


def _ready_together(url: str, count: int = 3) -> None:
    """`count` processes each migrate-and-seed one empty store at the same moment: all succeed and
    the store is seeded exactly once (the later ones find the work done under the lock)."""
    code = (  # as `serve` with one worker does: the seed in a forked copy of each process
        "import sys; from twlookup.cli import ensure_ready, DEFAULT_DATA;"
        " ensure_ready(sys.argv[1], DEFAULT_DATA, seed_in_copy=True)"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(count)
    ]
    outcomes = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in procs]
    assert [rc for rc, _ in outcomes] == [0] * count, outcomes
    assert sum("seeded the store" in err for _, err in outcomes) == 1, outcomes
    engine = store_engine.make_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("select value from store_meta where key = 'data_version'")).scalar() == "1"
    engine.dispose()


def test_processes_starting_together_on_one_sqlite_file(tmp_path):
    _ready_together(f"sqlite:///{tmp_path}/together.db")


def test_processes_starting_together_on_postgres(pg_url):
    _ready_together(pg_url)


def test_replace_rows_updates_inserts_and_deletes(tmp_path, settings):
    """The table becomes the rows given: kept keys updated, new ones inserted, the rest deleted."""
    from sqlalchemy import select

    from twlookup.platform.store.meta import StoreMeta
    from twlookup.platform.store.migrate import upgrade
    from twlookup.platform.store.seed import replace_rows

    url = f"sqlite:///{tmp_path}/r.db"
    upgrade(url)
    try:
        with store_engine.session() as session, session.begin():
            session.execute(StoreMeta.__table__.delete())
            session.add_all([StoreMeta(key="a", value="1"), StoreMeta(key="b", value="2")])
        with store_engine.session() as session, session.begin():
            n = replace_rows(session, StoreMeta, [StoreMeta(key="b", value="20"), StoreMeta(key="c", value="3")])
        assert n == 2
        with store_engine.session() as session:
            assert dict(session.execute(select(StoreMeta.key, StoreMeta.value)).all()) == {"b": "20", "c": "3"}
    finally:
        store_engine.configure(settings.database_url)


def test_upgrade_skips_alembic_only_while_the_store_is_where_it_left_it(tmp_path, settings, monkeypatch):
    """A store upgraded with these migrations is not migrated again at start; a store moved to
    another revision by hand, or one whose record is gone, is."""
    from alembic import command

    from twlookup.platform.store import migrate

    url = f"sqlite:///{tmp_path}/s.db"
    calls = []
    real = command.upgrade
    monkeypatch.setattr(command, "upgrade", lambda cfg, rev: calls.append(rev) or real(cfg, rev))
    try:
        migrate.upgrade(url, load_tables)
        assert calls == [] and migrate.is_current(), "an empty store is created at the head"
        migrate.upgrade(url)
        assert calls == [], "a current store does not run Alembic"
        command.downgrade(migrate.alembic_config(url), "-1")
        assert not migrate.is_current()
        migrate.upgrade(url)
        assert calls == ["heads"] and migrate.is_current()
        with store_engine.get_engine().begin() as conn:
            conn.execute(text("delete from store_meta where key = 'schema_fingerprint'"))
        assert not migrate.is_current()
        migrate.upgrade(url)
        assert calls == ["heads"] * 2 and migrate.is_current()
        monkeypatch.setattr(migrate, "migrations_digest", lambda: "another set of migrations")
        assert not migrate.is_current()
        migrate.upgrade(url)
        assert calls == ["heads"] * 3 and migrate.is_current()
    finally:
        store_engine.configure(settings.database_url)


def test_the_seed_fingerprint_needs_only_the_service_names():
    """`serve` checks the seed against the names in IMPLEMENTED, without importing a service:
    they must be the names the services give themselves."""
    from twlookup.services import IMPLEMENTED

    assert [s.name for s in load_services()] == IMPLEMENTED


def test_a_seed_in_a_child_process_leaves_the_supervisor_without_the_services(tmp_path):
    """With several workers `serve` seeds in a short-lived child: the store is seeded and the
    supervising process has imported no service (nor kept the seed's memory)."""
    url = f"sqlite:///{tmp_path}/child.db"
    code = (
        "import sys; from twlookup.cli import ensure_ready, DEFAULT_DATA;"
        " ensure_ready(sys.argv[1], DEFAULT_DATA, seed_in_child=True);"
        " print(sorted(m for m in sys.modules if m.startswith('twlookup.services.')))"
    )
    done = subprocess.run([sys.executable, "-c", code, url], capture_output=True, text=True, check=True)
    assert "seeded the store" in done.stderr
    assert done.stdout.strip() == "[]"
    engine = store_engine.make_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("select count(*) from models_model")).scalar() >= 60
    engine.dispose()


SEED_IN_COPY = """
import json, os, sys
from pathlib import Path
import twlookup.cli as cli
seeded_by = []
real = cli._seed
def seed(data, new_store=None):
    seeded_by.append(os.getpid())
    serving = sorted(m for m in sys.modules if m.split(".")[0] in ("fastapi", "starlette")
                     or m.startswith("twlookup.services.") and m.split(".")[3:4] in (["operations"], ["schemas"]))
    # written whole, then renamed: a reader polling for the mark never reads it half-written
    Path(sys.argv[3] + ".part").write_text(json.dumps({"pid": os.getpid(), "serving": serving}))
    os.replace(sys.argv[3] + ".part", sys.argv[3])
    return real(data, new_store)
cli._seed = seed
meanwhile = []
cli.ensure_ready(sys.argv[1], Path(sys.argv[2]), seed_in_copy=True, meanwhile=lambda: meanwhile.append(1))
Path(sys.argv[3] + ".returned").write_text(json.dumps(os.getpid()))
print(json.dumps({"pid": os.getpid(), "here": seeded_by, "modules": "twlookup.app" in sys.modules,
                  "meanwhile": len(meanwhile)}))
"""


def _in_copy(url: str, data: Path, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], dict[str, Any] | None]:
    """Run SEED_IN_COPY: the finished process and, if a seed ran, its pid and the serving modules
    it had imported (services' operations and schemas, FastAPI, starlette)."""
    mark = tmp_path / "seeded-by"
    mark.unlink(missing_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", SEED_IN_COPY, url, str(data), str(mark)], capture_output=True, text=True
    )
    return done, (json.loads(mark.read_text()) if mark.exists() else None)


def _rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows in a stable order, but the data version (a counter of seeds and imports)."""
    engine = store_engine.make_engine(url)
    with engine.connect() as conn:
        tables = inspect(conn).get_table_names()
        rows = {t: sorted(map(tuple, conn.execute(text(f'select * from "{t}"'))), key=repr) for t in tables}
    engine.dispose()
    rows["store_meta"] = [r for r in rows["store_meta"] if r[0] != "data_version"]
    return rows


def test_one_worker_seeds_in_a_forked_copy_whose_memory_goes_back(tmp_path, template_store):
    """`serve` with one worker seeds in a copy of its process made once the tables and data modules
    are imported: the store is seeded by another process id, before any serving code (operations,
    FastAPI) was imported, into the same rows as a seed with everything imported (the test
    template); this process did not seed (nothing of the seed stays in it) and imported the app
    meanwhile; a store already seeded makes no copy."""
    url = f"sqlite:///{tmp_path}/copy.db"
    done, seeder = _in_copy(url, DEFAULT_DATA, tmp_path)
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    assert "seeded the store" in done.stderr
    assert seeder is not None and seeder["pid"] != outcome["pid"] and outcome["here"] == []
    assert seeder["serving"] == []
    assert outcome["modules"] is True and outcome["meanwhile"] == 1  # the app is built while the copy seeds
    seeded, template = _rows(url), _rows(f"sqlite:///{template_store}")
    assert len(seeded["models_model"]) >= 60 and len(seeded["search_token"]) > 1000
    assert seeded.keys() == template.keys()
    assert [t for t in seeded if seeded[t] != template[t]] == []
    again, seeder = _in_copy(url, DEFAULT_DATA, tmp_path)
    assert again.returncode == 0 and seeder is None and "seeded the store" not in again.stderr
    assert json.loads(again.stdout)["meanwhile"] == 0  # nothing to wait for: uvicorn builds the app


def test_a_seed_that_fails_in_the_copy_fails_the_start_with_its_reason(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA, data)
    models = data / "models" / "models.yaml"
    models.write_text(
        models.read_text(encoding="utf-8").replace("  kind: code\n", "  kind: code\n  colour: green\n", 1),
        encoding="utf-8",
    )
    done, seeder = _in_copy(f"sqlite:///{tmp_path}/bad.db", data, tmp_path)
    assert done.returncode != 0 and seeder is not None
    assert "could not be migrated and seeded" in done.stderr and "models.yaml" in done.stderr


def test_an_in_memory_store_is_seeded_in_its_own_process(tmp_path):
    done, seeder = _in_copy("sqlite://", DEFAULT_DATA, tmp_path)
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    assert seeder is not None and seeder["pid"] == outcome["pid"] and outcome["here"] == [seeder["pid"]]
    assert outcome["meanwhile"] == 0


def test_a_copy_whose_parent_is_killed_finishes_the_seed_and_never_returns_into_the_caller(tmp_path):
    """The server killed while its copy seeds: the copy completes the seed (the store is not left
    half-seeded) and exits; it does not go on to do what the server would have done next."""
    url = f"sqlite:///{tmp_path}/orphan.db"
    mark = tmp_path / "seeded-by"
    parent = subprocess.Popen(
        [sys.executable, "-c", SEED_IN_COPY, url, str(DEFAULT_DATA), str(mark)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while not mark.exists():  # written by the copy as its seed begins
        assert time.monotonic() < deadline and parent.poll() is None, "the copy did not start seeding"
        time.sleep(0.01)
    copy = json.loads(mark.read_text())["pid"]
    parent.kill()
    parent.wait(timeout=10)
    while Path(f"/proc/{copy}").exists() and b"State:\tZ" not in Path(f"/proc/{copy}/status").read_bytes():
        assert time.monotonic() < deadline, "the copy did not end"
        time.sleep(0.05)
    assert not Path(f"{mark}.returned").exists(), "the copy went on past the seed"
    engine = store_engine.make_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("select value from store_meta where key = 'seed_fingerprint'")).scalar()
    engine.dispose()
