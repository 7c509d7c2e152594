"""The server protocol's small parts: one write per answer with uvicorn's framing, and time limits
without a timer per request."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import pytest
from uvicorn.protocols.http.flow_control import FlowControl

from twlookup.platform.server_protocol import Cycle, Deadline, server_headers


class Transport:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def writelines(self, parts: tuple[bytes, ...]) -> None:
        self.writes.append(b"".join(parts))

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def is_closing(self) -> bool:
        return self.closed


def cycle(method: str = "GET", keep_alive: bool = True, own: list | None = None) -> tuple[Cycle, Transport, list]:
    """A `Cycle` as the protocol makes one, on a transport that records its writes."""
    transport, done = Transport(), []
    scope = {"type": "http", "method": method, "http_version": "1.1", "path": "/x", "query_string": b""}
    made = Cycle(
        scope,  # type: ignore[arg-type]
        transport,  # type: ignore[arg-type]
        FlowControl(transport),  # type: ignore[arg-type]
        logging.getLogger("test"),
        logging.getLogger("test.access"),
        False,
        own if own is not None else [(b"date", b"Fri, 27 Nov 2026 08:00:00 GMT"), (b"server", b"uvicorn")],
        asyncio.Event(),
        False,
        keep_alive,
        lambda: done.append(True),
    )
    return made, transport, done


def start(status: int = 200, *headers: tuple[bytes, bytes]) -> dict:
    return {"type": "http.response.start", "status": status, "headers": list(headers)}


def body(data: bytes, more: bool = False) -> dict:
    return {"type": "http.response.body", "body": data, "more_body": more}


JSON = (b"content-type", b"application/json")


async def test_the_head_goes_out_with_the_first_piece_of_the_body():
    made, transport, done = cycle()
    made.transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")  # before the answer: straight through (receive())
    await made.send(start(200, JSON, (b"Content-Length", b"4")))
    assert len(transport.writes) == 1  # the head is held
    await made.send(body(b"ab", more=True))
    await made.send(body(b"cd"))
    assert transport.writes[1:] == [
        b"HTTP/1.1 200 OK\r\ndate: Fri, 27 Nov 2026 08:00:00 GMT\r\nserver: uvicorn\r\n"
        b"content-type: application/json\r\ncontent-length: 4\r\n\r\nab",
        b"cd",
    ]
    assert done == [True] and made.response_complete and not transport.closed


async def test_the_framing_is_uvicorns():
    made, transport, _ = cycle()  # no length given: chunked
    await made.send(start(200, JSON))
    await made.send(body(b"abc", more=True))
    await made.send(body(b""))
    assert transport.writes[0].endswith(b"transfer-encoding: chunked\r\n\r\n3\r\nabc\r\n")
    assert transport.writes[1:] == [b"0\r\n\r\n"]

    made, transport, _ = cycle("HEAD")  # HEAD: the length of what GET would send, no body
    await made.send(start(200, JSON, (b"content-length", b"795")))
    await made.send(body(b""))
    assert transport.writes == [transport.writes[0]] and transport.writes[0].endswith(b"content-length: 795\r\n\r\n")

    made, transport, _ = cycle(keep_alive=False)  # the connection ends after this answer: said, and done
    await made.send(start(204))
    await made.send(body(b""))
    assert b"connection: close\r\n" in transport.writes[0] and transport.closed

    made, transport, _ = cycle()  # the app closing it says so itself, once
    await made.send(start(200, (b"content-length", b"0"), (b"connection", b"Keep-Alive, Close")))
    await made.send(body(b""))
    assert transport.writes[0].count(b"onnection:") == 1 and transport.closed

    for sent, wrong in ((b"abcde", "longer"), (b"abc", "shorter")):
        made, _, _ = cycle()
        await made.send(start(200, (b"content-length", b"4")))
        with pytest.raises(RuntimeError, match=wrong):
            await made.send(body(sent))

    made, _, _ = cycle()
    with pytest.raises(RuntimeError, match="Invalid HTTP header value"):
        await made.send(start(200, (b"x-note", b"line\nbreak")))


async def test_the_servers_own_headers_are_joined_once_per_list():
    """uvicorn makes its list of headers (date, server) anew each second: every answer until the
    next list takes the same joined bytes, and a list with a framing header (an operator's
    `connection: close`) goes through the general path, which acts on it."""
    own = [(b"date", b"Fri, 27 Nov 2026 08:00:00 GMT"), (b"server", b"uvicorn")]
    first = server_headers(own)
    assert first == b"date: Fri, 27 Nov 2026 08:00:00 GMT\r\nserver: uvicorn\r\n"
    assert server_headers(own) is first
    later = [(b"date", b"Fri, 27 Nov 2026 08:00:01 GMT"), (b"server", b"uvicorn")]
    assert server_headers(later) == first.replace(b":00 GMT", b":01 GMT")
    closing = [*later, (b"connection", b"close")]
    assert server_headers(closing) is None
    made, transport, _ = cycle(own=closing)
    await made.send(start(200, (b"content-length", b"0")))
    await made.send(body(b""))
    assert b"\r\nconnection: close\r\n" in transport.writes[0] and transport.closed
    with pytest.raises(RuntimeError, match="Invalid HTTP header name"):
        server_headers([(b"bad name", b"x")])


class Loop:
    """Just enough of an event loop: a clock moved by hand and the timers asked for."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[list] = []  # [when, callback, cancelled]

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback):
        timer = [self.now + delay, callback, False]
        self.timers.append(timer)
        return SimpleNamespace(cancel=lambda: timer.__setitem__(2, True))

    def advance(self, to: float) -> None:
        self.now = to
        for timer in [t for t in self.timers if t[0] <= to and not t[2]]:
            self.timers.remove(timer)
            timer[1]()


def test_a_deadline_fires_once_its_time_is_up_and_not_before():
    loop, expired = Loop(), []
    limit = Deadline(loop, 10.0, lambda: expired.append(loop.now))  # type: ignore[arg-type]
    for at in (0.0, 4.0, 8.0):  # three requests, each head set and cleared: one timer only
        loop.now = at
        limit.start()
        limit.clear()
    assert len(loop.timers) == 1
    loop.now = 9.0
    limit.start()  # a head that begins at 9 may take until 19
    loop.advance(10.0)  # the first timer fires early and is armed again for what is left
    assert expired == [] and loop.timers[0][0] == 19.0
    loop.advance(19.0)
    assert expired == [19.0]


def test_a_cleared_or_cancelled_deadline_never_fires():
    loop, expired = Loop(), []
    limit = Deadline(loop, 5.0, lambda: expired.append(True))  # type: ignore[arg-type]
    limit.start()
    limit.clear()
    loop.advance(6.0)
    limit.start()
    limit.cancel()
    loop.advance(20.0)
    assert expired == [] and limit.timer is None


class SocketTransport(Transport):
    def get_extra_info(self, name: str, default: object = None) -> object:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(name, default)

    def set_write_buffer_limits(self, *args: object, **kwargs: object) -> None:
        pass


async def test_keep_alive_answers_make_no_timer_each():
    """uvicorn arms a keep-alive timer after every answer and cancels it on the next request (a
    timer made and dropped per request); here one Deadline per connection keeps the same limit."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from twlookup.platform.server_protocol import PROTOCOL

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    loop = asyncio.get_running_loop()
    config = Config(app, http=PROTOCOL, lifespan="off", log_level="warning")
    config.load()
    protocol = config.http_protocol_class(config=config, server_state=ServerState(), app_state={}, _loop=loop)
    timers = []
    real_call_later = loop.call_later

    def counted(delay, callback, *args, **kwargs):
        timers.append(delay)
        return real_call_later(delay, callback, *args, **kwargs)

    loop.call_later = counted  # type: ignore[method-assign]
    try:
        transport = SocketTransport()
        protocol.connection_made(transport)  # type: ignore[arg-type]
        for _ in range(20):
            protocol.data_received(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            for _ in range(5):
                await asyncio.sleep(0)
        answers = b"".join(transport.writes).count(b"HTTP/1.1 200 OK")
        protocol.connection_lost(None)
    finally:
        del loop.call_later
    assert answers == 20
    assert len(timers) <= 3, timers  # the head limit and the idle limit, once each (20 before)


# -- the request body handed to the app (Cycle.receive) ----------------------------------------


def arrive(made: Cycle, data: bytes, last: bool) -> None:
    """What the protocol's body callbacks do with a piece of the body."""
    made.body += data
    if last:
        made.more_body = False
    made.message_event.set()


async def waits_for_the_client(made: Cycle) -> None:
    """A receive() now waits, and is answered `http.disconnect` once the client goes away."""
    waiting = asyncio.ensure_future(made.receive())
    await asyncio.sleep(0.01)
    assert not waiting.done()
    made.disconnected = True
    made.message_event.set()
    assert await waiting == {"type": "http.disconnect"}


async def test_a_body_that_came_with_its_head_is_handed_out_once_then_receive_waits_for_the_client():
    made, _, _ = cycle("POST")
    arrive(made, b'{"a": 1}', last=True)
    assert await made.receive() == {"type": "http.request", "body": b'{"a": 1}', "more_body": False}
    await waits_for_the_client(made)  # a second receive: nothing more is coming


async def test_a_body_in_pieces_arrives_in_order_and_its_last_piece_once():
    made, _, _ = cycle("POST")
    arrive(made, b"first ", last=False)
    assert await made.receive() == {"type": "http.request", "body": b"first ", "more_body": True}
    later = asyncio.ensure_future(made.receive())  # the long way: it waits for the next piece
    await asyncio.sleep(0.01)
    arrive(made, b"second", last=True)
    assert await later == {"type": "http.request", "body": b"second", "more_body": False}
    await waits_for_the_client(made)  # the last piece is not handed out a second time


async def test_receive_after_the_answer_or_the_client_left_says_disconnect():
    made, _, _ = cycle("POST")
    arrive(made, b"x", last=True)
    made.response_complete = True
    assert await made.receive() == {"type": "http.disconnect"}
    gone, _, _ = cycle("POST")
    arrive(gone, b"x", last=True)
    gone.disconnected = True
    assert await gone.receive() == {"type": "http.disconnect"}
