"""Network faults on 127.0.0.1 for reliability tests: a proxy that can stop forwarding, a
listener that accepts and never answers, and a port that nothing listens on."""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from collections.abc import Iterator


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
