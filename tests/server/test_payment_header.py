"""The audit's hostile payment header against a real server process: base64 of 100,000 nested
`[` (267 KB) in PAYMENT-SIGNATURE or X-PAYMENT, which segfaulted the process in the JSON decoder
once the x402 SDK had loaded py_ecc (it raises the recursion limit to 100,000). The server
refuses it for its size (431 problem); a nested header under the size limit reaches the payment
gate and is a 402 saying why; the process answers afterwards."""

from __future__ import annotations

import base64

import httpx
import pytest
from live_server import serve, server_env

pytestmark = pytest.mark.slow
PAID = "/motion/api/pro/export"  # for sale on a fresh store (trip rests on sample rates until its feed runs)


def nested(depth: int) -> str:
    return base64.b64encode(b"[" * depth + b"]" * depth).decode()


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    with serve(server_env(db_url), tmp_path_factory.mktemp("payment-header"), "--no-access-log") as s:
        yield s


@pytest.mark.parametrize("name", ["PAYMENT-SIGNATURE", "X-PAYMENT"])
def test_the_audits_header_is_refused_by_the_server_and_the_process_lives(server, name):
    """267 KB: past the request head limit, so the server refuses it before the app sees it."""
    r = get(server, name, nested(100_000))
    assert r.status_code == 431 and r.headers["content-type"] == "application/problem+json", r.text[:300]
    assert r.json()["detail"] == "The request line and headers are larger than the 65536 bytes this server accepts."
    assert server.alive(), server.output()[-2000:]


@pytest.mark.parametrize("name", ["PAYMENT-SIGNATURE", "X-PAYMENT"])
def test_a_nested_header_under_the_size_limit_is_402_and_the_process_lives(server, name):
    """24,000 levels in 64,000 bytes: it reaches the gate, which counts the nesting before decoding."""
    r = get(server, name, nested(24_000))
    assert r.status_code == 402, (r.status_code, r.text[:300])
    assert r.json()["error"] == "invalid_payload: the payment header nests deeper than 64 levels."
    assert server.alive(), server.output()[-2000:]


def get(server, name: str, header: str) -> httpx.Response:
    try:
        return httpx.get(server.url + PAID, headers={name: header}, timeout=30)
    except httpx.HTTPError as exc:  # the process died under the request
        pytest.fail(f"no answer ({type(exc).__name__}); exit code {server.proc.poll()}\n{server.output()[-2000:]}")
