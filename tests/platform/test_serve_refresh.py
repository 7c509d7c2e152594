"""`twlookup serve` keeps a one-process install current by itself: with one worker it runs the feed
schedule in a background thread by default; --no-refresh or TWLOOKUP_REFRESH=off turns it off; with
more workers the default is off and a log line points at `twlookup scheduler`. Nothing on the way to
serving waits on the network, and one warning line names the feeds that could not be reached.
No test here reaches the network: the feeds are served by a local listener or point at a closed
local port, and the server itself (uvicorn) is replaced by a recorder."""

from __future__ import annotations

import http.server
import logging
import socket
import threading
from datetime import timedelta

import pytest

from twlookup import cli, startup
from twlookup.platform.feeds import Feed, Part, static_parts
from twlookup.platform.feeds.run import Store, states
from twlookup.platform.feeds.schedule import Scheduler, start_thread, unreachable
from twlookup.platform.store import engine as store_engine
from twlookup.settings import Settings, get_settings
from twlookup.startup import resume_gc


@pytest.mark.parametrize(
    ("flag", "setting", "workers", "on", "words"),
    [
        (None, None, 1, True, "the default with one worker; --no-refresh or TWLOOKUP_REFRESH=off turns it off"),
        (None, None, 2, False, "run `twlookup scheduler` beside it"),
        (False, None, 1, False, "(--no-refresh)"),
        (None, False, 1, False, "(TWLOOKUP_REFRESH=off)"),
        (True, None, 4, True, "(--refresh)"),  # one process of several may run the schedule on purpose
        (None, True, 3, True, "(TWLOOKUP_REFRESH=on)"),
        (False, True, 1, False, "(--no-refresh)"),  # the flag wins over the setting
    ],
)
def test_refresh_choice(flag, setting, workers, on, words):
    chosen, line = cli.refresh_choice(flag, setting, workers)
    assert chosen is on and words in line


@pytest.fixture
def serve(monkeypatch, tmp_path):
    """`twlookup serve` with everything after the decision recorded instead of done: no store
    wait, no migration, no server, no thread; returns (started, uvicorn kwargs)."""
    from twlookup.platform.store import ready

    monkeypatch.setattr(startup, "_serving", False)  # put back after: resume_gc below marks the process as serving
    monkeypatch.delenv("TWLOOKUP_REFRESH", raising=False)  # tests/conftest.py sets it off for every process
    monkeypatch.delenv("TWLOOKUP_WORKERS", raising=False)
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", f"sqlite:///{tmp_path}/unused.db")
    get_settings.cache_clear()
    started: list[Settings] = []
    served: list[dict] = []
    monkeypatch.setattr(ready, "wait_for_store", lambda *a, **k: None)
    monkeypatch.setattr(cli, "ensure_ready", lambda *a, **k: None)
    monkeypatch.setattr(cli, "start_refresh", lambda settings, **k: started.append(settings))
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: served.append(k))
    yield started, served
    resume_gc()  # serve paused the collector for create_app, which the recorder never ran
    get_settings.cache_clear()


def test_serve_refreshes_by_default_with_one_worker(serve, capsys):
    started, served = serve
    assert cli.main(["serve"]) == 0
    assert len(started) == 1 and len(served) == 1 and served[0]["workers"] == 1
    assert "refreshing the live feeds in the background" in capsys.readouterr().err


def test_no_refresh_and_the_setting_turn_it_off(serve, capsys, monkeypatch):
    started, served = serve
    assert cli.main(["serve", "--no-refresh"]) == 0
    assert started == [] and len(served) == 1
    assert "not refreshed by this server (--no-refresh)" in capsys.readouterr().err
    monkeypatch.setenv("TWLOOKUP_REFRESH", "off")
    get_settings.cache_clear()
    assert cli.main(["serve"]) == 0
    assert started == [] and len(served) == 2
    assert "(TWLOOKUP_REFRESH=off)" in capsys.readouterr().err


def test_several_workers_do_not_refresh_unless_asked(serve, capsys):
    started, served = serve
    assert cli.main(["serve", "--workers", "3"]) == 0
    assert started == [] and served[0]["workers"] == 3
    assert "run `twlookup scheduler` beside it" in capsys.readouterr().err
    assert cli.main(["serve", "--workers", "3", "--refresh"]) == 0
    assert len(started) == 1


def test_the_first_pass_waits_for_the_app_to_be_built():
    built, looked = threading.Event(), threading.Event()

    def factory() -> Scheduler:
        looked.set()
        raise RuntimeError("stop here")

    thread, stop = start_thread(factory, after=built)
    assert not looked.wait(1.5)  # not before the app is built (waited on in 1 s steps)
    built.set()
    assert looked.wait(10)
    stop.set()
    thread.join(10)
    assert not thread.is_alive()


def test_start_up_does_not_wait_for_the_scheduler():
    """The scheduler is built and run in its thread: a first pass that hangs (a publisher that never
    answers) leaves the caller free; the thread stops when asked."""
    entered, release = threading.Event(), threading.Event()

    def slow() -> Scheduler:
        entered.set()
        release.wait(30)
        raise RuntimeError("never built")

    thread, stop = start_thread(slow)  # returns while `slow` still blocks
    assert entered.wait(10) and thread.is_alive()
    release.set()
    stop.set()
    thread.join(10)
    assert not thread.is_alive()


class _Publisher(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"fresh data\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args) -> None:
        pass


def _closed_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now: a connection is refused at once
    return port


def _feed(name: str, url: str, imported: list[str]) -> Feed:
    def importer(_session, path) -> int:
        imported.append(path.read_text())
        return 1

    return Feed(
        service="local",
        name=name,
        title=name,
        publisher="a local listener",
        format="text",
        licence="test",
        page=url,
        changes="never",
        importer=importer,
        parts=static_parts(Part("file", url, f"{name}.txt")),
        every=timedelta(hours=1),
    )


def test_serve_refresh_thread_imports_due_feeds_and_names_the_unreachable(fresh_store, monkeypatch, caplog, settings):
    """The thread `serve` starts (cli.start_refresh, with no delay) refreshes what is due from a
    local publisher, and ends the pass with one warning naming the feed it could not reach."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Publisher)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    imported: list[str] = []
    good = _feed("good", f"http://127.0.0.1:{server.server_port}/data.txt", imported)
    away = _feed("away", f"http://127.0.0.1:{_closed_port()}/data.txt", imported)
    monkeypatch.setattr(cli, "_feeds", lambda: {f.full_name: f for f in (good, away)})
    store_engine.configure(fresh_store)
    passes: list[list] = []
    original = Scheduler.run_pending
    monkeypatch.setattr(Scheduler, "run_pending", lambda self: passes.append(original(self)) or passes[-1])
    feeds_log = logging.getLogger("twlookup.feeds")
    saved = feeds_log.handlers[:], feeds_log.level
    try:
        with caplog.at_level(logging.WARNING, logger="twlookup.feeds"):
            quick = settings.model_copy(update={"feeds_retries": 0})
            thread, stop = cli.start_refresh(quick, delay=0, wait_for_app=False)
            for _ in range(200):  # until the first pass is over (bounded; no timing is asserted)
                if passes:
                    break
                threading.Event().wait(0.05)
            stop.set()
            thread.join(10)
        assert passes, "the first pass did not finish"
        assert imported == ["fresh data\n"]
        rows = {r.feed: r.last_outcome for r in states(Store())}
        assert rows["local.good"] == "imported" and rows["local.away"] == "failed"
        lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(lines) == 1, lines
        assert "1 of 2 feeds due could not be refreshed" in lines[0] and "local.away (" in lines[0]
        assert "tried again in 15 min" in lines[0]  # TWLOOKUP_FEEDS_RETRY_FAILED_SECONDS, 900 by default
        assert "local.good" not in lines[0]
    finally:
        feeds_log.handlers[:] = saved[0]  # start_refresh gave the logger a handler and a level: give them back
        feeds_log.setLevel(saved[1])
        server.shutdown()
        store_engine.configure(settings.database_url)


def test_unreachable_names_each_failed_feed_once():
    from twlookup.platform.feeds.run import Outcome

    outcomes = [
        Outcome("a.x", "p1", "failed", "cannot connect: refused\nmore"),
        Outcome("a.x", "p2", "failed", "timeout"),
        Outcome("b.y", "p", "imported", "3 rows"),
    ]
    assert unreachable(outcomes) == {"a.x": "cannot connect: refused"}
