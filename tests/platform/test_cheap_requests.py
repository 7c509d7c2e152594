"""Cheap requests stay cheap: the index reuses its paid-route list, builds no schema, and is rate-limited like
every other route; an unknown model id costs about what a hit does."""

from __future__ import annotations

import difflib

import httpx
import pytest

from twlookup.app import create_app
from twlookup.platform.listing import ServiceListing

pytestmark = pytest.mark.asyncio


async def test_index_builds_paid_routes_once_and_is_rate_limited(settings, monkeypatch):
    built = []
    original = ServiceListing._build_paid_routes
    monkeypatch.setattr(
        ServiceListing,
        "_build_paid_routes",
        lambda self, base, schemas: built.append((base, schemas)) or original(self, base, schemas),
    )
    app = create_app(settings.model_copy(update={"rate_limit_default": "5/minute"}))
    transport = httpx.ASGITransport(app=app, client=("10.66.1.1", 1))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        codes = [(await c.get("/")).status_code for _ in range(6)]
    assert codes == [200] * 5 + [429]
    assert len(built) == len(set(built))  # each service's listing built once, then reused
    # the index shows no schema, so it builds none (most of a first index's time); /api/pro does
    assert built and not any(schemas for _, schemas in built)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        paid = (await c.get("/bikes/api/pro")).json()["paid_routes"]
    assert all(r["input_schema"]["type"] == "object" and r["output_schema"]["type"] == "object" for r in paid)
    assert ("/bikes", True) in built


async def test_unknown_model_suggestions_are_precomputed_and_match_difflib(settings, monkeypatch):
    """A miss ranks a short list of names sharing letter pairs with it, not every known name
    (which cost six times a hit), and suggests what a ranking over every name would."""
    from twlookup.domain import model_lifecycle
    from twlookup.platform.store import engine as store_engine
    from twlookup.services.models.data import CATALOG

    store_engine.configure(settings.database_url)
    catalog = CATALOG.get()
    keys = list(catalog.lookup)
    for typo in ("gpt-4o-mni", "claude-3-opus-2024022", "gemini-1.5-flsh", "o1-previw"):
        assert catalog.suggestions(typo)[:1] == difflib.get_close_matches(typo, keys, n=1, cutoff=0.6), typo
    ranked: list[int] = []
    real = difflib.get_close_matches

    def counting(word, possibilities, *args, **kwargs):
        ranked.append(len(possibilities))
        return real(word, possibilities, *args, **kwargs)

    monkeypatch.setattr(model_lifecycle.difflib, "get_close_matches", counting)
    for i in range(20):
        catalog.suggestions(f"no-such-model-{i}")
    assert len(keys) > 100 and len(ranked) == 20 and max(ranked) <= 40, (len(keys), ranked)


async def test_signature_recovery_runs_on_libsecp256k1():
    """A paid request recovers the payer from its EIP-712 signature (verify, then settle):
    eth-keys' pure-Python backend costs tens of milliseconds per request, coincurve well under one."""
    from eth_keys.backends import get_backend

    assert type(get_backend()).__name__ == "CoinCurveECCBackend"
