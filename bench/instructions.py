"""Instructions per request, counted by callgrind: the load benchmark's ratios where the clock
cannot be trusted.

On a shared 2-core machine the request rates of `bench/run.py` move by a fifth from one minute to
the next, and its ratios with them (the same code printed MCP/REST 0.70x and 1.03x within the
hour). Callgrind counts the instructions the whole server process runs (uvicorn, the app, the
libraries) for a fixed number of requests, which a busy or slow CPU does not change. Each server
runs under callgrind on a seeded store of its own, answers warm-up requests and loads its services
(after the start: twlookup/service_slots.py), then its counters are zeroed, 1,000 requests are
sent over one keep-alive connection, one after another, and the counters are read.

Printed: instructions per request of the REST lookup, the same with payments off, the MCP
tools/call of the same lookup, and the one-route FastAPI app (`bench/baseline_app.py` on plain
uvicorn); and the ratios between twlookup's own paths against the load benchmark's targets
(MCP/REST >= 0.9x, payments on/off >= 0.97x). Two of twlookup's paths run in one process the same
way, so their instructions are a fair measure of their costs; the baseline's are not (its sync
route hands every request to a worker thread and back: system calls and futex waits, which
callgrind does not count), so the ratio to it stays `bench/run.py`'s.

    .venv/bin/python bench/instructions.py     (needs valgrind; about ten minutes)
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import LOOKUP, MCP_BODY, PY, ROOT, free_port, server_env

REQUESTS = 1000
LOOKUP_REQUEST = f"GET {LOOKUP} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
MCP_REQUEST = (
    f"POST /models/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    f"Content-Length: {len(MCP_BODY)}\r\n\r\n{MCP_BODY}"
).encode()
BASELINE_REQUEST = b"GET /lookup HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def send(port: int, request: bytes, n: int, timeout: float = 600) -> None:
    """`n` requests, one after another on one connection, each answered 200 before the next."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        for _ in range(n):
            conn.sendall(request)
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = conn.recv(65536)
                if not chunk:
                    raise SystemExit("the server closed the connection")
                head += chunk
            top, _, body = head.partition(b"\r\n\r\n")
            if not top.startswith(b"HTTP/1.1 200"):
                raise SystemExit(f"not a 200: {top[:80]!r}")
            length = int(re.search(rb"(?i)content-length: (\d+)", top).group(1))  # type: ignore[union-attr]
            while len(body) < length:
                body += conn.recv(65536)


def loaded(port: int, timeout: float = 1800) -> None:
    """Wait until the server says (/healthz) that it has loaded every service."""
    began = time.monotonic()
    while time.monotonic() - began < timeout:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        try:
            conn.request("GET", "/healthz")
            services = json.loads(conn.getresponse().read())["services"]
        finally:
            conn.close()
        if services["loaded"] == services["of"]:
            return
        time.sleep(2)
    raise SystemExit("the services were not all loaded in time")


def counted(name: str, command: list[str], env: dict[str, str], request: bytes, folder: Path) -> float:
    """Instructions per request of the server `command` runs (under callgrind)."""
    out = folder / f"{name}.callgrind"
    port = free_port()
    proc = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command, "--port", str(port)],
        env=env,
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        began = time.monotonic()
        while True:
            try:
                send(port, request, 1)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() - began > 900:
                    raise SystemExit(f"{name}: the server did not come up under callgrind") from None
                time.sleep(1)
        send(port, request, 300)
        if name != "baseline":  # the services load after the start (twlookup/service_slots.py): not counted
            loaded(port)
        send(port, request, 300)
        subprocess.run(["callgrind_control", "--zero", str(proc.pid)], check=True, capture_output=True)
        send(port, request, REQUESTS)
        subprocess.run(["callgrind_control", "--dump", str(proc.pid)], check=True, capture_output=True)
        for _ in range(100):
            for dump in folder.glob(f"{name}.callgrind.*"):
                text = dump.read_text(errors="replace")
                found = re.search(r"^summary:\s+(\d+)", text, re.M)
                if "Trigger: dump" in text and found:
                    return int(found.group(1)) / REQUESTS
            time.sleep(0.5)
        raise SystemExit(f"{name}: callgrind wrote no dump")
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def main() -> int:
    if not shutil.which("valgrind") or not shutil.which("callgrind_control"):
        print("bench/instructions.py needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="twlookup-instructions-"))
    try:
        store = folder / "seeded.db"
        env = server_env(
            TWLOOKUP_DATABASE_URL=f"sqlite:///{store}",
            TWLOOKUP_RATE_LIMIT_DEFAULT="100000000/minute",
            TWLOOKUP_REFRESH="off",
            TWLOOKUP_CREATOR_LIVE_REGISTER="0",
        )
        subprocess.run([PY, "-m", "twlookup", "seed"], env=env, cwd=folder, check=True, capture_output=True)
        serve = [PY, "-m", "twlookup", "serve", "--no-access-log", "--log-level", "warning"]
        baseline = [PY, "-m", "uvicorn", "--app-dir", str(ROOT), "bench.baseline_app:app", "--no-access-log"]
        runs = {  # name: (command, environment, request); each on a copy of the seeded store
            "baseline": (baseline, env, BASELINE_REQUEST),
            "rest": (serve, env, LOOKUP_REQUEST),
            "rest_payments_off": (serve, {**env, "TWLOOKUP_PAYMENTS_ENABLED": "false"}, LOOKUP_REQUEST),
            "mcp": (serve, env, MCP_REQUEST),
        }

        def one(name: str) -> float:
            own = folder / name
            own.mkdir()
            shutil.copy(store, own / "seeded.db")
            command, environment, request = runs[name]
            return counted(
                name, command, {**environment, "TWLOOKUP_DATABASE_URL": f"sqlite:///{own}/seeded.db"}, request, own
            )

        with ThreadPoolExecutor(max_workers=2) as pool:  # two at a time: the counts do not depend on it
            cost = dict(zip(runs, pool.map(one, runs), strict=True))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for name, instructions in cost.items():
        print(f"  {name:20s} {instructions / 1000:8.1f} K instructions a request")
    verdict = {True: "ok", False: "MISSED"}
    ratios = [
        ("MCP tools/call / REST", cost["rest"] / cost["mcp"], 0.9),
        ("free route, payments on / off", cost["rest_payments_off"] / cost["rest"], 0.97),
    ]
    print(
        f"  (the baseline's {cost['baseline'] / cost['rest']:.2f}x of the lookup's instructions is not its"
        " throughput ratio: its cost is largely in the kernel, handing each request to a worker thread"
        " and back, which callgrind does not count; bench/run.py measures that ratio)"
    )
    for label, ratio, target in ratios:
        print(f"{label + ':':32s} {ratio:5.2f}x by instructions (target >= {target:.2f}x) {verdict[ratio >= target]}")
    return 0 if all(ratio >= target for _, ratio, target in ratios) else 1


if __name__ == "__main__":
    raise SystemExit(main())
