"""Alembic, driven from code so that `twlookup db upgrade` and `serve` need no alembic.ini."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from twlookup.bundled import migrations_dir
from twlookup.platform.store import engine as store_engine


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    cfg.set_main_option("sqlalchemy.url", store_engine.normalize_url(url).replace("%", "%%"))
    return cfg


def upgrade(url: str) -> None:
    store_engine.configure(url)
    command.upgrade(alembic_config(url), "heads")
