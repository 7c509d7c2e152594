"""Every paid route of every service publishes bazaar discovery metadata that the x402 SDK's own
validator accepts, with query values typed as strings, an output schema with an example, and
routeTemplate / pathParams where the path has parameters."""

from __future__ import annotations

import json

import httpx
import pytest
from conftest import copy_store
from for_sale import put_on_sale
from x402.extensions.bazaar import validate_discovery_extension

from tests.service_examples import pro_paths
from twlookup.app import create_app
from twlookup.platform.store import engine as store_engine
from twlookup.services import load_services

PAID = [(s.name, op) for s in load_services() for op in s.operations if op.paid]


@pytest.fixture(scope="module")
def app(settings, template_store, tmp_path_factory):
    """Every paid route for sale (tests/for_sale.py): a route not for sale answers 503, not a 402."""
    url = copy_store(template_store, tmp_path_factory.mktemp("for-sale"))
    put_on_sale(url)
    yield create_app(settings.model_copy(update={"database_url": url}))
    store_engine.configure(settings.database_url)


def concrete(service: str, path: str) -> str:
    return pro_paths(service).get(path, path)


@pytest.mark.parametrize(("service", "op"), PAID, ids=[f"{s}:{op.path}" for s, op in PAID])
async def test_discovery_is_valid_and_complete(app, service, op):
    path = f"/{service}{concrete(service, op.path)}"
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        if op.method == "POST":
            r = await c.post(path, json=op.example or {})
        else:
            r = await c.get(path, params={k: v for k, v in (op.example or {}).items() if k not in op.path_params})
    assert r.status_code == 402, r.text[:300]
    bazaar = r.json()["extensions"]["bazaar"]
    result = validate_discovery_extension(bazaar)
    assert result.valid, result.errors
    assert "$ref" not in json.dumps(bazaar["schema"])
    info = bazaar["info"]
    assert info["input"]["method"] == op.method
    if op.example_output and not op.is_async:  # routes that call out or have effects show no answer
        assert (
            "example" in info["output"]
            and bazaar["schema"]["properties"]["output"]["properties"]["example"]["properties"]
        )
    if op.method == "GET":
        query = bazaar["schema"]["properties"]["input"]["properties"].get("queryParams", {"properties": {}})
        assert all(p["type"] == "string" for p in query["properties"].values())
        assert all(isinstance(v, str) for v in info["input"].get("queryParams", {}).values())
    if op.path_params:
        assert bazaar["routeTemplate"] == f"/{service}" + op.path.replace("{", ":").replace("}", "")
        assert set(info["input"]["pathParams"]) == set(op.path_params)
    assert len(r.headers["payment-required"]) < 40_000  # one header: README says what proxies must pass


def test_an_example_keeps_the_fewest_items_its_schema_allows():
    """Glossary's export once showed its whole answer (a megabyte, past every proxy's header
    limit) because one comparison's `differences` wanted two items: now such a list keeps two."""
    from twlookup.platform.payments.discovery import fitted_example

    schema = {
        "type": "object",
        "properties": {
            "terms": {"type": "array", "items": {"type": "string"}},
            "pairs": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"differences": {"type": "array", "minItems": 2, "items": {"type": "integer"}}},
                },
            },
        },
    }
    answer = {"terms": [f"t{i}" for i in range(1000)], "pairs": [{"differences": [1, 2, 3]}, {"differences": [4, 5]}]}
    assert fitted_example(answer, schema) == {"terms": ["t0"], "pairs": [{"differences": [1, 2]}]}


def test_an_example_the_schema_refuses_otherwise_is_the_whole_answer():
    """Cutting a text may break its pattern: then the answer is shown whole, as it was."""
    from twlookup.platform.payments.discovery import fitted_example

    schema = {"type": "object", "properties": {"note": {"type": "string", "pattern": "\\.$"}}}
    answer = {"note": "x" * 200 + "."}
    assert fitted_example(answer, schema) is answer
