"""The container image and the compose topology, checked without a container daemon.

No daemon runs where these tests run, so the image is never built and the compose file never
started here. What can be checked is checked: every variable the compose file gives the app is a
setting it reads, and the values validate as settings; the ports, names and limits of the app,
the Dockerfile, the compose file and nginx agree; every health check asks for a route or command
that exists, and the image's health check command works against a live server; volumes and
networks are declared where they are used.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from yaml_files import load_yaml

from twlookup.cli import build_parser
from twlookup.services import CATALOG
from twlookup.settings import Settings, known_variables

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = load_yaml((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
# nginx.conf and the server blocks' shared part it includes (nginx-app.conf)
NGINX = "\n".join((ROOT / "deploy" / f).read_text(encoding="utf-8") for f in ("nginx.conf", "nginx-app.conf"))
PLAIN = {"DATABASE_URL", "REDIS_URL"}  # the conventional names Settings also reads
# what an operator passes to `docker compose up` for the variables it requires
GIVEN = {"TWLOOKUP_PAY_TO_EVM": "0x1111111111111111111111111111111111111111"}

# a default may hold another ${...}: the innermost is replaced first, until none is left
INTERPOLATION = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^{}$]*))?\}")


def interpolate(value: str, given: dict[str, str]) -> str:
    """Compose's ${NAME}, ${NAME:-default}, ${NAME-default} and ${NAME:?error}."""

    def one(match: re.Match[str]) -> str:
        name, op, arg = match["name"], match["op"], match["arg"]
        if name in given and (given[name] or op not in (":-", ":?")):
            return given[name]
        if op in (":-", "-"):
            return arg
        if op in (":?", "?"):
            raise KeyError(f"compose requires {name}: {arg}")
        return ""

    while INTERPOLATION.search(value):
        value = INTERPOLATION.sub(one, value)
    return value


def required_variables() -> set[str]:
    text = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    return {m["name"] for m in INTERPOLATION.finditer(text) if m["op"] in (":?", "?")}


def service(name: str) -> dict[str, Any]:
    return COMPOSE["services"][name]


def app_environment(given: dict[str, str] = GIVEN) -> dict[str, str]:
    return {k: interpolate(str(v), given) for k, v in service("app")["environment"].items()}


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined, comments dropped."""
    out, pending = [], ""
    for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending += line.rstrip()
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        word, _, rest = pending.strip().partition(" ")
        out.append((word.upper(), rest.strip()))
        pending = ""
    return out


def final_stage() -> list[tuple[str, str]]:
    instructions = dockerfile()
    last = max(i for i, (word, _) in enumerate(instructions) if word == "FROM")
    return instructions[last:]


def nginx_directive(name: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(rf"^\s*{name}\s+([^;{{}}]+);", NGINX, re.M)]


def nginx_size(value: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kKmM]?)", value).groups()
    return int(number) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit.lower()]


def compose_settings(monkeypatch: pytest.MonkeyPatch, given: dict[str, str] = GIVEN) -> Settings:
    for key in list(os.environ):
        if key.startswith("TWLOOKUP_") or key in PLAIN:
            monkeypatch.delenv(key)
    for key, value in app_environment(given).items():
        monkeypatch.setenv(key, value)
    return Settings(_env_file=None)


# -- the variables ------------------------------------------------------------------------------


def test_every_variable_given_to_the_app_is_a_setting():
    known = known_variables(e.name for e in CATALOG) | PLAIN
    given = set(service("app")["environment"]) | set(service("scheduler")["environment"])
    assert given and given <= known, given - known
    image_env = {
        name
        for word, args in dockerfile()
        if word == "ENV"
        for name in re.findall(r"(?:^|\s)([A-Z_][A-Z0-9_]*)=", args)
        if name.startswith("TWLOOKUP_")
    }
    assert image_env and image_env <= known, image_env - known


def test_compose_values_are_valid_settings_and_point_at_the_services(monkeypatch):
    s = compose_settings(monkeypatch)
    db, redis_url = urlsplit(s.database_url), urlsplit(s.redis_url or "")
    pg = service("db")["environment"]
    assert db.scheme.startswith("postgres") and db.hostname == "db" and db.port == 5432
    assert (db.username, db.password, db.path.lstrip("/")) == (
        pg["POSTGRES_USER"],
        interpolate(pg["POSTGRES_PASSWORD"], GIVEN),
        pg["POSTGRES_DB"],
    )
    assert redis_url.hostname == "redis" and (redis_url.port or 6379) == 6379
    assert s.facilitator == "remote" and s.facilitator_url.startswith("https://")
    assert s.pay_to_evm == GIVEN["TWLOOKUP_PAY_TO_EVM"]
    assert s.workers >= 1
    public = urlsplit(s.base_url())
    published = service("proxy")["ports"][0]
    assert public.port == int(interpolate(published, {}).split(":")[0])  # the proxy's published port


def test_the_receiving_address_must_be_given():
    """A compose file must not pay into an address whose key is public (the local ledger's)."""
    assert required_variables() == {"TWLOOKUP_PAY_TO_EVM"}
    with pytest.raises(KeyError, match="TWLOOKUP_PAY_TO_EVM"):
        app_environment({})


def test_the_app_trusts_forwarded_addresses_from_the_proxy_alone(monkeypatch):
    s = compose_settings(monkeypatch)
    proxy_ip = ipaddress.ip_address(interpolate(service("proxy")["networks"]["front"]["ipv4_address"], {}))
    trusted = [ipaddress.ip_network(c) for c in s.trusted_proxies]
    assert trusted and all(n.num_addresses == 1 for n in trusted) and any(proxy_ip in n for n in trusted)
    (subnet,) = COMPOSE["networks"]["front"]["ipam"]["config"]
    assert proxy_ip in ipaddress.ip_network(interpolate(subnet["subnet"], {}))
    replicas = ipaddress.ip_network(interpolate(subnet["ip_range"], {}))
    assert proxy_ip not in replicas, "replicas could be given the proxy's address"
    assert "front" in service("app")["networks"]
    assert "X-Forwarded-For $remote_addr" in NGINX  # the edge replaces what a client claims


# -- ports, images, health checks -------------------------------------------------------------


def test_one_port_everywhere(monkeypatch):
    s = compose_settings(monkeypatch)
    exposed = {int(args) for word, args in final_stage() if word == "EXPOSE"}
    assert exposed == {s.port} == {int(p) for p in service("app")["expose"]}
    (upstream,) = nginx_directive("server")
    host, port = upstream.split()[0].split(":")
    assert host == "app" and int(port) == s.port
    assert int(interpolate(service("proxy")["ports"][0], {}).split(":")[1]) == int(nginx_directive("listen")[0])


def test_images_are_pinned_and_the_app_is_built_here():
    for name, svc in COMPOSE["services"].items():
        if name == "app":
            assert svc["build"] == "." and (ROOT / "Dockerfile").is_file()
            continue
        image = svc["image"]
        assert ":" in image and not image.endswith(":latest"), f"{name}: pin the image's version"
    assert service("app")["deploy"]["replicas"] == 2


def test_the_app_waits_for_a_healthy_database_and_redis():
    depends = service("app")["depends_on"]
    for name in ("db", "redis"):
        assert depends[name] == {"condition": "service_healthy"}
        assert "healthcheck" in service(name)
    assert service("proxy")["depends_on"]["app"] == {"condition": "service_healthy"}
    assert any(word == "HEALTHCHECK" for word, _ in final_stage()), "service_healthy needs the image's check"
    pg = service("db")["environment"]
    check = service("db")["healthcheck"]["test"]
    assert check[:2] == ["CMD", "pg_isready"]
    assert check[check.index("-U") + 1] == pg["POSTGRES_USER"] and check[check.index("-d") + 1] == pg["POSTGRES_DB"]
    assert service("redis")["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]


def test_volumes_and_networks_are_declared_where_used():
    declared_volumes = set(COMPOSE.get("volumes") or {})
    declared_networks = set(COMPOSE.get("networks") or {})
    used = set()
    for name, svc in COMPOSE["services"].items():
        for mount in svc.get("volumes", []):
            source = mount.split(":")[0]
            if source.startswith((".", "/")):
                assert (ROOT / source).exists(), f"{name}: {source} is not in the repository"
            else:
                used.add(source)
                assert source in declared_volumes, f"{name}: volume {source} is not declared"
        networks = svc.get("networks", [])
        for network in networks if isinstance(networks, list) else list(networks):
            assert network in declared_networks, f"{name}: network {network} is not declared"
    assert used == declared_volumes == {"pgdata"}
    assert "pgdata:/var/lib/postgresql/data" in service("db")["volumes"]
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in service("proxy")["volumes"]


def test_one_scheduler_refreshes_the_feeds_for_the_store():
    """Exactly one feeds scheduler (not one per app replica), on the app's image and database,
    started after the app has migrated the store, with no HTTP health check it could not pass;
    the app replicas do not run the schedule themselves."""
    from twlookup.cli import build_parser

    assert set(COMPOSE["services"]) == {"proxy", "app", "db", "redis", "scheduler"}
    scheduler, app = service("scheduler"), service("app")
    assert scheduler["image"] == app["image"] and "deploy" not in scheduler  # one replica
    command = scheduler["command"]
    assert command[:2] == ["twlookup", "scheduler"]
    build_parser().parse_args(command[1:])  # a command the CLI has
    assert scheduler["environment"]["DATABASE_URL"] == app["environment"]["DATABASE_URL"]
    assert scheduler["depends_on"]["app"]["condition"] == "service_healthy"
    assert scheduler["healthcheck"] == {"disable": True}
    assert "--refresh" not in " ".join(app.get("command") or [])
    # the replicas' serve would refresh by default with one worker: the compose file switches it off, in a
    # value the settings read as off
    assert app["environment"]["TWLOOKUP_REFRESH"] == "off"
    from twlookup.cli import refresh_choice
    from twlookup.settings import Settings

    setting = Settings(refresh=app["environment"]["TWLOOKUP_REFRESH"], _env_file=None).refresh
    assert refresh_choice(None, setting, 1)[0] is False


# -- nginx --------------------------------------------------------------------------------------


def test_proxy_limits_match_the_app(monkeypatch):
    s = compose_settings(monkeypatch)
    assert nginx_size(nginx_directive("client_max_body_size")[0]) == s.max_body_bytes
    count, size = nginx_directive("large_client_header_buffers")[0].split()
    assert nginx_size(size) == s.max_header_bytes and int(count) >= 1
    assert nginx_directive("keepalive_timeout")[0] == f"{s.keep_alive_seconds}s"
    # the proxy lets go of slow clients no later than the app would (the app bounds the head and the
    # whole body; nginx bounds the head and each read of the body)
    assert float(nginx_directive("client_header_timeout")[0].removesuffix("s")) <= s.header_timeout_seconds
    assert float(nginx_directive("client_body_timeout")[0].removesuffix("s")) <= s.body_timeout_seconds
    # the largest 402 carries about 35 KB of discovery metadata in one header (README)
    assert nginx_size(nginx_directive("proxy_buffer_size")[0]) >= 36 * 1024
    assert nginx_directive("resolver")[0].split()[0] == "127.0.0.11"  # Docker's DNS, for the replicas


# -- the Dockerfile -----------------------------------------------------------------------------


def test_dockerfile_is_multi_stage_slim_and_unprivileged():
    instructions = dockerfile()
    args = {k: v for word, a in instructions if word == "ARG" and "=" in a for k, v in [a.split("=", 1)]}
    bases = [a.split()[0] for word, a in instructions if word == "FROM"]
    assert len(bases) >= 2
    for base in bases:
        image = args.get(base.strip("${}"), base)
        assert re.fullmatch(r"python:3\.1[1-9]-slim(-\w+)?", image), image
    build = "\n".join(a for word, a in instructions if word == "RUN")
    assert "pip wheel" in build and "/dist/twlookup-*.whl" in build
    copied = " ".join(a for word, a in instructions if word == "COPY")
    assert "migrations" in copied and "data" in copied
    users = [a for word, a in final_stage() if word == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert any(word == "RUN" and "useradd" in a and users[-1] in a.split() for word, a in final_stage())
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".env", ".venv", ".git"} <= set(ignored)


def test_cmd_serves_on_all_interfaces_with_workers_from_the_environment(monkeypatch):
    (cmd,) = [json.loads(a) for word, a in final_stage() if word == "CMD"]  # exec form: a JSON array
    assert cmd[:2] == ["twlookup", "serve"]
    parsed = build_parser().parse_args(cmd[1:])
    assert parsed.host == "0.0.0.0"
    assert parsed.workers is None and parsed.port is None, "workers and port come from TWLOOKUP_* settings"
    env = dict(kv.split("=", 1) for word, a in final_stage() if word == "ENV" for kv in shlex.split(a))
    monkeypatch.delenv("TWLOOKUP_WORKERS", raising=False)
    monkeypatch.setenv("TWLOOKUP_WORKERS", env["TWLOOKUP_WORKERS"])
    assert Settings(_env_file=None).workers == int(env["TWLOOKUP_WORKERS"]) >= 1


def healthcheck_command() -> list[str]:
    (check,) = [a for word, a in final_stage() if word == "HEALTHCHECK"]
    command = json.loads(check[check.index("CMD") + len("CMD") :].strip())
    assert command[0] == "python" and not {"curl", "wget"} & set(" ".join(command).split())
    return command


def test_healthcheck_asks_for_a_route_the_app_has():
    command = healthcheck_command()
    path = re.search(r"127\.0\.0\.1:%s(/[a-z]+)", command[-1]).group(1)
    assert path == "/healthz"
    assert "'TWLOOKUP_PORT', '8000'" in command[-1]


async def test_healthz_route_answers(client):
    r = await client.get("/healthz")
    assert r.status_code == 200 and r.json()["status"] == "ok"


def test_healthcheck_command_passes_against_a_live_server_and_fails_without_one(live_url):
    command = [sys.executable, *healthcheck_command()[1:]]
    port = urlsplit(live_url).port
    ok = subprocess.run(command, env=dict(os.environ, TWLOOKUP_PORT=str(port)), capture_output=True, timeout=30)
    assert ok.returncode == 0, ok.stderr
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    down = subprocess.run(command, env=dict(os.environ, TWLOOKUP_PORT=str(closed)), capture_output=True, timeout=30)
    assert down.returncode != 0


# -- what the run of 2026-11-25 found -----------------------------------------------------------


def test_the_public_url_follows_the_published_port(monkeypatch):
    """Payment challenges name TWLOOKUP_PUBLIC_URL: with only PROXY_PORT changed it must follow."""
    s = compose_settings(monkeypatch, {**GIVEN, "PROXY_PORT": "18443"})
    assert s.public_url.rstrip("/") == "http://localhost:18443"
    published = interpolate(service("proxy")["ports"][0], {"PROXY_PORT": "18443"})
    assert published.split(":")[0] == "18443"


def test_one_variable_moves_the_proxy_network(monkeypatch):
    given = {**GIVEN, "FRONT_NET": "10.77.3"}
    s = compose_settings(monkeypatch, given)
    proxy_ip = ipaddress.ip_address(interpolate(service("proxy")["networks"]["front"]["ipv4_address"], given))
    (subnet,) = COMPOSE["networks"]["front"]["ipam"]["config"]
    assert proxy_ip in ipaddress.ip_network(interpolate(subnet["subnet"], given))
    assert [ipaddress.ip_network(c) for c in s.trusted_proxies] == [ipaddress.ip_network(f"{proxy_ip}/32")]


def test_no_frontend_image_is_fetched_and_health_is_checked_soon():
    """A `# syntax=` line makes every BuildKit build fetch a frontend from Docker Hub; a 15 s
    health-check interval added about 8 s to every start."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert not re.search(r"^#\s*syntax\s*=", text, re.M | re.I)
    (check,) = [a for w, a in final_stage() if w == "HEALTHCHECK"]
    interval = re.search(r"--interval=(\d+)s", check)
    assert interval and int(interval.group(1)) <= 5


def test_compose_v2_is_stated():
    head = (ROOT / "docker-compose.yml").read_text(encoding="utf-8").split("\nname:")[0]
    assert "Compose v2" in head and "1.29" in head


def test_nginx_answers_problem_json_when_no_replica_can():
    assert re.search(r"error_page\s+502 504\s*=\s*@unavailable;", NGINX)
    block = NGINX[NGINX.index("location @unavailable") :]
    assert "default_type application/problem+json;" in block and "add_header Retry-After" in block
    body = re.search(r"return 503 '(.*)';", block).group(1)
    assert json.loads(body)["status"] == 503
    assert "proxy_next_upstream error timeout" in NGINX  # a stopping replica's requests go elsewhere


def test_the_optional_nginx_parts_are_examples_until_copied():
    """deploy/nginx.d is mounted whole: only *.conf is included, so the examples stay inert."""
    assert "include /etc/nginx/twlookup.d/*.conf;" in NGINX
    examples = sorted(p.name for p in (ROOT / "deploy" / "nginx.d").iterdir())
    assert examples and all(name.endswith(".conf.example") for name in examples)
    assert "./deploy/nginx.d:/etc/nginx/twlookup.d:ro" in service("proxy")["volumes"]
