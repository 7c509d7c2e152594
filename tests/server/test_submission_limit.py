"""The hourly submission limit across processes: two `twlookup serve` processes on one store take
30 concurrent bikes contributions from one client (the audit: 24, 26, 21, 21, 21, 20, 20 were
accepted against a limit of 20, counted then inserted with no lock). Exactly the limit is
accepted, the rest are 429 problems, in every round, on PostgreSQL (with the rate limits in
Redis) and on one SQLite file.

The PostgreSQL case needs TWLOOKUP_TEST_DATABASE_URL (and TWLOOKUP_TEST_REDIS_URL); it creates
and drops a database of its own."""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import httpx
import pytest
from conftest import postgres_url, redis_url
from live_server import serve, server_env
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from twlookup.platform.store.engine import normalize_url

pytestmark = pytest.mark.slow
LIMIT = 20
CONCURRENT = 30
ROUNDS = 4


def contribution(n: int) -> dict:
    return {
        "slug": "yamaha-rd350lc-1980",
        "kind": "part",
        "item": f"test part {n}",
        "value": f"value {secrets.token_hex(4)}",
        "source": "https://example.org/manual.pdf",
    }


def burst(urls: list[str], client: str) -> Counter:
    """CONCURRENT contributions from `client`, alternating between the processes, all at once."""

    def one(n: int) -> int:
        url = urls[n % len(urls)] + "/bikes/api/contribute"
        r = httpx.post(url, json=contribution(n), headers={"X-Forwarded-For": client}, timeout=60)
        if r.status_code == 429:
            assert r.headers["content-type"] == "application/problem+json"
            assert r.json()["detail"].startswith(f"At most {LIMIT} submissions per client per hour to bikes")
        return r.status_code

    with ThreadPoolExecutor(CONCURRENT) as pool:
        return Counter(pool.map(one, range(CONCURRENT)))


def two_servers(database_url: str, folder, **settings: str) -> Iterator[list[str]]:
    env = server_env(
        database_url,
        TWLOOKUP_TRUSTED_PROXIES='["127.0.0.1/32"]',  # each round is another client (X-Forwarded-For)
        TWLOOKUP_RATE_LIMIT_DEFAULT="100000/minute",
        TWLOOKUP_REVIEW_SUBMISSIONS_PER_HOUR=str(LIMIT),
        **settings,
    )
    with ExitStack() as stack:
        first = stack.enter_context(serve(env, folder, "--no-access-log"))  # migrates and seeds
        second = stack.enter_context(serve(env, folder, "--no-access-log"))
        yield [first.url, second.url]


def rounds(urls: list[str]) -> list[Counter]:
    return [burst(urls, f"10.9.{n}.{secrets.randbelow(250) + 1}") for n in range(ROUNDS)]


@pytest.fixture
def pg_database() -> Iterator[str]:
    url = postgres_url()
    if not url:
        pytest.skip("TWLOOKUP_TEST_DATABASE_URL is not set (needs PostgreSQL)")
    admin = create_engine(normalize_url(url), isolation_level="AUTOCOMMIT")
    name = f"twlookup_limit_{secrets.token_hex(4)}"
    with admin.connect() as conn:
        conn.execute(text(f'create database "{name}"'))
    try:
        yield make_url(normalize_url(url)).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'drop database if exists "{name}" with (force)'))
        admin.dispose()


def test_the_hourly_limit_holds_across_two_processes_on_postgresql(pg_database, tmp_path):
    extra = {"TWLOOKUP_REDIS_URL": redis_url()} if redis_url() else {}
    for urls in two_servers(pg_database, tmp_path, **extra):
        results = rounds(urls)
    assert results == [Counter({200: LIMIT, 429: CONCURRENT - LIMIT})] * ROUNDS, results


def test_the_hourly_limit_holds_across_two_processes_on_one_sqlite_file(fresh_store, tmp_path):
    for urls in two_servers(fresh_store, tmp_path):
        results = rounds(urls)
    assert results == [Counter({200: LIMIT, 429: CONCURRENT - LIMIT})] * ROUNDS, results
