"""Alembic, driven from code so that `twlookup db upgrade` and `serve` need no alembic.ini."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from twlookup.platform.store import engine as store_engine

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", store_engine.normalize_url(url).replace("%", "%%"))
    return cfg


def upgrade(url: str) -> None:
    store_engine.configure(url)
    command.upgrade(alembic_config(url), "heads")
