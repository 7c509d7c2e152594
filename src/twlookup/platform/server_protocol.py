"""The HTTP/1.1 protocol `twlookup serve` runs uvicorn with: uvicorn's httptools protocol with the
bounds it lacks, each refusal an RFC 9457 problem.

uvicorn's own options leave a process open to one client: `h11_max_incomplete_event_size` bounds
the request head only under the h11 parser (httptools, which uvicorn picks when installed,
ignores it), nothing bounds how long a client may take to send its head or its body, and a body
shorter than its Content-Length is waited on forever. Here, per connection:

- the request line past `max_header_bytes` is a 414, the whole head past it a 431, before the
  rest is read;
- the head must arrive within `header_timeout_seconds` of the connection opening or of the
  request's first byte (408), the body within `body_timeout_seconds` of the head (408, or the
  connection closed if the answer has already begun); an idle connection that never sends a
  request is closed after the head bound;
- a Content-Length past `max_body_bytes` is a 413 before any of the body is read;
- past `max_connections` open connections in this process, a request is a 503 with Retry-After
  (uvicorn's `limit_concurrency` answers the same, in plain text);
- a request the parser cannot read (raw 0xFF bytes, a broken request line) is a 400 problem,
  where uvicorn answers plain text.

Each refusal closes the connection (reading and dropping what still arrives for two seconds, so
that the answer is not lost to a reset). A reverse proxy in front should hold the same bounds (see
deploy/nginx.conf and docs/configuration.md, "HTTP server bounds").
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, fields
from typing import Any
from urllib.parse import unquote

import httptools
from uvicorn.protocols.http.flow_control import HIGH_WATER_LIMIT
from uvicorn.protocols.http.httptools_impl import (
    HEADER_RE,
    HEADER_VALUE_RE,
    STATUS_LINE,
    HttpToolsProtocol,
    RequestResponseCycle,
)
from uvicorn.protocols.utils import get_client_addr, get_path_with_query_string

from twlookup.platform.errors import Problem

log = logging.getLogger("twlookup.server")
PROTOCOL = "twlookup.platform.server_protocol:BoundedHttpToolsProtocol"  # uvicorn's `http` option
LINGER_SECONDS = 2.0


@dataclass(frozen=True)
class Bounds:
    max_header_bytes: int
    max_body_bytes: int
    header_timeout_seconds: float
    body_timeout_seconds: float
    max_connections: int | None

    @classmethod
    def from_settings(cls, settings: Any) -> Bounds:
        return cls(**{f.name: getattr(settings, f.name) for f in fields(cls)})  # the settings of the same names


_bounds: Bounds | None = None


def bounds() -> Bounds:
    """This process's bounds, from its settings (read once: uvicorn builds a protocol per connection)."""
    global _bounds
    if _bounds is None:
        from twlookup.settings import get_settings

        _bounds = Bounds.from_settings(get_settings())
    return _bounds


class Deadline:
    """A time limit that costs next to nothing to set and clear, as each request's head and body do:
    one timer per connection, armed when none is, and armed again only when it fires before the
    limit (a new head or body moved it). Clearing leaves the timer to lapse."""

    __slots__ = ("at", "loop", "on_expiry", "seconds", "timer")

    def __init__(self, loop: asyncio.AbstractEventLoop, seconds: float, on_expiry: Any) -> None:
        self.loop = loop
        self.seconds = seconds
        self.on_expiry = on_expiry
        self.at: float | None = None  # when the limit runs out; None: nothing is being waited for
        self.timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """The limit runs from now."""
        self.at = self.loop.time() + self.seconds
        if self.timer is None:
            self.timer = self.loop.call_later(self.seconds, self._fire)

    def clear(self) -> None:
        self.at = None

    def cancel(self) -> None:
        self.at = None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _fire(self) -> None:
        self.timer = None
        if self.at is None:
            return
        left = self.at - self.loop.time()
        if left > 0:
            self.timer = self.loop.call_later(left, self._fire)
            return
        self.at = None
        self.on_expiry()


# the headers uvicorn gives every response (date, server), as one piece: (the list it was made
# from, that piece); None where one of them bears on framing and goes through the general path
_server_headers: tuple[list[tuple[bytes, bytes]] | None, bytes | None] = (None, b"")
FRAMING = frozenset({b"content-length", b"transfer-encoding", b"connection"})


def _check_header(name: bytes, value: bytes) -> None:
    if HEADER_RE.search(name):
        raise RuntimeError("Invalid HTTP header name.")
    if HEADER_VALUE_RE.search(value):
        raise RuntimeError("Invalid HTTP header value.")


def server_headers(headers: list[tuple[bytes, bytes]]) -> bytes | None:
    """`headers`, the server's own, written out: uvicorn makes the list anew each second (the
    date), so it is checked and joined once a second rather than on every response."""
    global _server_headers
    made_from, joined = _server_headers
    if made_from is not headers:
        for name, value in headers:
            _check_header(name, value)
        framing = any(name.lower() in FRAMING for name, _ in headers)
        joined = None if framing else b"".join(b"%s: %s\r\n" % (name.lower(), value) for name, value in headers)
        _server_headers = (headers, joined)
    return joined


class Cycle(RequestResponseCycle):
    """uvicorn's request-response cycle, its answer written in one piece: the status line and
    headers are held and written with the first piece of the body, one write (one system call)
    instead of two, and the server's own headers are joined once a second (`server_headers`).
    Framing is uvicorn's: Content-Length checked against the body, chunked where the app gives
    no length, `connection: close` where the connection ends after the answer, no body for HEAD.
    Anything written before the answer begins (a 100 Continue) goes straight to the transport."""

    head: bytes | None = None  # the status line and headers, until the body's first piece
    handed_out = False  # the body's last piece has been handed to the app

    async def receive(self) -> Any:
        """uvicorn's, with a short way for the usual request body: all of it arrived with the head
        and is handed out at once, without waiting on the message event."""
        if not (
            self.more_body
            or self.handed_out
            or self.waiting_for_100_continue
            or self.disconnected
            or self.response_complete
        ):
            self.handed_out = True
            if self.flow.read_paused:
                self.flow.resume_reading()
            body, self.body = bytes(self.body), bytearray()
            return {"type": "http.request", "body": body, "more_body": False}
        if self.handed_out and not (self.disconnected or self.response_complete):
            # the body was handed out and its arrival left the event set: a receive() after it
            # waits for the client to go away or the answer to end (cleared here, not on the short
            # way above: most apps never call again)
            self.message_event.clear()
        message = await super().receive()
        if message.get("more_body") is False:  # the body's last piece, handed out the long way
            self.handed_out = True
        return message

    async def send(self, message: Any) -> None:
        if self.flow.write_paused and not self.disconnected:
            await self.flow.drain()
        if self.disconnected:
            return
        kind = message["type"]
        if not self.response_started:
            if kind != "http.response.start":
                raise RuntimeError(f"Expected ASGI message 'http.response.start', but got '{kind}'.")
            self.response_started = True
            self.waiting_for_100_continue = False
            self.head = self._head(message["status"], message.get("headers", ()))
        elif self.response_complete:
            raise RuntimeError(f"Unexpected ASGI message '{kind}' sent, after response already completed.")
        elif kind != "http.response.body":
            raise RuntimeError(f"Expected ASGI message 'http.response.body', but got '{kind}'.")
        else:
            self._body(message.get("body", b""), message.get("more_body", False))

    def _head(self, status: int, headers: Any) -> bytes:
        scope = self.scope
        if self.access_log:
            self.access_logger.info(
                '%s - "%s %s HTTP/%s" %d',
                get_client_addr(scope),
                scope["method"],
                get_path_with_query_string(scope),
                scope["http_version"],
                status,
            )
        own = server_headers(self.default_headers)
        parts = [STATUS_LINE[status]]
        if own is None:
            headers = [*self.default_headers, *headers]
        else:
            parts.append(own)
        closing = False
        for name, value in headers:
            _check_header(name, value)
            name = name.lower()
            if name == b"content-length":
                if self.chunked_encoding is None:
                    self.expected_content_length = int(value.decode())
                    self.chunked_encoding = False
            elif name == b"transfer-encoding":
                if value.lower() == b"chunked":
                    self.expected_content_length = 0
                    self.chunked_encoding = True
            elif name == b"connection" and b"close" in (token.strip().lower() for token in value.split(b",")):
                self.keep_alive = False
                closing = True
            parts += (name, b": ", value, b"\r\n")
        if not self.keep_alive and not closing:
            parts.append(b"connection: close\r\n")
        if self.chunked_encoding is None and scope["method"] != "HEAD" and status not in (204, 304):
            self.chunked_encoding = True  # no length given: the body goes in chunks
            parts.append(b"transfer-encoding: chunked\r\n")
        parts.append(b"\r\n")
        return b"".join(parts)

    def _body(self, body: bytes, more: bool) -> None:
        if self.scope["method"] == "HEAD":
            self.expected_content_length = 0
            body = b""
        elif self.chunked_encoding:
            framed = [b"%x\r\n" % len(body), body, b"\r\n"] if body else []
            if not more:
                framed.append(b"0\r\n\r\n")
            body = b"".join(framed)
        else:
            if len(body) > self.expected_content_length:
                raise RuntimeError("Response content longer than Content-Length")
            self.expected_content_length -= len(body)
        head, self.head = self.head, None
        if head is not None:
            self.transport.writelines((head, body))
        elif body:
            self.transport.write(body)
        if not more:
            if self.expected_content_length != 0:
                raise RuntimeError("Response content shorter than Content-Length")
            self.response_complete = True
            self.message_event.set()
            if not self.keep_alive:
                self.transport.close()
            self.on_response()


class _Refused(Exception):
    """Raised from a parser callback to stop reading; the problem is kept on the protocol."""


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bounds = bounds()
        self.limit_concurrency = None  # counted here, answered as a problem
        self.head_bytes = 0
        self.head_limit: Deadline | None = None  # set with the loop, in connection_made
        self.body_limit: Deadline | None = None
        self.body_pending = False  # a request's head is in and its body is not (yet) complete
        self.idle_limit: Deadline | None = None  # keep-alive: idle between an answer and the next request
        self.refusal: Problem | None = None
        self.refused = False  # answered and half-closed: what still arrives is read and dropped

    # connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # asyncio.Protocol says BaseTransport; a stream server hands a Transport (uvicorn's own override says the same)
        super().connection_made(transport)
        self.head_limit = Deadline(self.loop, self.bounds.header_timeout_seconds, self._head_timed_out)
        self.body_limit = Deadline(self.loop, self.bounds.body_timeout_seconds, self._body_timed_out)
        self.idle_limit = Deadline(self.loop, self.timeout_keep_alive, self.timeout_keep_alive_handler)
        self.head_limit.start()  # a connection that never sends a request is not held forever

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        self._unset_keepalive_if_required()
        assert self.head_limit is not None and self.body_limit is not None  # set in connection_made
        if self.body_limit.at is None and self.head_limit.at is None:  # a byte outside a body starts a head
            self.head_limit.start()
        try:
            self.parser.feed_data(data)
            # the body's time limit runs from the end of the data its head came in, when the body
            # did not all come with it (most bodies do: no timer work for them)
            if self.body_pending and self.body_limit.at is None:
                self.body_limit.start()
        except httptools.HttpParserUpgrade:
            self._unsupported_upgrade_warning()  # no websockets here; the app answered the request
        except httptools.HttpParserError as exc:
            problem = self.refusal or Problem(
                400, f"The request is not valid HTTP/1.1 ({_reason(exc)}).", kind="malformed-request"
            )
            self.refuse(problem)

    # parser callbacks

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_bytes = 0

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        self.head_bytes += len(url)
        if len(self.url) > self.bounds.max_header_bytes:
            self._stop(
                Problem(
                    414,
                    f"The request target is longer than the {self.bounds.max_header_bytes} bytes this server accepts.",
                    kind="uri-too-long",
                    title="URI too long",
                )
            )

    def on_header(self, name: bytes, value: bytes) -> None:
        # uvicorn's step (the name in lower case, `Expect: 100-continue` noted), written here: one
        # call per header instead of two
        name = name.lower()
        if name == b"expect" and value.lower() == b"100-continue":
            self.expect_100_continue = True
        self.headers.append((name, value))
        self.head_bytes += len(name) + len(value) + 4  # "name: value\r\n"
        if self.head_bytes > self.bounds.max_header_bytes:
            self._stop(
                Problem(
                    431,
                    f"The request line and headers are larger than the {self.bounds.max_header_bytes} bytes "
                    "this server accepts.",
                    kind="headers-too-large",
                    title="Request header fields too large",
                )
            )

    def on_headers_complete(self) -> None:
        assert self.head_limit is not None and self.body_limit is not None  # set in connection_made
        self.head_limit.clear()
        cap = self.bounds.max_connections
        if cap is not None and (len(self.connections) > cap or len(self.tasks) >= cap):
            self._stop(
                Problem(
                    503,
                    f"This server holds {cap} connections at most and is at its limit; try again shortly.",
                    kind="server-busy",
                    headers={"Retry-After": "1"},
                )
            )
        length = self._content_length()
        if length is not None and length > self.bounds.max_body_bytes:
            self._stop(
                Problem(
                    413, f"The request body is larger than the {self.bounds.max_body_bytes} bytes this server accepts."
                )
            )
        self._begin()
        if length or self._chunked():
            self.body_pending = True

    def _begin(self) -> None:
        """The request's scope completed from its head, and its cycle started (or queued behind
        the one still answering, for a pipelined request). uvicorn's own step, but that the cycle
        is a `Cycle`."""
        parser, scope = self.parser, self.scope
        scope["method"] = parser.get_method().decode("ascii")
        version = parser.get_http_version()
        if version != "1.1":
            scope["http_version"] = version
        if parser.should_upgrade() and self._should_upgrade():
            return  # (no websockets here: `_should_upgrade` is false, the request is answered)
        target = httptools.parse_url(self.url)
        path = target.path.decode("ascii")
        scope["path"] = self.root_path + (unquote(path) if "%" in path else path)
        scope["raw_path"] = self.root_path.encode("ascii") + target.path
        scope["query_string"] = target.query or b""
        waiting = self.cycle is not None and not self.cycle.response_complete
        self.cycle = Cycle(  # (uvicorn's arguments, in its order: positional costs less per request)
            scope,
            self.transport,
            self.flow,
            self.logger,
            self.access_logger,
            self.access_log,
            self.server_state.default_headers,
            asyncio.Event(),
            self.expect_100_continue,
            version != "1.0" and parser.should_keep_alive(),
            self.on_response_complete,
        )
        if waiting:
            self.flow.pause_reading()
            self.pipeline.appendleft((self.cycle, self.app))
        else:
            self._start_asgi_task(self.cycle, self.app)

    # uvicorn's steps for the body, less its check for a WebSocket upgrade (`serve` runs with
    # ws="none": no request is upgraded here, see `_begin`)

    def on_body(self, body: bytes) -> None:
        cycle = self.cycle
        if cycle.response_complete:
            return
        cycle.body += body
        if len(cycle.body) > HIGH_WATER_LIMIT:
            self.flow.pause_reading()
        cycle.message_event.set()

    def on_message_complete(self) -> None:
        self.body_pending = False
        if self.body_limit is not None and self.body_limit.at is not None:
            self.body_limit.clear()
        cycle = self.cycle
        if cycle.response_complete:
            return
        cycle.more_body = False
        cycle.message_event.set()

    # refusals

    def _stop(self, problem: Problem) -> None:
        self.refusal = problem
        raise _Refused

    def refuse(self, problem: Problem) -> None:
        """Answer `problem` and close the connection. A request whose answer has begun can only be
        cut off; one the app is still working on is told the client went away."""
        self._cancel_timers()
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            if cycle.response_started:
                self.transport.close()
                return
            cycle.disconnected = True  # the app's receive() gets http.disconnect, its answer is dropped
            cycle.message_event.set()
        log.info("refused %s: %s", problem.status, problem.detail)
        body = problem.render()
        head = [STATUS_LINE[problem.status]]
        for name, value in self.server_state.default_headers:
            head += [name, b": ", value, b"\r\n"]
        extra = [(k.lower().encode(), v.encode()) for k, v in problem.headers.items()]
        for name, value in [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            *extra,
        ]:
            head += [name, b": ", value, b"\r\n"]
        self.transport.write(b"".join([*head, b"\r\n", body]))
        self._linger()

    def _linger(self) -> None:
        """Close after the answer, reading and dropping what the client still sends for a moment:
        closing with unread bytes would reset the connection and could lose the answer."""
        self.refused = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.flow.resume_reading()
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        else:
            self.transport.close()

    # time limits

    def _unset_keepalive_if_required(self) -> None:
        # uvicorn's keep-alive timeout is a timer made after every answer and cancelled by the
        # next request; here it is a Deadline, one timer per connection (the same limit)
        if self.idle_limit is not None:
            self.idle_limit.clear()

    def on_response_complete(self) -> None:
        """uvicorn's step after an answer (count it, read again, start a pipelined request),
        with the keep-alive timeout as a Deadline."""
        self.server_state.total_requests += 1
        if self.transport.is_closing():
            return
        self._unset_keepalive_if_required()
        self.flow.resume_reading()
        if self.pipeline:
            cycle, app = self.pipeline.pop()
            self._start_asgi_task(cycle, app)
        elif self.idle_limit is not None:
            self.idle_limit.start()

    def _cancel_timers(self) -> None:
        for limit in (self.head_limit, self.body_limit, self.idle_limit):
            if limit is not None:
                limit.cancel()

    def _head_timed_out(self) -> None:
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.keep_alive = False  # a pipelined head is late: close after this answer
            return
        self.refuse(
            Problem(
                408,
                f"The request line and headers did not arrive within {self.bounds.header_timeout_seconds:g} s.",
                kind="request-timeout",
                title="Request timeout",
            )
        )

    def _body_timed_out(self) -> None:
        self.refuse(
            Problem(
                408,
                f"The request body did not arrive within {self.bounds.body_timeout_seconds:g} s of its headers.",
                kind="request-timeout",
                title="Request timeout",
            )
        )

    def _content_length(self) -> int | None:
        for name, value in self.headers:
            if name == b"content-length":
                try:
                    return int(value)
                except ValueError:
                    return None
        return None

    def _chunked(self) -> bool:
        return any(name == b"transfer-encoding" and b"chunked" in value.lower() for name, value in self.headers)


def _reason(exc: Exception) -> str:
    """The parser's complaint, short and printable (it may quote the client's bytes)."""
    text = str(exc).strip() or type(exc).__name__
    return text.encode("ascii", "replace").decode()[:120]
