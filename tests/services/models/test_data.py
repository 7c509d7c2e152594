"""The shipped model data: enough models, each with an official source and consistent links."""

from typing import get_args

from yaml_files import load_yaml

from twlookup.cli import DEFAULT_DATA
from twlookup.domain.model_lifecycle import Kind, Provider

DOC = load_yaml((DEFAULT_DATA / "models" / "models.yaml").read_text(encoding="utf-8"))


def test_at_least_sixty_models_from_three_major_providers():
    models = DOC["models"]
    assert len(models) >= 60
    providers = {m["provider"] for m in models}
    assert {"openai", "anthropic", "google"} <= providers


def test_every_record_is_sourced_and_well_formed():
    ids = set()
    for m in DOC["models"]:
        assert m["source"].startswith("https://"), m["id"]
        assert m["kind"] in get_args(Kind), m["id"]
        assert m["provider"] in get_args(Provider), m["id"]
        assert m["id"] not in ids, f"duplicate id {m['id']}"
        ids.add(m["id"])
        if m.get("retirement_date") and m.get("deprecated_on"):
            assert m["deprecated_on"] <= m["retirement_date"], m["id"]
    aliases = [a for m in DOC["models"] for a in m.get("aliases") or []]
    assert not ids & set(aliases), "an alias must not also be a model id"
