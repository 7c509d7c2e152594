"""Memory budget per part: how much resident memory each lazily loaded part of twlookup adds.

One process builds the app on a seeded store of its own and then loads one part at a time,
printing the resident memory (VmRSS) it adds: the services' code, routes and tools (a serving
process loads them right after its start), every service's reference data (its first request), the
searches, the destination holiday calendars (the `holidays` package), the ad check, the MCP SDK (a
tools/list), the x402 SDK and the Ethereum libraries (a paid route's 402), the feed refresher (its modules) and the outbound fetcher (a site check of a loopback
address, refused before any connection). The total is the process with
every part loaded (target, issue 24: < 200 MB). Requests go through the ASGI app in-process.

    .venv/bin/python bench/memory.py
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

TARGET_MB = 200.0


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="twlookup-memory-"))
    url = f"sqlite:///{tmp}/memory.db"
    env = dict(os.environ, TWLOOKUP_DATABASE_URL=url)
    subprocess.run([sys.executable, "-m", "twlookup", "seed"], env=env, check=True, capture_output=True)
    rows: list[tuple[str, float]] = []
    start = rss_mb()
    last = start

    def note(part: str) -> None:
        nonlocal last
        gc.collect()
        now = rss_mb()
        rows.append((part, now - last))
        last = now

    try:
        from twlookup.app import create_app
        from twlookup.settings import Settings

        app = create_app(Settings(database_url=url, creator_live_register=False, _env_file=None))
        note("interpreter and app, no service loaded (create_app)")
        for slot in app.slots.values():  # as a serving process does right after its start
            slot.load()
        note("every service loaded: its code, routes and tools (twlookup/service_slots.py)")
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
            services = [s for s in (await http.get("/")).json()["services"] if s["state"] == "available"]
            for s in services:
                spec = (await http.get(f"{s['base']}/openapi.json")).json()
                for path, methods in spec["paths"].items():
                    get = methods.get("get")
                    if not get or "/api/" not in path or "/api/pro" in path or "{" in path:
                        continue
                    if any(p.get("required") for p in get.get("parameters", [])):
                        continue
                    await http.get(f"{s['base']}{path}")
                note(f"{s['name']}: reference data (every free GET route without required input)")
            await http.get("/glossary/api/search", params={"q": "大语言模型"})
            await http.get("/cardgame/api/search", params={"q": "tribute summon"})
            await http.get("/opinions/api/opinions", params={"q": "kindle"})
            note("searches (glossary, cardgame, opinions)")
            abroad = await http.get("/holiday/api/abroad", params={"country": "JP"})
            assert abroad.status_code == 200, abroad.text
            note("destination holiday calendars (the holidays package: /holiday/api/abroad)")
            checked = await http.post("/creator/api/ad-check", json={"text": "促进生发", "category": "cosmetic"})
            assert checked.status_code == 200, checked.text
            note("the ad check, Simplified copy (/creator/api/ad-check)")
            await http.post("/models/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
            note("MCP SDK (tools/list)")
            await http.post("/models/api/pro/audit", json={"ids": ["gpt-4-0613"]})
            note("x402 SDK and Ethereum libraries (a paid route's 402)")
            # the safe fetcher's HTTP client and TLS context, loaded by the first fetch; this one is
            # refused (a loopback address) before any connection, so nothing leaves the machine
            fetched = await http.get("/seo/api/site-check", params={"url": "http://127.0.0.1/"})
            assert fetched.status_code == 422, fetched.text
        for module in ("twlookup.platform.feeds.run", "twlookup.platform.feeds.schedule"):
            importlib.import_module(module)
        note("feed refresher (modules) and the outbound fetcher (a site check refused before connecting)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    total = rss_mb()
    print(f"resident memory by part (one process; {start:.0f} MB before the first import of twlookup):")
    for part, mb in rows:
        print(f"  {mb:+7.1f} MB  {part}")
    ok = total < TARGET_MB
    print(f"with every part loaded: {total:.0f} MB  (target < {TARGET_MB:.0f} MB) {'ok' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
