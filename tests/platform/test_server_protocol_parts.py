"""The server protocol's small parts: one write per answer, and time limits without a timer per request."""

from __future__ import annotations

from types import SimpleNamespace

from twlookup.platform.server_protocol import Deadline, HeadWithBody


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

    def is_closing(self) -> bool:
        return self.closed


def test_the_head_goes_out_with_the_first_piece_of_the_body():
    transport, cycle = Transport(), SimpleNamespace(response_started=False)
    held = HeadWithBody(transport, cycle)  # type: ignore[arg-type]
    held.write(b"HTTP/1.1 100 Continue\r\n\r\n")  # before the response: straight through
    assert transport.writes == [b"HTTP/1.1 100 Continue\r\n\r\n"]
    cycle.response_started = True
    held.write(b"HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\n")
    assert len(transport.writes) == 1  # held
    held.write(b"ab")
    held.write(b"cd")
    assert transport.writes[1:] == [b"HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nab", b"cd"]


def test_closing_writes_a_held_head_first():
    transport, cycle = Transport(), SimpleNamespace(response_started=True)
    held = HeadWithBody(transport, cycle)  # type: ignore[arg-type]
    held.write(b"HTTP/1.1 500 Internal Server Error\r\n\r\n")
    held.close()
    assert transport.writes == [b"HTTP/1.1 500 Internal Server Error\r\n\r\n"] and transport.closed


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
