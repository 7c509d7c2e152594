"""A small HTTP/1.1 keep-alive load generator, used when wrk is not installed.

Runs in its own process; prints requests per second and p99 latency as JSON.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from urllib.parse import urlsplit


async def worker(host: str, port: int, request: bytes, stop: float, latencies: list[float], errors: list[int]) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while time.perf_counter() < stop:
            start = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - start)
            if status != 200:
                errors.append(status)
    finally:
        writer.close()


async def main(url: str, seconds: float, connections: int, method: str, body: str) -> None:
    parts = urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    payload = body.encode()
    headers = f"{method} {path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
    if payload:
        headers += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
    request = (headers + "\r\n").encode() + payload
    latencies: list[float] = []
    errors: list[int] = []
    stop = time.perf_counter() + seconds
    began = time.perf_counter()
    await asyncio.gather(
        *(worker(parts.hostname, parts.port, request, stop, latencies, errors) for _ in range(connections))
    )
    elapsed = time.perf_counter() - began
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1] if latencies else 0.0
    print(json.dumps({"rps": len(latencies) / elapsed, "p99_ms": p99 * 1000, "errors": len(errors)}))


if __name__ == "__main__":
    url, seconds, connections, method = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    asyncio.run(main(url, seconds, connections, method, sys.argv[5] if len(sys.argv) > 5 else ""))
