"""Start-up against a store: unreachable is waited on; answered-but-unusable is said at once."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from sqlalchemy.engine import make_url

from tests.conftest import postgres_url
from twlookup.platform.store.engine import normalize_url
from twlookup.platform.store.ready import StoreUnreachable, StoreUnusable, wait_for_store


def test_an_unreachable_store_is_waited_on_then_named(tmp_path):
    with pytest.raises(StoreUnreachable, match=r"did not answer within 0\.3 s") as caught:
        wait_for_store("postgresql://nobody@127.0.0.1:1/none", 0.3)
    assert not isinstance(caught.value, StoreUnusable)


def test_sqlite_answers(tmp_path):
    wait_for_store(f"sqlite:///{tmp_path}/store.db", 1)


@pytest.fixture
def pg_admin():
    if not postgres_url():
        pytest.skip("TWLOOKUP_TEST_DATABASE_URL is not set (.ci/run sets it)")
    url = make_url(normalize_url(postgres_url()))
    conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        yield url, conn


def test_a_database_that_is_not_utf8_is_named_at_once(pg_admin):
    """It answered: the old message waited 30 s and blamed a TypeError on unreachability."""
    url, conn = pg_admin
    name = f"twl_ascii_{uuid.uuid4().hex[:8]}"
    conn.execute(f"CREATE DATABASE {name} ENCODING 'SQL_ASCII' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'")
    try:
        target = url.set(database=name).render_as_string(hide_password=False)
        with pytest.raises(StoreUnusable, match=r"encoding is SQL_ASCII.*needs UTF8"):
            wait_for_store(target, 30)
    finally:
        conn.execute(f"DROP DATABASE {name}")


def test_a_missing_database_is_named_at_once(pg_admin):
    url, _ = pg_admin
    target = url.set(database=f"twl_missing_{uuid.uuid4().hex[:8]}").render_as_string(hide_password=False)
    with pytest.raises(StoreUnusable, match=r"refused the connection: .*does not exist"):
        wait_for_store(target, 30)
