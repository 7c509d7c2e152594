"""Live feeds: `twlookup refresh` downloads each feed from its official URL (mocked with respx, in the
publishers' real formats) and imports it through the same importer as `ingest`, under the rules
every feed keeps: conditional requests, retries with back-off, a size cap, validation and one
transaction (a failed, truncated or invalid download changes nothing), no older file over a newer
import, one process per feed (a lock in the store), and a schedule (tested with a fake clock).
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import respx
from sqlalchemy import func, select
from yaml_files import load_yaml

from tests.platform.feed_publishers import (
    BOARD_CSV,
    DATA,
    FX_FILE,
    MOBILE01_FILE,
    TODAY,
    TPEX,
    TWSE,
    mock_publishers,
)
from twlookup.cli import _feeds, main
from twlookup.platform.feeds.download import Bounds, DownloadError, Fetcher
from twlookup.platform.feeds.run import Refresher, Store, feed_lock, states
from twlookup.platform.feeds.schedule import Scheduler
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.meta import StoreMeta
from twlookup.services.stocks.parsers import FEEDS as EXCHANGES
from twlookup.services.stocks.tables import CloseRecord
from twlookup.services.trip.tables import FxRateRecord
from twlookup.settings import get_settings

FEEDS = _feeds()
CLOSES = FEEDS["stocks.closes"]
FX = FEEDS["trip.fx"]
TWSE_URL, TPEX_URL = EXCHANGES[0].url, EXCHANGES[1].url


class Sleeps(list):
    """Records the back-off waits instead of sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def refresher(store: Store | None = None, retries: int = 2, sleeps: Sleeps | None = None, **kwargs) -> Refresher:
    bounds = Bounds(timeout=10, max_bytes=1_048_576, retries=retries, backoff=2.0, backoff_max=60.0)
    return Refresher(
        bounds=bounds,
        lease=timedelta(minutes=5),
        store=store or Store(),
        sleep=sleeps if sleeps is not None else Sleeps(),
        today=lambda: TODAY,
        **kwargs,
    )


@pytest.fixture
def store(fresh_store):
    """The process-wide store is a fresh copy of the seeded template for this test."""
    store_engine.configure(fresh_store)
    return fresh_store


def part(feed: str, key: str):
    return next(s for s in states(Store(), feed) if s.part == key)


def closes_of(code: str) -> list[tuple]:
    with store_engine.session() as session:
        rows = session.execute(
            select(CloseRecord.date, CloseRecord.close, CloseRecord.sample).where(CloseRecord.code == code)
        ).all()
    return sorted((d.isoformat(), float(c), s) for d, c, s in rows)


def data_version() -> int:
    with store_engine.session() as session:
        return int(session.get(StoreMeta, "data_version").value)


# ---------------------------------------------------------------- every feed from its official URL


def test_refresh_imports_every_feed_from_its_official_url(store, monkeypatch, capsys):
    """`twlookup refresh` with no FEED: every feed that has an official URL is downloaded and imported."""
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", store)
    monkeypatch.setenv("TWLOOKUP_FEEDS_BACKOFF_SECONDS", "0")
    get_settings.cache_clear()
    monkeypatch.setattr("twlookup.platform.feeds.run.today_taipei", lambda: TODAY)  # lottery months, price days
    assert main(["ingest", "opinions.mobile01", str(MOBILE01_FILE)]) == 0  # its refresh reads stored topics again
    try:
        with respx.mock(assert_all_called=True) as router:
            mock_publishers(router)
            assert main(["refresh"]) == 0
    finally:
        get_settings.cache_clear()
    out = capsys.readouterr().out
    refreshable = sorted(name for name, f in FEEDS.items() if f.refreshable)
    assert refreshable == [
        "cardgame.banlist",
        "creator.companies",
        "food.overpass",
        "games.wikidata",
        "life.fuel",
        "life.invoice",
        "life.lottery",
        "models.claude",
        "motion.libraries",
        "motion.support",
        "movie.wikidata",
        "opinions.mobile01",
        "price.daily",
        "seo.airobots",
        "seo.ipranges",
        "stocks.closes",
        "trip.fx",
    ]
    rows = {(s.feed, s.part): s for s in states(Store())}
    for name in refreshable:
        imported = [s for (feed, _p), s in rows.items() if feed == name]
        assert imported and all(s.last_outcome == "imported" and s.via == "refresh" for s in imported), name
        assert f"{name} [" in out
    # what each import says about its data, read off the files
    assert rows[("life.invoice", "rss")].data_label == "115-01-02"
    assert {p for (f, p) in rows if f == "life.lottery"} == {"lotto649", "superlotto638", "daily539"}
    assert rows[("life.lottery", "lotto649")].data_date.isoformat() == "2026-11-20"
    assert rows[("stocks.closes", "TWSE")].data_date.isoformat() == "2026-11-23"
    assert rows[("trip.fx", "board")].data_label == "2026-11-22 16:00"
    assert rows[("motion.support", "web-features")].data_label == "v3.41.0"
    assert rows[("price.daily", "daily")].data_date.isoformat() == "2026-11-22"
    assert rows[("food.overpass", "taiwan")].data_label == "2026-11-25T23:58:12Z"
    ranges = load_yaml((DATA / "seo" / "ipranges.yaml").read_text(encoding="utf-8"))["files"]
    assert {p for (f, p) in rows if f == "seo.ipranges"} == {r["id"] for r in ranges}  # one part per operator file
    # the data the answers read changed: real closes replaced the sample series
    assert closes_of("2382") == [("2026-11-23", 259.5, False)]
    with store_engine.session() as session:
        assert session.scalar(select(func.count()).select_from(FxRateRecord).where(FxRateRecord.sample.is_(False))) > 0


async def test_status_and_index_show_each_feed(store):
    with respx.mock as router:
        mock_publishers(router)["stocks.tpex"].mock(return_value=httpx.Response(503))
        refresher(retries=0).refresh(CLOSES)
    from twlookup.app import create_app
    from twlookup.settings import Settings

    app = create_app(Settings(database_url=store, rate_limit_default="100000/minute", _env_file=None))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        body = (await c.get("/stocks/api/status")).json()
        (feed,) = body["feeds"]
        parts = {p["part"]: p for p in feed["parts"]}
        assert parts["TWSE"]["last_outcome"] == "imported" and parts["TWSE"]["data_date"] == "2026-11-23"
        assert parts["TPEx"]["last_outcome"] == "failed" and "HTTP 503" in parts["TPEx"]["last_error"]
        assert feed["failing"] is True and body["failing"] is True and "HTTP 503" in feed["last_error"]
        assert feed["last_success"] is not None and feed["last_attempt"] is not None
        assert feed["data_date"] == "2026-11-23" and isinstance(feed["data_age_days"], int)
        # a service without a refresh yet: never tried, its data age from what the store holds
        life = (await c.get("/life/api/status")).json()
        invoice = next(f for f in life["feeds"] if f["feed"] == "life.invoice")
        assert invoice["last_attempt"] is None and invoice["data_date"] == "2026-01-25"  # 114-11-12 drawn 2026-01-25
        assert invoice["urls"] == ["https://invoice.etax.nat.gov.tw/invoice.xml"]
        # the index: JSON and the page
        index = (await c.get("/")).json()
        stocks = next(s for s in index["services"] if s["name"] == "stocks")
        assert stocks["status"] == "/stocks/api/status"
        (summary,) = stocks["feeds"]
        assert summary["feed"] == "stocks.closes" and summary["failing"] is True and "HTTP 503" in summary["last_error"]
        assert "feeds" not in next(s for s in index["services"] if s["name"] == "holiday")  # no feeds, no block
        page = (await c.get("/", headers={"Accept": "text/html"})).text
        assert "Live data" in page and "stocks.closes" in page and "HTTP 503" in page
        # /healthz is about liveness: a failing feed does not make it fail
        assert (await c.get("/healthz")).status_code == 200


# ---------------------------------------------------------------- conditional requests


def test_200_then_304_not_modified(store):
    seen: list[dict] = []

    def twse(request: httpx.Request) -> httpx.Response:
        seen.append(dict(request.headers))
        if request.headers.get("if-none-match") == '"twse-1"':
            return httpx.Response(304)
        return httpx.Response(
            200,
            content=TWSE.read_bytes(),
            headers={"ETag": '"twse-1"', "Last-Modified": "Mon, 23 Nov 2026 06:00:00 GMT"},
        )

    with respx.mock as router:
        router.get(TWSE_URL).mock(side_effect=twse)
        router.get(TPEX_URL).mock(return_value=httpx.Response(200, content=TPEX.read_bytes()))
        first = {o.part: o.outcome for o in refresher().refresh(CLOSES)}
        version = data_version()
        second = {o.part: o.outcome for o in refresher().refresh(CLOSES)}
    assert first == {"TWSE": "imported", "TPEx": "imported"}
    assert "if-none-match" not in seen[0]  # nothing stored yet: a plain GET
    assert seen[1]["if-none-match"] == '"twse-1"' and seen[1]["if-modified-since"] == "Mon, 23 Nov 2026 06:00:00 GMT"
    # TWSE: not modified; TPEx sent no validators, and its same bytes are recognised and not imported again
    assert second == {"TWSE": "not-modified", "TPEx": "unchanged"}
    assert data_version() == version  # nothing was imported, so no process reloads its caches
    twse_state = part("stocks.closes", "TWSE")
    assert twse_state.last_outcome == "not-modified" and twse_state.etag == '"twse-1"'
    assert twse_state.last_success >= twse_state.last_import
    # --force downloads in full (no validators) and still finds the same file
    with respx.mock as router:
        route = router.get(TWSE_URL).mock(side_effect=twse)
        router.get(TPEX_URL).mock(return_value=httpx.Response(200, content=TPEX.read_bytes()))
        forced = {o.part: o.outcome for o in refresher().refresh(CLOSES, force=True)}
    assert "if-none-match" not in route.calls.last.request.headers and forced["TWSE"] == "unchanged"


# ---------------------------------------------------------------- failures keep the good data


def test_server_error_retries_then_records_the_error_and_keeps_the_data(store):
    with respx.mock as router:
        router.get(TWSE_URL).mock(return_value=httpx.Response(200, content=TWSE.read_bytes()))
        router.get(TPEX_URL).mock(return_value=httpx.Response(200, content=TPEX.read_bytes()))
        refresher().refresh(CLOSES)
    good = closes_of("2382")
    version = data_version()
    sleeps = Sleeps()
    with respx.mock as router:
        failing = router.get(TWSE_URL).mock(side_effect=[httpx.Response(503), httpx.Response(502), httpx.Response(500)])
        router.get(TPEX_URL).mock(return_value=httpx.Response(429, headers={"Retry-After": "7"}))
        outcomes = {o.part: o for o in refresher(retries=2, sleeps=sleeps).refresh(CLOSES)}
    assert failing.call_count == 3  # one try and two retries
    assert sleeps == [2.0, 4.0, 7.0, 7.0]  # back-off doubling for TWSE; TPEx's Retry-After followed
    assert outcomes["TWSE"].outcome == "failed" and "HTTP 500 (3 tries)" in outcomes["TWSE"].message
    state = part("stocks.closes", "TWSE")
    assert state.last_outcome == "failed" and "HTTP 500" in state.last_error and state.last_error_at is not None
    assert state.last_import is not None and state.data_date.isoformat() == "2026-11-23"  # the good import stands
    assert closes_of("2382") == good and data_version() == version


def test_network_errors_are_retried_and_a_4xx_is_not(store):
    sleeps = Sleeps()
    with respx.mock as router:
        router.get(TWSE_URL).mock(
            side_effect=[
                httpx.ConnectError("refused"),
                httpx.ReadTimeout("slow"),
                httpx.Response(200, content=TWSE.read_bytes()),
            ]
        )
        gone = router.get(TPEX_URL).mock(return_value=httpx.Response(404))
        outcomes = {o.part: o for o in refresher(sleeps=sleeps).refresh(CLOSES)}
    assert outcomes["TWSE"].outcome == "imported" and sleeps == [2.0, 4.0]
    assert outcomes["TPEx"].outcome == "failed" and "HTTP 404" in outcomes["TPEx"].message and gone.call_count == 1


def test_truncated_body_is_not_imported(store):
    with respx.mock as router:
        router.get(TWSE_URL).mock(return_value=httpx.Response(200, content=TWSE.read_bytes()))
        router.get(TPEX_URL).mock(return_value=httpx.Response(200, content=TPEX.read_bytes()))
        refresher().refresh(CLOSES)
    good, version = closes_of("2382"), data_version()
    raw = TWSE.read_bytes()
    half = raw[: len(raw) // 2]
    with respx.mock as router:
        # a body shorter than its Content-Length: retried, then refused
        short = router.get(TWSE_URL).mock(
            return_value=httpx.Response(200, content=half, headers={"Content-Length": str(len(raw))})
        )
        # a body cut without a Content-Length to tell: the importer finds it is not the format
        router.get(TPEX_URL).mock(return_value=httpx.Response(200, content=TPEX.read_bytes()[:200]))
        outcomes = {o.part: o for o in refresher(retries=1).refresh(CLOSES)}
    assert short.call_count == 2
    assert (
        outcomes["TWSE"].outcome == "failed"
        and f"truncated body: {len(half)} of the {len(raw)} bytes" in outcomes["TWSE"].message
    )
    assert outcomes["TPEx"].outcome == "failed" and "not imported: not UTF-8 JSON" in outcomes["TPEx"].message
    assert closes_of("2382") == good and data_version() == version


def test_an_invalid_file_rolls_back_the_whole_import(store):
    """An importer that fails after it has written (here: after all its rows) leaves nothing of the
    file in the store, and the feed state records the failure, not an import."""
    from dataclasses import replace

    from twlookup.services.stocks.parsers import import_closes

    def fails_at_the_end(session, path):
        import_closes(session, path)
        raise ValueError("the last check failed")

    broken = replace(CLOSES, importer=fails_at_the_end)
    version = data_version()
    with respx.mock as router:
        router.get(TWSE_URL).mock(return_value=httpx.Response(200, content=TWSE.read_bytes()))
        router.get(TPEX_URL).mock(return_value=httpx.Response(200, content=TPEX.read_bytes()))
        outcomes = {o.part: o for o in refresher().refresh(broken)}
    assert outcomes["TWSE"].outcome == "failed" and "the last check failed" in outcomes["TWSE"].message
    assert all(sample for _d, _c, sample in closes_of("2382"))  # still only the sample series
    assert data_version() == version
    state = part("stocks.closes", "TWSE")
    assert state.last_import is None and state.data_key is None and state.last_outcome == "failed"


def test_size_cap(store):
    with respx.mock as router:
        router.get(TWSE_URL).mock(return_value=httpx.Response(200, content=b"[" + b" " * 4096 + b"]"))
        router.get(TPEX_URL).mock(return_value=httpx.Response(200, content=TPEX.read_bytes()))
        small = Refresher(
            bounds=Bounds(max_bytes=2048, retries=0), lease=timedelta(minutes=5), sleep=Sleeps(), today=lambda: TODAY
        )
        outcomes = {o.part: o for o in small.refresh(CLOSES)}
    assert outcomes["TWSE"].outcome == "failed" and "over the cap of 2048" in outcomes["TWSE"].message
    assert outcomes["TPEx"].outcome == "imported"


def test_download_client_bounds():
    with respx.mock as router:
        router.get("https://publisher.test/loop").mock(
            return_value=httpx.Response(302, headers={"Location": "https://publisher.test/loop"})
        )
        with Fetcher(Bounds(retries=0)) as fetcher:
            with pytest.raises(DownloadError, match="more than 5 redirects"):
                fetcher.get("https://publisher.test/loop")
            with pytest.raises(DownloadError, match="only http and https"):
                fetcher.get("file:///etc/passwd")


# ---------------------------------------------------------------- older files


def test_an_older_file_never_replaces_a_newer_import(store, capsys):
    """The bank's 16:00 board is imported; a refresh that gets the 09:00 board, and an ingest of it,
    leave the 16:00 board in place."""
    older_name = "ExchangeRate@202611220900.csv"
    with respx.mock as router:
        router.get(BOARD_CSV).mock(
            return_value=httpx.Response(
                200,
                content=FX_FILE.read_bytes(),
                headers={"Content-Disposition": f"attachment; filename={FX_FILE.name}"},
            )
        )
        assert [o.outcome for o in refresher().refresh(FX)] == ["imported"]
    older = FX_FILE.read_bytes()  # the same rates, under the earlier posting time the bank names it with
    with respx.mock as router:
        router.get(BOARD_CSV).mock(
            return_value=httpx.Response(
                200, content=older, headers={"Content-Disposition": f'attachment; filename="{older_name}"'}
            )
        )
        (outcome,) = refresher().refresh(FX)
    assert (
        outcome.outcome == "older" and "2026-11-22 09:00" in outcome.message and "2026-11-22 16:00" in outcome.message
    )
    state = part("trip.fx", "board")
    assert state.data_label == "2026-11-22 16:00" and state.last_outcome == "older" and state.last_error is None
    with store_engine.session() as session:
        posted = session.scalar(select(func.max(FxRateRecord.posted_at)))
    assert posted == datetime(2026, 11, 22, 16, 0)


def test_ingest_refuses_an_older_file_and_allow_older_adds_history(store, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", store)
    get_settings.cache_clear()
    try:
        assert main(["ingest", "stocks.closes", str(TWSE)]) == 0  # trading day 2026-11-23
        older = tmp_path / "twse-older.json"
        older.write_bytes(TWSE.read_bytes().replace(b'"1151123"', b'"1151120"'))
        assert main(["ingest", "stocks.closes", str(older)]) == 1
        err = capsys.readouterr().err
        assert "older than the store's last import (2026-11-23)" in err and "--allow-older" in err
        # closes carry their own dates: the older day may be added as history, the newer day stays
        assert main(["ingest", "stocks.closes", str(older), "--allow-older"]) == 0
        assert closes_of("2382") == [("2026-11-20", 259.5, False), ("2026-11-23", 259.5, False)]
        assert part("stocks.closes", "TWSE").data_label == "2026-11-23"  # the newest stays the mark
        # a feed replaced by each file has no history to add
        assert main(["ingest", "trip.fx", str(FX_FILE), "--allow-older"]) == 2
    finally:
        get_settings.cache_clear()


# ---------------------------------------------------------------- one process per feed


@pytest.fixture(params=["sqlite", "postgresql"])
def race_store(request, store):
    """The store two processes share: the test's SQLite copy, or a PostgreSQL database of this
    test's own (when TWLOOKUP_TEST_DATABASE_URL names a server)."""
    if request.param == "sqlite":
        yield store
        return
    import os

    from sqlalchemy import create_engine, text

    from tests.conftest import DATA, postgres_url
    from twlookup.cli import ensure_ready

    base = postgres_url()
    if not base:
        pytest.skip("TWLOOKUP_TEST_DATABASE_URL is not set")
    name = f"twlookup_feeds_{os.getpid()}"
    admin = create_engine(base.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'drop database if exists "{name}" with (force)'))
        conn.execute(text(f'create database "{name}"'))
    url = base.rsplit("/", 1)[0] + "/" + name
    try:
        ensure_ready(url, DATA)
        store_engine.configure(url)
        yield url
    finally:
        store_engine.configure(store)
        with admin.connect() as conn:
            conn.execute(text(f'drop database if exists "{name}" with (force)'))
        admin.dispose()


def test_two_processes_racing_for_a_feed(race_store):
    """Two refreshers with engines of their own start together: one refreshes, the other skips."""
    from twlookup.platform.store.engine import make_engine

    engines = [make_engine(race_store), make_engine(race_store)]
    gate = threading.Barrier(2)
    results: dict[int, list] = {}
    downloading = threading.Event()
    release = threading.Event()

    def slow_twse(_request: httpx.Request) -> httpx.Response:
        downloading.set()
        release.wait(10)  # hold the lock while the other one tries
        return httpx.Response(200, content=TWSE.read_bytes())

    def run(i: int) -> None:
        gate.wait()
        results[i] = refresher(Store(engines[i])).refresh(CLOSES)
        if results[i][0].outcome == "busy":
            release.set()

    with respx.mock as router:
        twse = router.get(TWSE_URL).mock(side_effect=slow_twse)
        router.get(TPEX_URL).mock(return_value=httpx.Response(200, content=TPEX.read_bytes()))
        threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
    outcomes = sorted(o.outcome for r in results.values() for o in r)
    assert outcomes == ["busy", "imported", "imported"]  # one skipped; the other imported both files
    assert twse.call_count == 1
    busy = next(r[0] for r in results.values() if r[0].outcome == "busy")
    assert "stocks.closes is being refreshed by" in busy.message
    for engine in engines:
        engine.dispose()


def test_lock_is_given_back_and_expires(store):
    s = Store()
    with (
        feed_lock(s, "stocks.closes", timedelta(minutes=5), owner="a"),
        pytest.raises(RuntimeError, match="being refreshed by a"),
        feed_lock(s, "stocks.closes", timedelta(minutes=5), owner="b"),
    ):
        pass
    with feed_lock(s, "stocks.closes", timedelta(minutes=5), owner="b"):  # given back after the block
        pass
    # a holder that died: its lease runs out and another process takes the feed over
    from twlookup.platform.feeds.run import acquire

    assert acquire(s, "trip.fx", timedelta(seconds=-1), "dead")
    assert acquire(s, "trip.fx", timedelta(minutes=5), "alive")


def test_ingest_waits_for_no_one_but_refuses_while_a_refresh_holds_the_feed(store, monkeypatch, capsys):
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", store)
    get_settings.cache_clear()
    try:
        with feed_lock(Store(), "stocks.closes", timedelta(minutes=5), owner="scheduler-1"):
            assert main(["ingest", "stocks.closes", str(TWSE)]) == 1
        assert "being refreshed by scheduler-1" in capsys.readouterr().err
    finally:
        get_settings.cache_clear()


# ---------------------------------------------------------------- the schedule


class FakeClock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def test_scheduler_with_a_fake_clock(store):
    clock = FakeClock(datetime(2026, 11, 24, 1, 0, tzinfo=UTC))
    calls: list[str] = []

    def twse(request: httpx.Request) -> httpx.Response:
        calls.append(f"twse@{clock.now:%H:%M}")
        return httpx.Response(200, content=TWSE.read_bytes())

    def fx(request: httpx.Request) -> httpx.Response:
        calls.append(f"fx@{clock.now:%H:%M}")
        return httpx.Response(503)

    r = refresher(retries=0, clock=clock)
    scheduler = Scheduler(
        feeds=[CLOSES, FX],
        refresher=r,
        every={"stocks.closes": timedelta(hours=1)},
        retry_failed=timedelta(minutes=15),
        poll=60.0,
        clock=clock,
    )
    waits: list[float] = []

    def wait(seconds: float) -> bool:  # advances the fake clock instead of sleeping
        waits.append(seconds)
        clock.advance(seconds)
        return clock.now >= datetime(2026, 11, 24, 3, 1, tzinfo=UTC)

    with respx.mock as router:
        router.get(TWSE_URL).mock(side_effect=twse)
        router.get(TPEX_URL).mock(return_value=httpx.Response(200, content=TPEX.read_bytes()))
        router.get(BOARD_CSV).mock(side_effect=fx)
        assert {f.full_name for f in scheduler.due()} == {"stocks.closes", "trip.fx"}  # never tried: due now
        scheduler.run(wait)
    # closes every hour (its cadence); the failing fx board every 15 minutes (the retry delay, sooner
    # than its hourly cadence)
    assert [c for c in calls if c.startswith("twse")] == ["twse@01:00", "twse@02:00", "twse@03:00"]
    assert [c for c in calls if c.startswith("fx")] == [
        f"fx@{h:02d}:{m:02d}" for h in (1, 2) for m in (0, 15, 30, 45)
    ] + ["fx@03:00"]
    assert all(w <= 60.0 for w in waits)  # never sleeps past the poll interval
    assert scheduler.next_due(CLOSES) == datetime(2026, 11, 24, 4, 0, tzinfo=UTC)


def test_scheduler_counts_from_the_last_attempt_in_the_store(store):
    """A restarted scheduler (or a second one) does not refresh a feed before its cadence is up."""
    clock = FakeClock(datetime(2026, 11, 24, 1, 0, tzinfo=UTC))
    with respx.mock as router:
        router.get(TWSE_URL).mock(return_value=httpx.Response(200, content=TWSE.read_bytes()))
        router.get(TPEX_URL).mock(return_value=httpx.Response(200, content=TPEX.read_bytes()))
        refresher(clock=clock).refresh(CLOSES)
    clock.advance(30 * 60)
    other = Scheduler(feeds=[CLOSES], refresher=refresher(clock=clock), clock=clock)
    assert other.due() == [] and other.cadence(CLOSES) == timedelta(hours=1)
    assert other.seconds_to_next() == 60.0  # due in 30 minutes; looks again after the poll interval
    clock.advance(30 * 60)
    assert other.due() == [CLOSES]


def test_scheduler_from_settings_skips_disabled_and_file_feeds():
    from twlookup.settings import Settings

    settings = Settings(feeds_disabled=["creator.companies", "seo"], feeds_every={"trip.fx": 1800}, _env_file=None)
    scheduler = Scheduler.from_settings(settings, FEEDS.values(), refresher())
    names = {f.full_name for f in scheduler.feeds}
    assert "creator.companies" not in names and "seo.ipranges" not in names and "food.pbf" not in names
    assert "life.invoice" in names and "food.overpass" in names and scheduler.cadence(FX) == timedelta(minutes=30)


def test_refresh_cli_names_and_errors(monkeypatch, capsys, store):
    assert main(["refresh", "--list"]) == 0
    listing = capsys.readouterr().out
    assert "https://invoice.etax.nat.gov.tw/invoice.xml" in listing and "file feed (ingest only)" in listing
    with pytest.raises(SystemExit, match=r"unknown feed 'life\.weather'"):
        main(["refresh", "life.weather"])
    with pytest.raises(SystemExit, match=r"food\.pbf has no official URL"):
        main(["refresh", "food.pbf"])
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", store)
    monkeypatch.setenv("TWLOOKUP_FEEDS_RETRIES", "0")
    get_settings.cache_clear()
    try:
        with respx.mock as router:
            router.get(BOARD_CSV).mock(return_value=httpx.Response(500))
            assert main(["refresh", "trip"]) == 1  # a service name refreshes all its feeds
        assert "trip.fx [board]: failed: rate.bot.com.tw: HTTP 500" in capsys.readouterr().err
    finally:
        get_settings.cache_clear()


def test_bad_feed_settings_are_refused():
    from pydantic import ValidationError

    from twlookup.settings import Settings

    with pytest.raises(ValidationError, match="feeds_every"):
        Settings(feeds_every={"trip.fx": 5}, _env_file=None)
    with pytest.raises(ValidationError, match="feeds_max_bytes"):
        Settings(feeds_max_bytes=10, _env_file=None)


async def test_stale_answers_keep_saying_so_after_a_refresh(store, monkeypatch):
    """A refresh that brings only an old period does not make the answers look current: life's own
    notes still say the store is behind, and the status says the feed is stale; draws within a
    week are current on both."""
    from datetime import date

    from twlookup.app import create_app
    from twlookup.services.life.operations import invoice, lottery
    from twlookup.settings import Settings

    today = date(2026, 11, 24)
    for life in (invoice, lottery):
        monkeypatch.setattr(life, "today_taipei", lambda: today)
    monkeypatch.setattr("twlookup.platform.feeds.status.today_taipei", lambda: today)
    with respx.mock as router:
        mock_publishers(router)
        outcomes = refresher().refresh_many([FEEDS["life.invoice"], FEEDS["life.lottery"]])
    assert {o.outcome for o in outcomes} == {"imported"}
    app = create_app(Settings(database_url=store, rate_limit_default="100000/minute", _env_file=None))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        latest = (await c.get("/life/api/invoice/latest")).json()
        assert latest["period"] == "115-01-02" and "Not the newest draw: period 115-07-08" in latest["note"]
        status = {f["feed"]: f for f in (await c.get("/life/api/status")).json()["feeds"]}
        assert status["life.invoice"]["stale"] is True and status["life.invoice"]["data_date"] == "2026-03-25"
        assert status["life.invoice"]["last_error"] is None and status["life.invoice"]["failing"] is False
        draws = (await c.get("/life/api/lottery/latest")).json()
        assert draws["stale_note"] is None  # every game drew within the week before the 24th
        assert status["life.lottery"]["stale"] is False and status["life.lottery"]["data_date"] == "2026-11-19"


def test_library_refresh_keeps_what_the_registry_document_lacks(store):
    """npm's version document has no tarball size or publish date: a version already held keeps them."""
    from twlookup.services.motion.data import CATALOGUE

    with respx.mock as router:
        mock_publishers(router)
        assert [o.outcome for o in refresher().refresh(FEEDS["motion.libraries"])] == ["imported"]
    libraries = {lib.name: lib for lib in CATALOGUE.get().libraries}
    motion = libraries["motion"]  # the registry document serves the version data/motion/libraries.yaml holds
    assert motion.version == "14.14.0" and motion.tarball_bytes == 261267 and str(motion.released) == "2026-11-13"
    assert motion.unpacked_bytes == 1017611 and motion.sample is False
    assert "Web Animations API (built into browsers)" in libraries  # not an npm package: kept as it was


def test_a_download_is_named_by_the_part_unless_the_publisher_name_is_wanted(store):
    """An operator's server naming its range file otherwise does not change which file it replaces;
    the bank's name is kept, since it carries the posting time."""
    with respx.mock as router:
        routes = mock_publishers(router)
        routes["seo.oai-searchbot"].mock(
            return_value=httpx.Response(
                200,
                json={"creationTime": "2026-11-23T00:00:00", "prefixes": [{"ipv4Prefix": "192.0.2.0/24"}]},
                headers={"Content-Disposition": "attachment; filename=searchbot.json"},
            )
        )
        outcomes = {o.part: o.outcome for o in refresher().refresh(FEEDS["seo.ipranges"])}
        assert outcomes["oai-searchbot"] == "imported"
        router.get(BOARD_CSV).mock(return_value=httpx.Response(200, content=FX_FILE.read_bytes()))
        (fx,) = refresher().refresh(FX)  # no Content-Disposition: the posting time is unknown
    assert fx.outcome == "failed" and "the posting time is unknown" in fx.message


def test_a_feed_whose_files_cannot_be_listed_fails_until_they_can(store):
    from dataclasses import replace

    from twlookup.platform.feeds.status import service_status

    def unlisted(_ctx):
        raise RuntimeError("store read failed")

    (outcome,) = refresher().refresh(replace(CLOSES, parts=unlisted))
    assert outcome.outcome == "failed" and "could not list the files to fetch" in outcome.message
    assert service_status("stocks", [CLOSES]).feeds[0].failing is True
    with respx.mock as router:
        router.get(TWSE_URL).mock(return_value=httpx.Response(200, content=TWSE.read_bytes()))
        router.get(TPEX_URL).mock(return_value=httpx.Response(200, content=TPEX.read_bytes()))
        assert {o.outcome for o in refresher().refresh(CLOSES)} == {"imported"}
    status = service_status("stocks", [CLOSES]).feeds[0]
    assert status.failing is False and "store read failed" in status.last_error  # the error is kept, not current


def test_scheduler_command_once(store, monkeypatch, capsys):
    """`twlookup scheduler --once` refreshes what is due and exits; right after, nothing is due."""
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", store)
    monkeypatch.setenv("TWLOOKUP_FEEDS_DISABLED", '["life", "seo", "creator", "motion", "cardgame", "price", "stocks"]')
    get_settings.cache_clear()
    try:
        with respx.mock as router:
            mock_publishers(router)
            assert main(["scheduler", "--once"]) == 0
            assert "trip.fx [board]: imported" in capsys.readouterr().out
            assert main(["scheduler", "--once"]) == 0
            assert "no feed is due" in capsys.readouterr().out
    finally:
        get_settings.cache_clear()


def test_scheduler_thread_stops_when_asked(store):
    """`serve --refresh` runs the schedule in a thread of the serving process, stopped by an event."""
    from twlookup.cli import build_parser
    from twlookup.platform.feeds.schedule import start_thread

    assert build_parser().parse_args(["serve", "--refresh"]).refresh is True
    looked = threading.Event()

    class Once(Scheduler):
        def run_pending(self):
            looked.set()
            return []

    thread, stop = start_thread(Once(feeds=[], refresher=refresher(), poll=3600))
    assert looked.wait(5)
    stop.set()
    thread.join(5)
    assert not thread.is_alive()


def test_a_store_that_does_not_answer_fails_the_refresh_without_fetching(tmp_path):
    from sqlalchemy import create_engine

    engine = create_engine(f"sqlite:///{tmp_path}/not-migrated.db")  # no feed tables: every query fails
    with respx.mock as router:
        twse = router.get(TWSE_URL).mock(return_value=httpx.Response(200, content=TWSE.read_bytes()))
        (outcome,) = refresher(Store(engine)).refresh(CLOSES)
    assert outcome.outcome == "failed" and "the store did not answer" in outcome.message and twse.call_count == 0
    engine.dispose()


def test_the_index_status_keeps_its_last_view_only_while_the_store_is_away(monkeypatch, caplog):
    """A store that cannot be read leaves the last view shown (and says so in the log); any other
    error is a bug and is not hidden."""
    from sqlalchemy.exc import OperationalError

    from twlookup.platform.feeds import status

    cache = status.StatusCache(seconds=0)
    cache._value = {"x": "the last view"}  # type: ignore[dict-item]  # a stand-in for a FeedsStatus

    def away(*_args, **_kwargs):
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    monkeypatch.setattr(status, "service_status", away)
    with caplog.at_level("WARNING", logger="twlookup.feeds"):
        assert cache.get({"x": [object()]}) == {"x": "the last view"}  # type: ignore[list-item]
    assert "OperationalError" in caplog.text

    def bug(*_args, **_kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(status, "service_status", bug)
    with pytest.raises(KeyError):
        cache.get({"x": [object()]})  # type: ignore[list-item]
