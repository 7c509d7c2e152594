"""models.claude: Anthropic's Claude lifecycle from endoflife.date's API v1, refreshed from its
official URL (mocked with respx) in the API's real format: the fixture is a product document in the
v1 shape (envelope schema_version / generated_at / result; releases with name, label, isEoas,
eoasFrom, isEol, eolFrom, custom.recommendedReplacement, as endoflife.date's API answers it and its
consumers read it) carrying the values of endoflife.date's products/anthropic-claude.md (commit
0d3ee9b, read 2026-11-26). A curated record wins over an imported one."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import httpx
import pytest
import respx

from twlookup.domain.model_lifecycle_tables import ModelRow
from twlookup.platform.feeds.download import Bounds
from twlookup.platform.feeds.run import Refresher, Store, states
from twlookup.platform.store import engine as store_engine
from twlookup.services.models import data as models_data
from twlookup.services.models import feeds as claude_feed
from twlookup.services.models import parsers

FIXTURE = Path(__file__).parent / "fixtures" / "endoflife-anthropic-claude.json"
TODAY = date(2026, 11, 26)


@pytest.fixture
def store(fresh_store, monkeypatch):
    store_engine.configure(fresh_store)
    monkeypatch.setattr(models_data, "today_taipei", lambda: TODAY)  # the importer's check date
    return fresh_store


def refresh():
    bounds = Bounds(timeout=10, max_bytes=1_048_576, retries=0, backoff=0.0, backoff_max=0.0)
    refresher = Refresher(
        bounds=bounds, lease=timedelta(minutes=5), store=Store(), sleep=lambda s: None, today=lambda: TODAY
    )
    return refresher.refresh(claude_feed.CLAUDE)


def test_parse_reads_the_api_v1_document():
    models = {m.id: m for m in parsers.parse(FIXTURE.read_bytes(), TODAY)}
    sonnet4 = models["claude-sonnet-4-20250514"]
    assert (sonnet4.deprecated_on, sonnet4.retirement_date, sonnet4.replacement) == (
        date(2026, 4, 14),
        date(2026, 6, 15),
        "claude-sonnet-4-6",
    )
    # an active model: its eolFrom is Anthropic's tentative "not sooner than" date, not a shutdown
    sonnet5 = models["claude-sonnet-5"]
    assert sonnet5.retirement_date is None and sonnet5.deprecated_on is None
    assert "not before 2027-06-30" in sonnet5.note
    assert sonnet5.source == "https://endoflife.date/claude" and sonnet5.checked == TODAY
    with pytest.raises(ValueError, match=r"result\.releases"):
        parsers.parse(b'{"result": {"releases": []}}', TODAY)
    with pytest.raises(ValueError, match="not JSON"):
        parsers.parse(b"<html>", TODAY)
    with pytest.raises(ValueError, match="not a date"):
        parsers.parse(b'{"result": {"releases": [{"name": "x", "isEoas": true, "eoasFrom": "soon"}]}}', TODAY)


def test_refresh_adds_uncurated_models_and_leaves_curated_ones(store):
    with respx.mock(assert_all_called=True) as router:
        route = router.get(claude_feed.CLAUDE.urls[0]).mock(
            return_value=httpx.Response(200, content=FIXTURE.read_bytes(), headers={"ETag": '"v1"'})
        )
        (outcome,) = refresh()
    assert outcome.outcome == "imported" and route.call_count == 1
    with store_engine.session() as session:
        old = session.get(ModelRow, "claude-1.0")  # not in data/models/models.yaml: imported
        assert (old.retirement_date, old.replacement, old.source) == (
            date(2024, 11, 6),
            "claude-haiku-4-5-20251001",
            "https://endoflife.date/claude",
        )
        curated = session.get(ModelRow, "claude-sonnet-4-20250514")  # curated: the provider's page wins
        assert curated.source.startswith("https://platform.claude.com/")
        # curated from the same catalogue, so the import refreshes it
        sonnet5 = session.get(ModelRow, "claude-sonnet-5")
        assert sonnet5.checked == TODAY and "not before 2027-06-30" in sonnet5.note
    (state,) = states(Store(), "models.claude")
    assert state.data_label == "2026-11-25T06:12:41+00:00" and state.via == "refresh"


def test_a_reseed_keeps_imported_models(store, tmp_path):
    from twlookup.cli import DEFAULT_DATA
    from twlookup.services.models.data import seed_models

    with respx.mock as router:
        router.get(claude_feed.CLAUDE.urls[0]).mock(return_value=httpx.Response(200, content=FIXTURE.read_bytes()))
        refresh()
    with store_engine.session() as session, session.begin():
        seed_models(session, DEFAULT_DATA)
    with store_engine.session() as session:
        assert session.get(ModelRow, "claude-instant-1.1") is not None


def test_unreachable_catalogue_changes_nothing(store):
    with respx.mock as router:
        router.get(claude_feed.CLAUDE.urls[0]).mock(return_value=httpx.Response(503))
        (outcome,) = refresh()
    assert outcome.outcome == "failed"
    with store_engine.session() as session:
        assert session.get(ModelRow, "claude-1.0") is None
