"""Network faults on 127.0.0.1 for reliability tests: a proxy that can stop forwarding, a
listener that accepts and never answers, one that redirects to whatever it is told, and a port
that nothing listens on."""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from collections.abc import Iterable, Iterator


def closed_port() -> int:
    """A loopback port with nothing listening on it (connections are refused)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


class SilentListener:
    """Accepts TCP connections and never sends a byte (a hung server)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self.sock], [], [], 0.05)
                if ready:
                    conn, _ = self.sock.accept()
                    self.conns.append(conn)  # held open, never read from or answered
            except (OSError, ValueError):  # closed under us
                return

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for conn in self.conns:
            conn.close()
        self.sock.close()


class StallProxy:
    """Forwards TCP to 127.0.0.1:`target` until `stall()`; then holds every connection open
    and forwards nothing either way (a database or Redis that stopped answering)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.stalled = threading.Event()
        self._stop = threading.Event()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()
        threading.Thread(target=self._pump, daemon=True).start()

    def stall(self) -> None:
        self.stalled.set()

    def resume(self) -> None:
        self.stalled.clear()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self.sock], [], [], 0.05)
                if not ready:
                    continue
                client, _ = self.sock.accept()
            except (OSError, ValueError):  # closed under us
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=2)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._pairs.append((client, upstream))

    def _pump(self) -> None:
        while not self._stop.is_set():
            if self.stalled.is_set():
                self._stop.wait(0.05)
                continue
            with self._lock:
                pairs = list(self._pairs)
            socks = [s for pair in pairs for s in pair]
            if not socks:
                self._stop.wait(0.02)
                continue
            try:
                ready, _, _ = select.select(socks, [], [], 0.05)
            except (OSError, ValueError):
                self._prune()
                continue
            for sock in ready:
                if self.stalled.is_set():
                    break
                for a, b in pairs:
                    if sock is a or sock is b:
                        other = b if sock is a else a
                        try:
                            data = sock.recv(65536)
                            if not data:
                                raise OSError("closed")
                            other.sendall(data)
                        except OSError:
                            self._drop(a, b)
                        break

    def _drop(self, a: socket.socket, b: socket.socket) -> None:
        with self._lock:
            if (a, b) in self._pairs:
                self._pairs.remove((a, b))
        a.close()
        b.close()

    def _prune(self) -> None:
        with self._lock:
            pairs = list(self._pairs)
        for a, b in pairs:
            if a.fileno() < 0 or b.fileno() < 0:
                self._drop(a, b)

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for a, b in pairs:
            a.close()
            b.close()
        self.sock.close()


class RedirectListener:
    """A loopback HTTP server in a thread: a request for one of `redirect_paths` is a 302 to
    `self.location` (any bytes, as a hostile site may send them); anything else is 200 "ok"."""

    def __init__(self, redirect_paths: Iterable[bytes] = (b"/start",)) -> None:
        self.location = b"/"
        self.redirect_paths = set(redirect_paths)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.sock.settimeout(0.1)
        self.port = self.sock.getsockname()[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            with conn:
                conn.settimeout(2)
                try:
                    head = b""
                    while b"\r\n\r\n" not in head:
                        chunk = conn.recv(4096)
                        if not chunk:
                            break
                        head += chunk
                    path = head.split(b" ", 2)[1] if head.count(b" ") >= 2 else b"/"
                    if path in self.redirect_paths:
                        conn.sendall(
                            b"HTTP/1.1 302 Found\r\nLocation: " + self.location + b"\r\n"
                            b"Content-Length: 0\r\nConnection: close\r\n\r\n"
                        )
                    else:
                        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
                except OSError:
                    pass

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.sock.close()


@contextlib.contextmanager
def silent_listener() -> Iterator[SilentListener]:
    listener = SilentListener()
    try:
        yield listener
    finally:
        listener.close()


@contextlib.contextmanager
def stall_proxy(target: int) -> Iterator[StallProxy]:
    proxy = StallProxy(target)
    try:
        yield proxy
    finally:
        proxy.close()


@contextlib.contextmanager
def redirect_listener(redirect_paths: Iterable[bytes] = (b"/start",)) -> Iterator[RedirectListener]:
    listener = RedirectListener(redirect_paths)
    try:
        yield listener
    finally:
        listener.close()
