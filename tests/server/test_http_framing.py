"""How answers are framed on the wire, against a real `twlookup serve` process over raw sockets:
each answer one write of head and body (platform/server_protocol.py, `Cycle`) with uvicorn's
framing kept: HEAD gets the length GET would have and no body, pipelined requests are answered in
order on one connection, HTTP/1.0 is answered and closed, a 100 Continue goes out before the
answer, a file goes out whole in several pieces, a percent-encoded path is decoded once, and the
access log records each request.

Every socket read has a timeout, so a server that holds a connection fails the test instead of
hanging it; the timeouts bound the test, they are not speed assertions."""

from __future__ import annotations

import json
import socket
from importlib.resources import files

import pytest
from live_server import serve, server_env

pytestmark = pytest.mark.slow
WAIT = 20
LOOKUP = "/models/api/model?id=gpt-4-0613"


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    with serve(server_env(db_url), tmp_path_factory.mktemp("framing")) as s:  # access log on
        yield s


class Connection:
    """One client connection that reads answers one at a time, by their framing."""

    def __init__(self, server) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        self.buffer = b""

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def _more(self) -> bytes:
        chunk = self.sock.recv(65536)
        self.buffer += chunk
        return chunk

    def answer(self, method: str = "GET") -> tuple[int, dict[str, str], bytes, list[str]]:
        """Status, headers (lower-cased names), body and the header names in order, as sent."""
        while b"\r\n\r\n" not in self.buffer:
            assert self._more(), f"the connection closed mid-head: {self.buffer[:200]!r}"
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        names = [line.split(":", 1)[0].lower() for line in lines[1:]]
        headers = {name: line.split(": ", 1)[1] for name, line in zip(names, lines[1:], strict=True)}
        status = int(lines[0].split()[1])
        length = 0 if method == "HEAD" or status in (100, 204, 304) else int(headers["content-length"])
        while len(self.buffer) < length:
            assert self._more(), "the connection closed mid-body"
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, headers, body, names

    def closed(self) -> bool:
        return not self.buffer and self.sock.recv(1) == b""


def get(path: str, method: str = "GET", extra: bytes = b"") -> bytes:
    return f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode() + extra + b"\r\n"


def test_get_head_and_pipelined_requests_on_one_connection(server):
    conn = Connection(server)
    conn.send(get(LOOKUP))
    status, headers, body, names = conn.answer()
    assert status == 200 and json.loads(body)["model"]["id"] == "gpt-4-0613"
    assert headers["content-length"] == str(len(body)) and headers["content-type"] == "application/json"
    assert names.count("date") == 1 and names.count("server") == 1  # the server's own headers, once

    conn.send(get(LOOKUP, "HEAD"))
    status, headers, head_body, _ = conn.answer("HEAD")
    assert status == 200 and head_body == b"" and headers["content-length"] == str(len(body))

    # two requests in one write: two answers, in order, and the connection stays open
    conn.send(get("/models/api/model?id=gpt-4o-2024-05-13") + get(LOOKUP))
    first, second = conn.answer(), conn.answer()
    assert first[0] == second[0] == 200
    assert json.loads(first[2])["model"]["id"] == "gpt-4o-2024-05-13"
    assert second[2] == body
    conn.send(get("/healthz", extra=b"Connection: close\r\n"))
    status, headers, _, _ = conn.answer()
    assert status == 200 and headers["connection"] == "close" and conn.closed()


def test_http_1_0_is_answered_and_the_connection_closed(server):
    conn = Connection(server)
    conn.send(b"GET /healthz HTTP/1.0\r\n\r\n")
    status, headers, body, _ = conn.answer()
    assert status == 200 and json.loads(body)["status"] and headers["connection"] == "close"
    assert conn.closed()


def test_expect_100_continue_is_answered_before_the_body_is_sent(server):
    payload = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": "get_model", "arguments": {"id": "gpt-4-0613"}},
        }
    ).encode()
    conn = Connection(server)
    conn.send(
        b"POST /models/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Expect: 100-continue\r\nContent-Length: " + str(len(payload)).encode() + b"\r\n\r\n"
    )
    status, _, _, _ = conn.answer()
    assert status == 100
    conn.send(payload)
    status, _, body, _ = conn.answer()
    reply = json.loads(body)
    assert status == 200 and reply["id"] == 7 and reply["result"]["isError"] is False


def test_a_file_goes_out_whole_in_pieces(server):
    expected = (files("fastapi_offline") / "static" / "swagger-ui-bundle.js").read_bytes()
    conn = Connection(server)
    conn.send(get("/docs/assets/swagger-ui-bundle.js"))
    status, headers, body, _ = conn.answer()
    assert status == 200 and headers["content-length"] == str(len(expected)) and body == expected
    conn.send(get("/healthz"))  # and the connection goes on
    assert conn.answer()[0] == 200


def test_a_percent_encoded_path_is_decoded_once(server):
    conn = Connection(server)
    conn.send(get(LOOKUP))
    plain = conn.answer()[2]
    conn.send(get(LOOKUP.replace("/model?", "/mode%6C?")))
    status, _, body, _ = conn.answer()
    assert status == 200 and body == plain
    conn.send(get(LOOKUP.replace("/model?", "/mode%256C?")))  # "%6C" after one decoding: no such path
    assert conn.answer()[0] == 404


def test_the_access_log_records_each_request(server):
    conn = Connection(server)
    conn.send(get("/healthz?from=framing-test", "HEAD"))
    assert conn.answer("HEAD")[0] == 200
    conn.send(get("/healthz", extra=b"Connection: close\r\n"))
    conn.answer()
    assert conn.closed()
    assert '"HEAD /healthz?from=framing-test HTTP/1.1" 200' in server.output()
