"""The Alembic migrations build exactly the tables the code declares, and go down cleanly."""

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect

from twlookup.platform.store.base import Base
from twlookup.platform.store.migrate import alembic_config, upgrade
from twlookup.services import load_tables


def test_one_head_and_no_drift(tmp_path, settings):
    url = f"sqlite:///{tmp_path}/m.db"
    cfg = alembic_config(url)
    assert len(ScriptDirectory.from_config(cfg).get_heads()) == 1, "migrations must form one line"
    upgrade(url)
    load_tables()
    engine = create_engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == [], f"models and migrations differ: {diff}"
    command.downgrade(cfg, "base")
    assert set(inspect(create_engine(url)).get_table_names()) <= {"alembic_version"}
    from twlookup.platform.store import engine as store_engine

    store_engine.configure(settings.database_url)
