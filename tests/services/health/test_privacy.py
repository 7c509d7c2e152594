"""Privacy: no query string, argument or answer of the health service reaches a log line.

The app runs in its own process under a real uvicorn with the access log on and every logger
(root, uvicorn, uvicorn.access, uvicorn.error, twlookup, x402, httpx, ...) at DEBUG, written to
a file. This test then calls every health endpoint with distinctive marker values: every free
route, every error path kind, the 402 challenge of every paid route, a paid call settled by the
x402 SDK client, and every MCP tool through the official client. Nothing of the markers may
appear in that file. The server runs in a separate process so that the test's own clients
(httpx logs the URLs it requests) cannot pollute the server's log.
"""

import logging
import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from conftest import fund
from eth_account import Account
from mcp import Client
from x402 import x402Client
from x402.http.clients.httpx import x402AsyncTransport
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.signers import EthAccountSigner

from twlookup.app import create_app
from twlookup.platform import privacy

SERVER = textwrap.dedent(
    """
    import logging, sys
    import uvicorn
    from twlookup.app import create_app
    from twlookup.settings import Settings

    logging.basicConfig(level=logging.DEBUG, filename=sys.argv[3], format="%(name)s %(levelname)s %(message)s", force=True)
    for name in ("uvicorn", "uvicorn.access", "uvicorn.error", "twlookup", "x402", "httpx", "httpcore", "mcp", "sqlalchemy"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    settings = Settings(database_url=sys.argv[1], rate_limit_default="100000/minute", _env_file=None)
    uvicorn.run(create_app(settings), host="127.0.0.1", port=int(sys.argv[2]), log_level="debug",
                access_log=True, log_config=None, lifespan="off")
    """
)

# Markers: values no log line would contain by chance. Numbers are checked as sent and encoded, and
# against the whole store file, so none may occur in the shipped reference data either (187.3 did:
# OpenAI's ChatGPT-User range 57.154.187.32/28 in data/seo/ipranges.yaml).
MEAL = "ZQXMEALMARKER 香腸"
BP = "173/97,171/93"
BP_REPORT = "m:167/91,e:163/89"
GLUCOSE = "193.7"
GLUCOSE_REPORT = "f:143.7,a:219.3,r:61.4"
PACK_YEARS = "23.75"
BAD = "ZQXBADMARKER/1"
MARKERS = [
    "ZQXMEALMARKER",
    "ZQXBADMARKER",
    "ZQXPATHMARKER",
    "ZQXTOOLMARKER",
    "173/97",
    "171/93",
    "167/91",
    "163/89",
    "193.7",
    "f:143.7",
    "a:219.3",
    "23.75",
]


def encoded(value: str) -> list[str]:
    return [value, quote(value, safe=""), quote(value, safe="/:,"), value.replace("/", "%2F")]


def free_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


@pytest.fixture
def server(settings, tmp_path: Path):
    log_file = tmp_path / "server.log"
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, settings.database_url, str(port), str(log_file)],
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise RuntimeError("privacy test server did not start")
        time.sleep(0.1)
    yield base, log_file
    proc.terminate()
    proc.wait(timeout=10)


@pytest.mark.asyncio
async def test_no_health_query_argument_or_answer_reaches_any_log_line(server, settings):
    base, log_file = server
    answers: list[str] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        calls = [
            ("/health/api/counseling", {}),
            ("/health/api/glp1", {}),
            ("/health/api/cancer-diet", {}),
            ("/health/api/screening", {}),
            ("/health/api/home-monitoring", {}),
            ("/health/api/meal-check", {"meal": MEAL}),
            ("/health/api/screening-check", {"age": 57, "sex": "male", "smoker": "current", "pack_years": PACK_YEARS}),
            ("/health/api/bp-check", {"readings": BP}),
            ("/health/api/glucose-check", {"value": GLUCOSE, "when": "after-meal"}),
            # error paths: 422 from pydantic, from the readings rules, an unknown parameter, 404
            ("/health/api/bp-check", {"readings": BAD}),
            ("/health/api/meal-check", {"meal": "ZQXMEALMARKER" * 50}),
            ("/health/api/glucose-check", {"value": GLUCOSE, "when": "ZQXBADMARKER"}),
            ("/health/api/screening-check", {"age": 57, "sex": "male", "smoker": "never", "pack_years": PACK_YEARS}),
            ("/health/api/counseling", {"ZQXBADMARKER": "1"}),
            ("/health/api/ZQXPATHMARKER", {"q": BAD}),
            # paid routes without payment: the 402 challenge echoes the URL to the client only
            ("/health/api/pro/bp-report", {"readings": BP_REPORT}),
            ("/health/api/pro/glucose-report", {"readings": GLUCOSE_REPORT}),
            ("/health/api/pro/export", {"x": BAD}),
            ("/health/api/pro/bp-report", {"readings": BAD}),
        ]
        for path, params in calls:
            r = await http.get(path, params=params)
            assert r.status_code < 500, (path, r.text)
            answers.append(r.text)
        r = await http.post(
            "/health/mcp",
            content=b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ZQXTOOLMARKER","arguments":{"x":"ZQXBADMARKER"}}}',
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 200
        r = await http.post(
            "/health/mcp", content=b'{"jsonrpc": ZQXBADMARKER', headers={"content-type": "application/json"}
        )
        assert r.status_code == 400

    # every MCP tool, with marker arguments, through the official client; one tool error too
    async with Client(f"{base}/health/mcp") as mcp:
        for name, args in [
            ("get_counseling_guide", {}),
            ("get_glp1_side_effects", {}),
            ("check_meal_cancer_risk", {"meal": MEAL}),
            (
                "check_cancer_screening_eligibility",
                {"age": 57, "sex": "male", "smoker": "current", "pack_years": float(PACK_YEARS)},
            ),
            ("check_home_blood_pressure", {"readings": BP}),
            ("check_blood_glucose", {"value": float(GLUCOSE), "when": "after-meal"}),
            ("check_home_blood_pressure", {"readings": BAD}),
        ]:
            result = await mcp.call_tool(name, args)
            answers.append(str(result.content[0].text))

    # a paid call settled by the x402 SDK's client
    payer = Account.create()
    fund(payer.address, settings.database_url)
    client = x402Client()
    client.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(payer)))
    async with httpx.AsyncClient(transport=x402AsyncTransport(client), base_url=base, timeout=30) as paying:
        for path, readings in [
            ("/health/api/pro/bp-report", BP_REPORT),
            ("/health/api/pro/glucose-report", GLUCOSE_REPORT),
        ]:
            r = await paying.get(path, params={"readings": readings})
            assert r.status_code == 200, r.text
            answers.append(r.text)

    time.sleep(0.3)  # let the server flush its last access-log lines
    log = log_file.read_text(encoding="utf-8")
    if os.environ.get("TWLOOKUP_DUMP_PRIVACY_LOG"):
        Path(os.environ["TWLOOKUP_DUMP_PRIVACY_LOG"]).write_text(log, encoding="utf-8")
    assert "GET /health/api/bp-check?[redacted]" in log  # the access log ran and was redacted
    assert "/health/api/pro/bp-report?[redacted]" in log
    assert "POST /health/mcp" in log
    leaks = [form for marker in MARKERS for form in encoded(marker) if form in log]
    assert not leaks, f"found in the server log: {leaks}"
    # answer text that only an answer contains (a summary for a doctor, a graded reading) is absent too
    for fragment in ("Morning average 167/91", "summary_for_doctor", "hypoglycaemia-level-1", "processed-meat"):
        assert fragment not in log
    assert any("Morning average 167/91" in a for a in answers)  # ... although the client did get it

    # nor does anything reach the database (the store file, and its journal if any)
    db = Path(settings.database_url.removeprefix("sqlite:///"))
    stored = b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
    assert stored, "the store file was not found"
    found = [m for m in MARKERS for form in encoded(m) if form.encode() in stored]
    assert not found, f"found in the store: {found}"


def access_record(path: str) -> logging.LogRecord:
    # uvicorn's access-log record: (client, method, full path, http version, status)
    return logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("1.2.3.4:5", "GET", path, "1.1", 200),
        None,
    )


def test_private_paths_are_logged_only_as_declared_routes(settings):
    create_app(settings)  # the health router registers its routes
    f = privacy.RedactPrivateQueries({"health"}, set())
    for path, logged in [
        ("/health/api/bp-check?readings=150/95", "/health/api/bp-check?[redacted]"),
        ("/health/api/bp-check/150/95", "/health/[unmatched path]"),
        ("/health/api/nothing?x=1", "/health/[unmatched path]?[redacted]"),
        ("/health/mcp", "/health/mcp"),
        ("/health", "/health"),
        ("/models/api/model?id=gpt-4", "/models/api/model?id=gpt-4"),
    ]:
        rec = access_record(path)
        f.filter(rec)
        assert f'"GET {logged} HTTP/1.1"' in rec.getMessage(), (path, rec.getMessage())


def test_with_a_private_host_unknown_paths_and_all_queries_are_cut(settings):
    create_app(settings)
    f = privacy.RedactPrivateQueries({"health"}, {"health.example.com"})
    rec = access_record("/api/bp-check?readings=150/95")
    f.filter(rec)
    assert '"GET /api/bp-check?[redacted] HTTP/1.1"' in rec.getMessage()
    rec = access_record("/api/bp-check/150/95")
    f.filter(rec)
    assert "150" not in rec.getMessage()
