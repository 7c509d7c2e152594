"""`make compose-test`: the compose topology built and run for real, the way an operator runs it.

Brings up docker-compose.yml (nginx, two app replicas, PostgreSQL, Redis, one scheduler) under a
project name of its own, with deploy/compose.standins.yml where the official images cannot be
pulled and deploy/compose.ci.yml (local facilitator, an internal back network: nothing leaves the
machine), then checks what a deployment promises and prints the figures:

- time from `up -d` to the first 200 through nginx; the store migrated and seeded once;
- both replicas answer; the share limit (60/minute) counted jointly for the two replicas in Redis;
  a spoofed X-Forwarded-For does not buy a new bucket;
- a payment challenge names the public URL on the published port;
- 0 failed requests while a replica is killed, and while deploy/rolling-update.sh replaces both;
- a PostgreSQL restart survived (both replicas answer again by themselves); the scheduler alive;
- nginx answers problem+json when no replica can;
- image size and memory per container.

It always tears down (`down -v`). Exit status 0 when every check passed, 1 when one failed, 0 with
"SKIPPED" when no container engine can be had here (deploy/images/engine.sh says why).
"""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
PAY_TO = "0x1111111111111111111111111111111111111111"
# what the load asks for while replicas die and are replaced: users' routes (not /healthz, whose
# 0.5 s bound on the store may say "down" on a starved 2-core machine while every route answers)
USER_ROUTES = ["/holiday/api/long-weekends-2027", "/models/api/models", "/cardgame/api/banlist"]


def run(cmd: list[str], *, env: dict[str, str] | None = None, timeout: float = 900, check: bool = True) -> str:
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise RuntimeError(f"{shlex.join(cmd)} failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
    return done.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def free_front_net() -> str:
    """Three numbers of a /24 no Docker network on this host uses yet (compose's FRONT_NET)."""
    used = set()
    for net in run(["docker", "network", "ls", "-q"]).split():
        for cfg in json.loads(run(["docker", "network", "inspect", net]))[0]["IPAM"]["Config"] or []:
            used.add(".".join(cfg.get("Subnet", "").split(".")[:3]))
    for third in range(40, 250):
        candidate = f"172.29.{third}"
        if candidate not in used:
            return candidate
    raise RuntimeError("no free 172.29.x.0/24 for the proxy network")


@dataclass
class Report:
    figures: dict[str, str] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def check(self, name: str, ok: bool, detail: str = "") -> None:
        print(f"  {'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
        if not ok:
            self.failures.append(f"{name}: {detail}")

    def figure(self, name: str, value: str) -> None:
        self.figures[name] = value
        print(f"  figure: {name} = {value}", flush=True)


class Load:
    """GET requests through nginx from a few threads until stopped; counts what came back."""

    def __init__(self, base: str, paths: list[str], threads: int = 4) -> None:
        self.base, self.paths, self.threads = base, paths, threads
        self.statuses: Counter[str] = Counter()
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._workers = [threading.Thread(target=self._loop, args=(i,), daemon=True) for i in range(threads)]

    def _loop(self, i: int) -> None:
        # one client per thread, each with its own forwarded address so the rate limit is not what counts
        with httpx.Client(base_url=self.base, timeout=20) as client:
            n = 0
            while not self._stop.is_set():
                path = self.paths[(n + i) % len(self.paths)]
                n += 1
                detail = ""
                try:
                    response = client.get(path)
                    status = str(response.status_code)
                    if response.status_code >= 400:
                        detail = f"{response.headers.get('content-type')} {response.text[:160]}"
                except httpx.HTTPError as exc:
                    status = type(exc).__name__
                self.statuses[status] += 1
                if status != "429" and (not status.isdigit() or int(status) >= 400):
                    self.failures.append(f"{path}: {status} {detail}")
                time.sleep(0.02)

    def __enter__(self) -> Load:
        for w in self._workers:
            w.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for w in self._workers:
            w.join(30)

    def summary(self) -> str:
        shown = f"; first failures {self.failures[:3]}" if self.failures else ""
        return f"{sum(self.statuses.values())} requests, {dict(self.statuses)}{shown}"


class Topology:
    def __init__(self, standins: bool) -> None:
        self.project = f"twlookup-ci-{os.getpid()}"
        self.port = free_port()
        self.files = ["docker-compose.yml"]
        if standins:
            self.files.append("deploy/compose.standins.yml")
        self.files.append("deploy/compose.ci.yml")
        self.env = {
            **os.environ,
            "DOCKER_BUILDKIT": "0",  # the classic builder: BuildKit wants Docker Hub for its frontend
            "PROXY_PORT": str(self.port),
            "FRONT_NET": free_front_net(),
            "TWLOOKUP_PAY_TO_EVM": PAY_TO,
        }
        self.env.pop("TWLOOKUP_PUBLIC_URL", None)
        self.base = f"http://127.0.0.1:{self.port}"

    @property
    def compose_cmd(self) -> list[str]:
        cmd = ["docker", "compose", "-p", self.project]
        for f in self.files:
            cmd += ["-f", f]
        return cmd

    def compose(self, *args: str, timeout: float = 900, check: bool = True) -> str:
        return run([*self.compose_cmd, *args], env=self.env, timeout=timeout, check=check)

    def containers(self, service: str) -> list[str]:
        return self.compose("ps", "-q", service).split()

    def logs(self, container: str) -> str:
        done = subprocess.run(["docker", "logs", container], capture_output=True, text=True, timeout=60)
        return done.stdout + done.stderr

    def wait_for(self, path: str, seconds: float) -> float:
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            try:
                if httpx.get(self.base + path, timeout=3).status_code == 200:
                    return time.monotonic() - start
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        raise RuntimeError(f"{path} did not answer 200 through nginx within {seconds:.0f} s")


def wait_healthy(container: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if run(["docker", "inspect", "-f", "{{.State.Health.Status}}", container]).strip() == "healthy":
            return
        time.sleep(1)
    raise RuntimeError(f"{container[:12]} did not become healthy within {seconds:.0f} s")


def standins_needed() -> bool:
    """The official images, where they can be pulled; otherwise the stand-ins built from Debian."""
    if os.environ.get("TWLOOKUP_COMPOSE_STANDINS") in ("0", "1"):
        return os.environ["TWLOOKUP_COMPOSE_STANDINS"] == "1"
    try:
        run(["docker", "pull", "-q", "redis:7-alpine"], timeout=60)
        return False
    except (RuntimeError, subprocess.TimeoutExpired):
        return True


def build(top: Topology, report: Report) -> None:
    start = time.monotonic()
    if top.files[1:2] == ["deploy/compose.standins.yml"]:
        run(["sh", "deploy/images/build-base.sh"], timeout=900)
        run(["sh", "deploy/images/build-base.sh", "twlookup-base:unstable", "unstable"], timeout=900)
    top.compose("build", "-q", timeout=1200)
    report.figure("build (base reused where present)", f"{time.monotonic() - start:.0f} s")
    size = int(run(["docker", "image", "inspect", "-f", "{{.Size}}", "twlookup:0.1.0"]).strip())
    report.figure("app image size", f"{size / 1e6:.0f} MB")


def exercise(top: Topology, report: Report) -> None:
    start = time.monotonic()
    top.compose("up", "-d", timeout=600)
    healthy = time.monotonic() - start + top.wait_for("/healthz", 240)
    report.figure("up -d to first 200 through nginx", f"{healthy:.1f} s")
    apps = top.containers("app")
    report.check("two app replicas", len(apps) == 2, f"{len(apps)} running")

    seeded = [c for c in apps if "seeded the store" in top.logs(c)]
    report.check("the store seeded once", len(seeded) == 1, f"{len(seeded)} replicas seeded")

    with httpx.Client(base_url=top.base, timeout=20) as client:
        for _ in range(40):
            client.get("/holiday/api/long-weekends-2027")
        served = [top.logs(c).count("GET /holiday/api/long-weekends-2027 ") for c in apps]
        report.check("both replicas answer", all(n > 0 for n in served), f"requests per replica {served}")

        statuses = Counter(client.get("/share/api/rankings").status_code for _ in range(100))
        report.check(
            "share limit counted jointly (60/minute for both replicas)",
            statuses[200] <= 60 and statuses[429] >= 40,
            f"{dict(statuses)}",
        )
        spoofed = client.get("/share/api/rankings", headers={"X-Forwarded-For": "198.51.100.7"})
        report.check(
            "a spoofed X-Forwarded-For buys no new bucket", spoofed.status_code == 429, str(spoofed.status_code)
        )

        # the first paid request of a replica loads the x402 SDK; on a starved machine it may time out once
        challenge = None
        for _ in range(4):
            try:
                challenge = client.get("/motion/api/pro/export", timeout=60)
            except httpx.TimeoutException:
                continue
            if challenge.status_code != 503:
                break
            time.sleep(3)
        if challenge is None:
            raise RuntimeError("the paid route did not answer in 4 tries of 60 s")
        resource = ""
        if challenge.status_code == 402:
            body = challenge.json()
            resource = (body.get("resource") or {}).get("url", "") if isinstance(body, dict) else ""
        report.check(
            "the payment challenge names the published port",
            challenge.status_code == 402 and resource.startswith(f"http://localhost:{top.port}/"),
            f"{challenge.status_code} {resource or challenge.text[:300]}",
        )

    with Load(top.base, USER_ROUTES) as load:
        time.sleep(2)
        run(["docker", "kill", apps[0]])
        time.sleep(8)
    report.check("a replica killed under load: 0 failed requests", not load.failures, load.summary())
    # a killed container counts as stopped by hand: no restart policy brings it back
    run(["docker", "start", apps[0]])
    wait_healthy(apps[0], 180)
    with Load(top.base, USER_ROUTES, threads=2) as load:
        begun = time.monotonic()
        top.compose("restart", "db", timeout=120)
        recovered = None
        while time.monotonic() - begun < 60:
            answers = [httpx.get(top.base + "/holiday/api/long-weekends-2027", timeout=5).status_code for _ in range(6)]
            if all(s == 200 for s in answers):
                recovered = time.monotonic() - begun
                break
            time.sleep(0.5)
    report.check(
        "PostgreSQL restarted: the replicas recover by themselves",
        recovered is not None,
        f"{f'{recovered:.1f} s' if recovered else 'not within 60 s'}; during it {load.summary()}",
    )

    running = top.compose("ps", "--status", "running", "--services").split()
    report.check("the scheduler is alive", "scheduler" in running, ", ".join(sorted(running)))

    env = {**top.env, "COMPOSE": shlex.join(top.compose_cmd), "HEALTH_WAIT": "180"}
    with Load(top.base, USER_ROUTES) as load:
        begun = time.monotonic()
        out = run(["sh", "deploy/rolling-update.sh"], env=env, timeout=600)
        took = time.monotonic() - begun
    print("    " + out.strip().replace("\n", "\n    "))
    replaced = set(apps).isdisjoint(top.containers("app")) and len(top.containers("app")) == 2
    report.check("rolling update replaced both replicas", replaced, f"in {took:.0f} s")
    report.check("rolling update: 0 failed requests", not load.failures, load.summary())
    report.figure("requests failed during the rolling update", str(len(load.failures)))

    stats = run(["docker", "stats", "--no-stream", "--format", "{{.Name}} {{.MemUsage}}"])
    for line in sorted(stats.splitlines()):
        name, usage = line.split(" ", 1)
        if name.startswith(top.project):
            report.figure(f"memory {name.removeprefix(top.project + '-')}", usage.split(" / ")[0])

    top.compose("stop", "app", timeout=120)
    down = httpx.get(top.base + "/holiday/api/long-weekends-2027", timeout=30)
    report.check(
        "no replica up: nginx answers a problem+json 503 with Retry-After",
        down.status_code == 503
        and down.headers.get("content-type", "").startswith("application/problem+json")
        and "retry-after" in down.headers,
        f"{down.status_code} {down.headers.get('content-type')}",
    )


def main() -> int:
    engine = subprocess.run(["sh", "deploy/images/engine.sh"], cwd=ROOT)
    if engine.returncode == 3:
        print("compose-test: SKIPPED (no container engine can be had here; see above)")
        return 0
    if engine.returncode != 0:
        return 1
    report = Report()
    top = Topology(standins=standins_needed())
    print(f"compose-test: project {top.project}, files {' '.join(top.files)}, port {top.port}", flush=True)
    began = time.monotonic()
    try:
        build(top, report)
        exercise(top, report)
    except (RuntimeError, subprocess.TimeoutExpired, httpx.HTTPError) as exc:
        report.failures.append(f"stopped: {exc}")
        print(f"  FAIL {exc}", flush=True)
        for service in ("app", "db", "proxy"):
            print(top.compose("logs", "--tail", "30", service, check=False, timeout=60)[-3000:])
    finally:
        top.compose("down", "-v", "--remove-orphans", timeout=300, check=False)
    print(f"compose-test: {time.monotonic() - began:.0f} s in all")
    for name, value in report.figures.items():
        print(f"  {name}: {value}")
    if report.failures:
        print(f"compose-test: {len(report.failures)} failed:\n  " + "\n  ".join(report.failures))
        return 1
    print("compose-test: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
