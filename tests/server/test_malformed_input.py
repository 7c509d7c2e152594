"""Malformed input the audit sent to a real server process, answered as problems: `x402Version`
as the string "2" (it was accepted as 2), and share ids written as integer-valued floats such as
57619668.0 (JSON Schema counts them as integers; they were refused). Raw 0xFF bytes and 100 KB
paths are in test_http_bounds.py."""

from __future__ import annotations

import base64
import json

import httpx
import pytest
from live_server import serve, server_env
from x402 import PaymentRequired

pytestmark = pytest.mark.slow
PAID = "/models/api/pro/audit"  # on sale (routes on sample data are not sold)
BODY = {"ids": ["gpt-4-0613"]}


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    with serve(server_env(db_url), tmp_path_factory.mktemp("malformed"), "--no-access-log") as s:
        yield s


def test_x402_version_as_a_string_is_refused(server):
    required = PaymentRequired.model_validate_json(httpx.post(server.url + PAID, json=BODY, timeout=30).content)
    payload = {
        "x402Version": "2",
        "accepted": required.accepts[0].model_dump(by_alias=True, mode="json"),
        "payload": {"authorization": {}, "signature": "0x00"},
    }
    header = base64.b64encode(json.dumps(payload).encode()).decode()
    r = httpx.post(server.url + PAID, json=BODY, headers={"PAYMENT-SIGNATURE": header}, timeout=30)
    assert r.status_code == 402
    assert r.json()["error"] == (
        'invalid_x402_version: x402Version must be the JSON integer 2; this payload has the string "2".'
    )


@pytest.mark.parametrize("path", ["/share/api/vote", "/share/api/click", "/share/api/comment"])
def test_an_integer_valued_float_id_is_that_id(server, path):
    body: dict = {"body": "好聽"} if path.endswith("comment") else {}
    r = httpx.post(server.url + path, json={"id": 57619668.0, **body}, timeout=30)
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json", r.text
    assert "57619668" in r.json()["detail"]
    r = httpx.post(server.url + path, json={"id": 1.5, **body}, timeout=30)
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "id", r.text
    assert server.alive()
