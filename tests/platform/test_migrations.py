"""The Alembic migrations build exactly the tables the code declares, and go down cleanly; a new
store created at the head has the schema the migrations build."""

import os

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from stores import empty_store

from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.base import Base
from twlookup.platform.store.migrate import alembic_config, is_current, migration_heads, upgrade
from twlookup.services import load_tables


def test_one_head_and_no_drift(tmp_path, settings):
    url = f"sqlite:///{tmp_path}/m.db"
    cfg = alembic_config(url)
    assert len(ScriptDirectory.from_config(cfg).get_heads()) == 1, "migrations must form one line"
    command.upgrade(cfg, "heads")  # every migration, as an existing store takes them
    load_tables()
    engine = create_engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == [], f"models and migrations differ: {diff}"
    command.downgrade(cfg, "base")
    assert set(inspect(create_engine(url)).get_table_names()) <= {"alembic_version"}
    store_engine.configure(settings.database_url)


def test_the_head_is_read_from_the_files_as_alembic_reads_it():
    assert migration_heads() == sorted(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads())


# columns a migration added as NOT NULL with a server default, so that the rows already there got a
# value; the code declares no default (it always writes them), so a store created at the head has none
BACKFILL_DEFAULTS = {
    ("games_game", "record_origin"),
    ("movie_title", "record_origin"),
    ("glossary_term", "abbreviations"),
    ("glossary_term", "mainland"),
    ("glossary_term", "misspellings"),
    ("holiday_peak_season", "holidays"),
}
# on PostgreSQL the migration made this key a serial (a sequence as its default); the code declares
# no autoincrement (a post's id comes from its record), so a store created at the head has none
SERIAL_ON_POSTGRESQL = {("opinions_post", "id")}


def schema(url: str, backfilled: bool = False) -> dict[str, object]:
    """Everything about a store's tables but the order of their columns."""
    engine = store_engine.make_engine(url)
    try:
        with engine.connect() as conn:
            found = inspect(conn)
            tables: dict[str, object] = {}
            serial = SERIAL_ON_POSTGRESQL if conn.dialect.name == "postgresql" else set()
            dropped = BACKFILL_DEFAULTS | serial
            for table in found.get_table_names():
                columns = {
                    c["name"]: (
                        str(c["type"]),
                        c["nullable"],
                        None if backfilled and (table, c["name"]) in dropped else c.get("default"),
                        False if backfilled and (table, c["name"]) in serial else c.get("autoincrement"),
                    )
                    for c in found.get_columns(table)
                }
                tables[table] = {
                    "columns": columns,
                    "pk": found.get_pk_constraint(table),
                    "fks": sorted(map(repr, found.get_foreign_keys(table))),
                    "indexes": sorted(map(repr, found.get_indexes(table))),
                    "uniques": sorted(map(repr, found.get_unique_constraints(table))),
                    "checks": sorted(map(repr, found.get_check_constraints(table))),
                    "options": found.get_table_options(table),
                }
            versions = sorted(conn.execute(text("select version_num from alembic_version")).scalars())
            return {"tables": tables, "versions": versions}
    finally:
        engine.dispose()


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_a_new_store_is_created_at_the_head_with_the_migrations_schema(store, tmp_path, settings, monkeypatch):
    """An empty store gets the declared tables at once, stamped at the head (no Alembic run): the
    same tables, columns, keys, indexes and constraints as the migrations build, and a store that
    Alembic then finds current, upgrades as a no-op and takes back down."""
    if store == "sqlite":
        built, created = f"sqlite:///{tmp_path}/migrated.db", f"sqlite:///{tmp_path}/created.db"
    else:
        pg = os.environ.get("TWLOOKUP_TEST_DATABASE_URL")
        if not pg:
            pytest.skip("TWLOOKUP_TEST_DATABASE_URL is not set (PostgreSQL tests need a server; .ci/run sets it)")
        built = created = empty_store(pg)
    try:
        command.upgrade(alembic_config(built), "heads")
        assert all(schema(built)["tables"][t]["columns"][c][2] for t, c in BACKFILL_DEFAULTS)  # type: ignore[index]
        migrated = schema(built, backfilled=True)
        if store == "postgresql":
            empty_store(pg)
        ran = []
        monkeypatch.setattr(command, "upgrade", lambda *a, **k: ran.append(a))
        upgrade(created, load_tables)
        assert ran == [], "an empty store is created at the head without running the migrations"
        assert is_current()
        made = schema(created)
        assert made["versions"] == migrated["versions"] == migration_heads()
        assert made["tables"].keys() == migrated["tables"].keys()
        for table, shape in migrated["tables"].items():
            assert made["tables"][table] == shape, table
        monkeypatch.undo()
        command.upgrade(alembic_config(created), "heads")  # nothing to do
        assert schema(created) == made
        command.downgrade(alembic_config(created), "base")
        assert set(inspect(create_engine(store_engine.normalize_url(created))).get_table_names()) <= {"alembic_version"}
    finally:
        if store == "postgresql":
            empty_store(pg)
        store_engine.configure(settings.database_url)


def test_a_new_sqlite_store_gets_its_tables_in_one_transaction(tmp_path, settings):
    """SQLite's Python driver opens no transaction for DDL: without an explicit BEGIN each CREATE
    was committed (and synced) on its own, so a creation stopped half-way left a half-made schema
    that no later start would finish (a store with tables is not created again). Stopped at the
    tenth table, the store is left with no table at all; then created whole."""
    from sqlalchemy import event

    url = f"sqlite:///{tmp_path}/new.db"
    store_engine.configure(url)
    created: list[str] = []

    def stop_at_the_tenth(conn, cursor, statement, *args):
        if statement.lstrip().upper().startswith("CREATE TABLE"):
            created.append(statement)
            if len(created) == 10:
                raise RuntimeError("stopped while creating the tables")

    engine = store_engine.get_engine()
    event.listen(engine, "before_cursor_execute", stop_at_the_tenth)
    try:
        with pytest.raises(RuntimeError, match="stopped"):
            upgrade(url, load_tables)
    finally:
        event.remove(engine, "before_cursor_execute", stop_at_the_tenth)
    try:
        assert len(created) == 10
        assert inspect(create_engine(url)).get_table_names() == []
        assert upgrade(url, load_tables) is True  # still a new store: every table at once
        assert set(inspect(create_engine(url)).get_table_names()) >= set(Base.metadata.tables)
        assert is_current()
    finally:
        store_engine.configure(settings.database_url)
