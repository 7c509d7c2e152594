"""The HTTP server's bounds against a real `twlookup serve` process, over raw sockets: oversized
request lines and heads, bytes that are not HTTP, slow heads and bodies, a body shorter than its
Content-Length, a Content-Length past the body limit, and more connections than the cap. Each is
refused with an RFC 9457 problem and the connection closed, and the process keeps answering.

Every socket read has a timeout, so a server that holds a connection fails the test instead of
hanging it; the timeouts bound the test, they are not speed assertions."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time

import pytest
from live_server import serve, server_env

pytestmark = pytest.mark.slow
WAIT = 20  # seconds a socket read may block before the test gives up on the server


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    env = server_env(db_url, TWLOOKUP_HEADER_TIMEOUT_SECONDS="1", TWLOOKUP_BODY_TIMEOUT_SECONDS="1")
    with serve(env, tmp_path_factory.mktemp("bounds"), "--no-access-log") as s:
        yield s


def connect(server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)


def send(sock: socket.socket, data: bytes) -> None:
    # the server may answer and close before taking all of it: the answer is read below
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        sock.sendall(data)


def answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read until the server closes the connection: status, headers, body."""
    chunks = []
    while True:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            pytest.fail(f"the server held the connection for {WAIT} s; read so far: {b''.join(chunks)[:200]!r}")
        if not chunk:
            break
        chunks.append(chunk)
    sock.close()
    raw = b"".join(chunks)
    assert raw, "the server closed the connection without an answer"
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def problem(sock: socket.socket, status: int) -> dict:
    got, headers, body = answer(sock)
    assert got == status, (got, body[:300])
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    doc = json.loads(body)
    assert doc["status"] == status and doc["detail"], doc
    return doc


def request(path: str = "/healthz", headers: bytes = b"", method: bytes = b"GET") -> bytes:
    return method + b" " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + b"\r\n"


@pytest.mark.parametrize("size", [70_000, 1_000_000])
def test_an_oversized_head_is_431(server, size):
    sock = connect(server)
    send(sock, request(headers=b"X-Big: " + b"a" * size + b"\r\n"))
    doc = problem(sock, 431)
    assert doc["detail"] == "The request line and headers are larger than the 65536 bytes this server accepts."
    assert server.alive()


def test_many_headers_adding_up_past_the_limit_are_431(server):
    sock = connect(server)
    send(sock, request(headers=b"".join(b"X-H%d: %s\r\n" % (n, b"v" * 1000) for n in range(80))))
    problem(sock, 431)


def test_a_head_under_the_limit_is_served(server):
    sock = connect(server)
    send(sock, request(headers=b"X-Big: " + b"a" * 20_000 + b"\r\nConnection: close\r\n"))
    status, _headers, _body = answer(sock)
    assert status == 200


def test_a_100_kb_path_is_414(server):
    sock = connect(server)
    send(sock, request(path="/" + "a" * 100_000))
    doc = problem(sock, 414)
    assert doc["detail"] == "The request target is longer than the 65536 bytes this server accepts."


@pytest.mark.parametrize(
    "raw",
    [b"\xff\xff\xff\xff\r\n\r\n", b"GET /\xff HTTP/1.1\r\nHost: x\r\n\r\n", b"GET / HTTP/1.1\r\nBad\xff: x\r\n\r\n"],
    ids=["0xFF bytes", "0xFF in the path", "0xFF in a header name"],
)
def test_bytes_that_are_not_http_are_a_400_problem(server, raw):
    sock = connect(server)
    send(sock, raw)
    doc = problem(sock, 400)
    assert doc["detail"].startswith("The request is not valid HTTP/1.1 (")


def test_a_slow_head_is_408(server):
    sock = connect(server)
    send(sock, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    deadline = time.monotonic() + WAIT
    try:  # one header line every 0.2 s, never the blank line that ends the head
        while time.monotonic() < deadline:
            sock.sendall(b"X-Drip: 1\r\n")
            time.sleep(0.2)
    except (BrokenPipeError, ConnectionResetError):
        pass
    doc = problem(sock, 408)
    assert doc["detail"] == "The request line and headers did not arrive within 1 s."


def test_a_connection_that_sends_nothing_is_closed(server):
    sock = connect(server)
    problem(sock, 408)


def test_many_dripping_clients_are_all_let_go(server):
    socks = [connect(server) for _ in range(200)]
    for sock in socks:
        send(sock, b"GET /healthz HTTP/1.1\r\n")
    for sock in socks:
        problem(sock, 408)
    assert server.alive()


def test_a_body_shorter_than_its_length_is_408(server):
    sock = connect(server)
    body = b'{"text": "short"}'
    head = request(
        "/opinions/api/ai-check",
        b"Content-Type: application/json\r\nContent-Length: %d\r\n" % (len(body) + 100),
        method=b"POST",
    )
    send(sock, head + body)
    doc = problem(sock, 408)
    assert doc["detail"] == "The request body did not arrive within 1 s of its headers."


def test_a_dripping_body_is_408(server):
    sock = connect(server)
    send(
        sock,
        request(
            "/opinions/api/ai-check",
            b"Content-Type: application/json\r\nContent-Length: 900000\r\n",
            method=b"POST",
        ),
    )
    stop = threading.Event()

    def drip() -> None:
        try:
            while not stop.is_set():
                sock.sendall(b" " * 10)
                time.sleep(0.1)
        except OSError:
            pass

    thread = threading.Thread(target=drip, daemon=True)
    thread.start()
    try:
        problem(sock, 408)
    finally:
        stop.set()
        thread.join(timeout=5)


def test_a_promised_5_mb_body_is_413_before_it_is_read(server):
    sock = connect(server)
    send(
        sock,
        request(
            "/opinions/api/ai-check", b"Content-Type: application/json\r\nContent-Length: 5000000\r\n", method=b"POST"
        ),
    )
    doc = problem(sock, 413)
    assert doc["detail"] == "The request body is larger than the 1048576 bytes this server accepts."


def test_after_all_of_it_the_server_answers(server):
    assert server.alive(), server.output()[-2000:]


@pytest.fixture(scope="module")
def capped(db_url, tmp_path_factory):
    env = server_env(db_url, TWLOOKUP_MAX_CONNECTIONS="5", TWLOOKUP_HEADER_TIMEOUT_SECONDS="60")
    with serve(env, tmp_path_factory.mktemp("capped"), "--no-access-log") as s:
        yield s


def test_past_the_connection_cap_a_request_is_503(capped):
    held = [connect(capped) for _ in range(5)]  # open, no request yet: they count
    try:
        sock = connect(capped)
        send(sock, request())
        doc = problem(sock, 503)
        assert doc["detail"] == "This server holds 5 connections at most and is at its limit; try again shortly."
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + WAIT
    while True:  # the held sockets closed, it serves again
        sock = connect(capped)
        send(sock, request(headers=b"Connection: close\r\n"))
        status, headers, _ = answer(sock)
        if status == 200:
            break
        assert status == 503 and headers["retry-after"] == "1"
        assert time.monotonic() < deadline, "still at the cap after the held connections closed"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def idle(db_url, tmp_path_factory):
    env = server_env(db_url, TWLOOKUP_KEEP_ALIVE_SECONDS="1")
    with serve(env, tmp_path_factory.mktemp("idle"), "--no-access-log") as s:
        yield s


def one_answer(sock: socket.socket) -> int:
    """Read one answer (its Content-Length) from a connection kept open; its status."""
    raw = b""
    while b"\r\n\r\n" not in raw:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection before answering"
        raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return int(head.split()[1])


def closed_after(sock: socket.socket) -> float:
    """Seconds until the server closes the connection (nothing else may arrive)."""
    began = time.monotonic()
    assert sock.recv(1) == b"", "the server sent more than its answer"
    return time.monotonic() - began


def test_an_idle_keep_alive_connection_is_closed_after_its_time(idle):
    sock = connect(idle)
    send(sock, request())
    assert one_answer(sock) == 200
    waited = closed_after(sock)
    assert 0.8 <= waited < WAIT, waited  # TWLOOKUP_KEEP_ALIVE_SECONDS=1 from the answer


def test_a_connection_in_use_is_kept_past_the_keep_alive_time(idle):
    """Requests 0.4 s apart for 2.4 s on one connection (more than twice the 1 s an idle one is
    kept): each is answered on it; then, idle, it is closed a second after the last answer."""
    sock = connect(idle)
    for _ in range(7):
        send(sock, request())
        assert one_answer(sock) == 200
        time.sleep(0.4)
    waited = closed_after(sock)
    assert 0.4 <= waited < WAIT, waited  # 0.4 s of the second had passed in the sleep
