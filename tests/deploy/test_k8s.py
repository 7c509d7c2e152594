"""The Kubernetes manifests (deploy/k8s), held to the compose file's rules without a cluster:
every variable is a setting and the values validate; one image, run as the Dockerfile's user with a
read-only root; replicas probed on /healthz on the app's port and rolled one at a time; exactly
one scheduler; the Job migrates and seeds with commands the CLI has; the Service and Ingress reach
the app."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from yaml_files import load_yaml

from tests.deploy.test_compose import GIVEN, PLAIN, final_stage
from twlookup.cli import build_parser
from twlookup.services import CATALOG
from twlookup.settings import Settings, known_variables

K8S = Path(__file__).resolve().parents[2] / "deploy" / "k8s"


def manifests() -> dict[str, dict[str, Any]]:
    return {p.name: load_yaml(p.read_text(encoding="utf-8")) for p in sorted(K8S.glob("*.yaml"))}


def by_kind(kind: str) -> list[dict[str, Any]]:
    return [m for m in manifests().values() if m.get("kind") == kind]


def deployment(name: str) -> dict[str, Any]:
    (found,) = [d for d in by_kind("Deployment") if d["metadata"]["name"] == name]
    return found


def pod_specs() -> list[dict[str, Any]]:
    return [d["spec"]["template"]["spec"] for d in by_kind("Deployment") + by_kind("Job")]


def config() -> dict[str, str]:
    (cm,) = by_kind("ConfigMap")
    return cm["data"]


def secret_example() -> dict[str, str]:
    lines = (K8S / "secret.example.env").read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))


def cli_args(command: list[str]) -> list[str]:
    assert command[0] == "twlookup", command
    return command[1:]


def test_kustomization_lists_every_manifest():
    listed = set(manifests()["kustomization.yaml"]["resources"])
    assert listed == set(manifests()) - {"kustomization.yaml"}


def test_every_variable_is_a_setting_and_the_values_validate(monkeypatch):
    known = known_variables(e.name for e in CATALOG) | PLAIN
    given = {**config(), **secret_example(), **GIVEN}
    assert set(given) <= known, set(given) - known
    for key in list(os.environ):
        if key.startswith("TWLOOKUP_") or key in PLAIN:
            monkeypatch.delenv(key)
    for key, value in given.items():
        monkeypatch.setenv(key, value)
    settings = Settings(_env_file=None)
    assert settings.database_url.startswith("postgresql") and settings.redis_url
    assert settings.trusted_proxies, "the ingress controller's X-Forwarded-For must be believed"
    assert config()["TWLOOKUP_REFRESH"] == "off", "the replicas must not refresh: the scheduler does"


def test_one_image_run_unprivileged_with_a_read_only_root():
    uid = next(int(a.split("--uid")[1].split()[0]) for w, a in final_stage() if w == "RUN" and "--uid" in a)
    for spec in pod_specs():
        assert spec["securityContext"] == {"runAsNonRoot": True, "runAsUser": uid}
        mounts = {v["name"] for v in spec.get("volumes", [])}
        for container in spec["containers"]:
            assert container["image"] == "twlookup"
            assert container["securityContext"]["readOnlyRootFilesystem"] is True
            assert container["securityContext"]["allowPrivilegeEscalation"] is False
            assert {"name": "tmp", "mountPath": "/tmp"} in container["volumeMounts"] and "tmp" in mounts
            refs = {next(iter(r.values()))["name"] for r in container["envFrom"]}
            assert refs == {"twlookup"}


def test_replicas_are_probed_on_healthz_and_rolled_one_at_a_time(monkeypatch):
    app = deployment("twlookup-app")
    assert app["spec"]["replicas"] == 2
    assert app["spec"]["strategy"]["rollingUpdate"] == {"maxUnavailable": 0, "maxSurge": 1}
    (container,) = app["spec"]["template"]["spec"]["containers"]
    args = build_parser().parse_args(cli_args(container["command"]))
    assert args.host == "0.0.0.0" and not getattr(args, "refresh", False)
    (port,) = container["ports"]
    exposed = {int(a) for w, a in final_stage() if w == "EXPOSE"}
    assert {port["containerPort"], int(config()["TWLOOKUP_PORT"])} == exposed
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"] == {"path": "/healthz", "port": port["name"]}
    assert container["livenessProbe"]["initialDelaySeconds"] >= 60, "the first replica may be seeding"


async def test_the_probed_route_answers(client):
    assert (await client.get("/healthz")).status_code == 200


def test_exactly_one_scheduler():
    scheduler = deployment("twlookup-scheduler")
    assert scheduler["spec"]["replicas"] == 1 and scheduler["spec"]["strategy"] == {"type": "Recreate"}
    (container,) = scheduler["spec"]["template"]["spec"]["containers"]
    assert cli_args(container["command"]) == ["scheduler"]
    build_parser().parse_args(["scheduler"])


def test_the_job_migrates_and_seeds_with_commands_the_cli_has():
    (job,) = by_kind("Job")
    (container,) = job["spec"]["template"]["spec"]["containers"]
    shell, flag, script = container["command"]
    assert (shell, flag) == ("sh", "-c")
    steps = [step.split() for step in script.split("&&")]
    assert steps == [["twlookup", "db", "upgrade"], ["twlookup", "seed"]]
    for step in steps:
        build_parser().parse_args(step[1:])


def test_the_service_and_ingress_reach_the_app():
    (service,) = by_kind("Service")
    app = deployment("twlookup-app")
    assert service["spec"]["selector"] == app["spec"]["selector"]["matchLabels"]
    (port,) = service["spec"]["ports"]
    assert port["targetPort"] == "http"
    (ingress,) = by_kind("Ingress")
    (path,) = ingress["spec"]["rules"][0]["http"]["paths"]
    assert path["backend"]["service"] == {"name": service["metadata"]["name"], "port": {"name": "http"}}


@pytest.mark.parametrize("name", ["app.yaml", "scheduler.yaml", "migrate-job.yaml"])
def test_no_manifest_carries_a_secret(name):
    text = (K8S / name).read_text(encoding="utf-8")
    assert "DATABASE_URL" not in text and "PAY_TO" not in text
