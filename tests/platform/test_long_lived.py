"""What a serving process builds for good (reference data, OpenAPI documents, MCP tool lists, SDKs)
is frozen out of the collector's generations (twlookup/startup.py): a full collection then walks
only what was made since, not the 120,000 objects of every loaded part, which paused whichever
request it fell on for 15-55 ms."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from twlookup import startup

SERVE_EVERYTHING = """
import asyncio, gc, json, sys, time
import httpx
from twlookup.app import serving_app

pauses = []
began = {}

def timing(phase, info):
    if phase == "start":
        began["at"] = time.perf_counter()
    elif info["generation"] == 2:
        pauses.append(time.perf_counter() - began["at"])

async def main():
    app = serving_app()
    gc.callbacks.append(timing)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as http:
        routes = []
        for s in (await http.get("/")).json()["services"]:
            spec = (await http.get(f"{s['base']}/openapi.json")).json()
            await http.post(f"{s['base']}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
            for path, methods in spec["paths"].items():
                get = methods.get("get")
                if get and "/api/" in path and "/api/pro" not in path and "{" not in path and not any(
                    p.get("required") for p in get.get("parameters", [])
                ):
                    routes.append(f"{s['base']}{path}")
        await http.post("/models/api/pro/audit", json={"ids": ["gpt-4-0613"]})  # the x402 SDK
        for route in routes:  # every part is loaded now
            await http.get(route)
        tracked = len(gc.get_objects())
        pauses.clear()
        for _ in range(3):  # warm: what the census measures
            for route in routes:
                await http.get(route)
    print(json.dumps({"tracked": tracked, "frozen": gc.get_freeze_count(), "pauses": pauses}))

asyncio.run(main())
"""


def test_a_serving_process_keeps_what_it_built_out_of_the_collectors_scans(db_url):
    env = dict(os.environ, TWLOOKUP_DATABASE_URL=db_url, TWLOOKUP_RATE_LIMIT_DEFAULT="100000/minute")
    out = subprocess.run([sys.executable, "-c", SERVE_EVERYTHING], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["frozen"] > 300_000  # the app, every service's data, documents, tools and the SDKs
    assert found["tracked"] < 20_000, found["tracked"]  # it was about 120,000 with every part loaded
    assert all(p < 0.01 for p in found["pauses"]), found["pauses"]  # warm, full collections stay short


def test_a_process_that_does_not_serve_keeps_its_collector_as_it_is(monkeypatch):
    import gc

    monkeypatch.setattr(startup, "_serving", False)
    before = gc.get_freeze_count()
    startup.long_lived()
    assert gc.get_freeze_count() == before
