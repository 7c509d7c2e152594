"""Privacy of the wellness service: "answers are not stored", so no query, body or answer sent to
any wellness endpoint may reach a log line.

A real `twlookup serve` (uvicorn, access log on, --log-level debug) runs in a child process whose
root logger is set to DEBUG, so every logger there (uvicorn.access, uvicorn.error, twlookup,
x402, httpx, mcp, sqlalchemy...) writes to the captured output. Every wellness endpoint is then
called with distinctive marker values, over REST, MCP tools/call and the paid route's challenge,
valid and invalid, and the captured output must contain none of them. The test also checks that
the capture saw every request, so that it cannot pass by capturing nothing.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from mcp import Client
from stores import copy_store

pytestmark = pytest.mark.asyncio

MARK = "zq7731mark"  # appears nowhere in the code, the data or any log format
WAKE, BEDTIME = "04:37", "21:53"  # times no log line would show by chance
ANSWERS = {  # distinctive answer sequences, each checked in the forms a log could print them
    "mood-thermometer": {"answers": [1, 4, 0, 3, 2], "suicidal": 3},
    "phq9": {"answers": [0, 3, 1, 2, 0, 1, 3, 2, 1]},
    "gad7": {"answers": [2, 0, 3, 1, 3, 0, 2]},
}
BOOT = (
    "import logging, sys; logging.basicConfig(level=logging.DEBUG, stream=sys.stderr, "
    "format='%(levelname)s %(name)s %(message)s'); from twlookup.cli import main; sys.exit(main(sys.argv[1:]))"
)


def forbidden() -> list[str]:
    out = [MARK, WAKE, BEDTIME, WAKE.replace(":", "%3A"), BEDTIME.replace(":", "%3A"), "situation=", "end-of-life"]
    for body in ANSWERS.values():
        seq = body["answers"]
        out += [", ".join(map(str, seq)), ",".join(map(str, seq)), json.dumps(seq)]
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, template_store: Path):
    folder: Path = tmp_path_factory.mktemp("privacy")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    log_path = folder / "server.log"
    env = dict(
        os.environ,
        TWLOOKUP_DATABASE_URL=copy_store(template_store, folder),  # seeded: the server starts warm
        TWLOOKUP_RATE_LIMIT_DEFAULT="100000/minute",
        PYTHONUNBUFFERED="1",
    )
    with log_path.open("wb") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-c", BOOT, "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "debug"],
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            cwd=folder,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("server did not start:\n" + log_path.read_text(errors="replace"))
                time.sleep(0.2)
            yield base, log_path
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def payment_header(accepted: dict) -> str:
    """A well-formed x402 v2 payment for the route, signed with nonsense that carries the marker."""
    payload = {
        "x402Version": 2,
        "accepted": accepted,
        "payload": {
            "signature": "0x" + MARK,
            "authorization": {
                "from": "0x" + "11" * 20,
                "to": accepted["payTo"],
                "value": accepted["amount"],
                "validAfter": "0",
                "validBefore": "9999999999",
                "nonce": "0x" + "ab" * 32,
            },
        },
    }
    return base64.b64encode(json.dumps(payload).encode()).decode()


async def run_every_endpoint(base: str) -> list[tuple[str, str, int]]:
    """Call every endpoint with the markers; returns (method, path, status) of each REST call."""
    calls: list[tuple[str, str, int]] = []
    async with httpx.AsyncClient(base_url=f"{base}/wellness", timeout=30) as http:

        async def call(method: str, path: str, expect: int, **kw) -> httpx.Response:
            r = await http.request(method, path, **kw)
            assert r.status_code == expect, (method, path, r.status_code, r.text)
            calls.append((method, path, r.status_code))
            return r

        await call("GET", "/api/telehealth", 200, params={"situation": "end-of-life"})
        await call("GET", "/api/telehealth", 404, params={"situation": MARK})
        await call("GET", "/api/telehealth", 422, params={MARK: "1"})
        for path, body in ANSWERS.items():
            await call("POST", f"/api/{path}", 200, json=body)
            await call("POST", f"/api/{path}", 422, json={**body, "answers": [MARK] * len(body["answers"])})
            await call("POST", f"/api/{path}", 422, json={**body, MARK: body["answers"]})
            await call(
                "POST",
                f"/api/{path}",
                400,
                content=b'{"answers": [' + MARK.encode(),
                headers={"content-type": "application/json"},
            )
            await call(
                "POST", f"/api/{path}", 415, content=f"answers={MARK}".encode(), headers={"content-type": "text/plain"}
            )
            await call("GET", f"/api/{path}", 405, params={"answers": ",".join(map(str, body["answers"]))})
        await call("GET", "/api/sleep", 200, params={"wake": WAKE})
        await call("GET", "/api/sleep", 200, params={"bedtime": BEDTIME})
        await call("GET", "/api/sleep", 422, params={"wake": MARK})
        await call("GET", "/api/sleep", 422, params={"wake": WAKE, "bedtime": BEDTIME})
        for path in ("/api/breathing", "/api/digital-wellness", "/api/crisis-lines"):
            await call("GET", path, 200)
            await call("GET", path, 422, params={"q": MARK})
        challenge = await call("GET", "/api/pro/export", 402)
        await call("GET", "/api/pro/export", 422, params={"answers": MARK})
        await call("GET", "/api/pro/export", 402, headers={"payment-signature": MARK})
        accepted = challenge.json()["accepts"][0]
        await call("GET", "/api/pro/export", 402, headers={"payment-signature": payment_header(accepted)})
        mismatched = payment_header(
            {**accepted, "payTo": "0x" + "22" * 20, "extra": {**accepted.get("extra", {}), "note": MARK}}
        )
        await call("GET", "/api/pro/export", 402, headers={"payment-signature": mismatched})

        # MCP by hand: an unknown tool named after the marker, and arguments the tools refuse.
        rpc = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
        r = await http.post("/mcp", json={**rpc, "params": {"name": MARK, "arguments": {"x": MARK}}})
        assert "error" in r.json()
        r = await http.post(
            "/mcp", content=b'{"jsonrpc": "2.0", ' + MARK.encode(), headers={"content-type": "application/json"}
        )
        assert r.status_code == 400

    # MCP through the official client: every tool, valid and invalid arguments.
    async with Client(f"{base}/wellness/mcp") as mcp:
        valid = {
            "check_telehealth_eligibility": {"situation": "end-of-life"},
            "score_mood_thermometer": ANSWERS["mood-thermometer"],
            "score_phq9": ANSWERS["phq9"],
            "score_gad7": ANSWERS["gad7"],
            "calc_sleep_times": {"wake": WAKE},
            "breathing_exercises": {},
            "digital_wellness_guide": {},
            "crisis_lines": {},
        }
        for name, args in valid.items():
            assert not (await mcp.call_tool(name, args)).is_error, name
            assert (await mcp.call_tool(name, {**args, MARK: MARK})).is_error, name
        assert (await mcp.call_tool("check_telehealth_eligibility", {"situation": MARK})).is_error
        assert (await mcp.call_tool("calc_sleep_times", {"bedtime": MARK})).is_error
        assert (await mcp.call_tool("score_phq9", {"answers": [MARK] * 9})).is_error
    return calls


async def test_no_wellness_input_reaches_any_log_line(server):
    base, log_path = server
    calls = await run_every_endpoint(base)
    time.sleep(0.5)  # let the child flush its last lines
    captured = log_path.read_text(encoding="utf-8", errors="replace")

    # The capture is real: every REST call left its access-log line, at DEBUG level with all loggers.
    access = [line for line in captured.splitlines() if "/wellness/" in line and "HTTP/1.1" in line]
    assert len(access) >= len(calls), captured[-3000:]
    for method, path, status in calls:
        assert any(f'"{method} /wellness{path}' in line and f" {status}" in line for line in access), (
            method,
            path,
            status,
        )
    assert '"GET /wellness/api/telehealth?[redacted] HTTP/1.1" 404' in captured
    assert "DEBUG " in captured  # the root logger captured debug records too

    leaks = [(word, line) for line in captured.splitlines() for word in forbidden() if word in line]
    assert not leaks, leaks[:10]


PATH_MARK = "zq7731path"


async def test_answers_put_in_a_mistaken_path_do_not_reach_the_log(server):
    base, log_path = server
    async with httpx.AsyncClient(base_url=f"{base}/wellness", timeout=30) as http:
        r = await http.get(f"/api/phq9/{PATH_MARK}-0,3,1,2,0,1,3,2,1")
        assert r.status_code == 404
    time.sleep(0.5)
    captured = log_path.read_text(encoding="utf-8", errors="replace")
    # The request was logged (however its path is shown), and the answers in its path were not.
    assert any('"GET /wellness/' in line and " 404" in line for line in captured.splitlines())
    assert PATH_MARK not in captured
