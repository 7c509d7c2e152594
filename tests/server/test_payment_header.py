"""The audit's hostile payment header against a real server process: base64 of 100,000 nested
`[` (267 KB) in PAYMENT-SIGNATURE or X-PAYMENT, which segfaulted the process in the JSON decoder
once the x402 SDK had loaded py_ecc (it raises the recursion limit to 100,000). It is refused
with a problem or a 402 saying why, and the process still answers afterwards."""

from __future__ import annotations

import base64

import httpx
import pytest
from live_server import serve, server_env

pytestmark = pytest.mark.slow
PAID = "/trip/api/pro/export"


def nested(depth: int) -> str:
    return base64.b64encode(b"[" * depth + b"]" * depth).decode()


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    with serve(server_env(db_url), tmp_path_factory.mktemp("payment-header"), "--no-access-log") as s:
        yield s


@pytest.mark.parametrize("name", ["PAYMENT-SIGNATURE", "X-PAYMENT"])
@pytest.mark.parametrize(
    ("depth", "why"),
    [
        (100_000, "the payment header is 266668 bytes; at most 65536 are accepted."),  # the audit's header
        (24_000, "the payment header nests deeper than 64 levels."),  # 64,000 bytes: under the size limit
    ],
)
def test_nested_payment_header_is_refused_and_the_process_lives(server, name, depth, why):
    header = nested(depth)
    try:
        r = httpx.get(server.url + PAID, headers={name: header}, timeout=30)
    except httpx.HTTPError as exc:  # the process died under the request
        pytest.fail(f"no answer ({type(exc).__name__}); server alive: {server.alive()}\n{server.output()[-2000:]}")
    assert r.status_code == 402, (r.status_code, r.text[:300])
    assert r.json()["error"] == f"invalid_payload: {why}"
    assert server.alive(), server.output()[-2000:]
