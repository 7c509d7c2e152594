"""Pure rules of the models service: status from dates, finding ids in code, replacement chains."""

from datetime import date

import pytest

from twlookup.domain.model_lifecycle import Catalog, Model, status
from twlookup.services.models.logic import action, month_bounds, replacement_chain


def model(ident: str, *, aliases=(), deprecated=None, retire=None, replacement=None, provider="openai") -> Model:
    return Model(
        id=ident,
        provider=provider,
        name=ident,
        kind="chat",
        aliases=tuple(aliases),
        deprecated_on=deprecated,
        retirement_date=retire,
        replacement=replacement,
        source="https://example.org/notice",
        checked=date(2026, 11, 22),
    )


TODAY = date(2026, 11, 22)


@pytest.mark.parametrize(
    ("deprecated", "retire", "expected"),
    [
        (None, None, "active"),
        (date(2026, 1, 1), None, "deprecated"),
        (date(2026, 1, 1), date(2026, 11, 23), "scheduled"),
        (date(2026, 1, 1), date(2026, 11, 22), "retired"),  # the shutdown day itself: requests fail
        (None, date(2020, 1, 1), "retired"),
    ],
)
def test_status_follows_dates(deprecated, retire, expected):
    assert status(model("m-1", deprecated=deprecated, retire=retire), TODAY) == expected


def test_status_moves_with_time_without_data_edit():
    m = model("m-1", deprecated=date(2026, 1, 1), retire=date(2027, 1, 14))
    assert status(m, date(2027, 1, 13)) == "scheduled"
    assert status(m, date(2027, 1, 14)) == "retired"


@pytest.fixture
def catalog() -> Catalog:
    return Catalog(
        {
            m.id: m
            for m in [
                model("gpt-4", retire=date(2026, 10, 23), replacement="gpt-4o"),
                model("gpt-4o", retire=date(2027, 1, 14), replacement="gpt-5"),
                model("gpt-4.1", replacement=None),
                model("gpt-5"),
                model(
                    "claude-3-haiku-20240307", aliases=["claude-3-haiku"], provider="anthropic", retire=date(2026, 2, 1)
                ),
                model("loop-a", replacement="loop-b"),
                model("loop-b", replacement="loop-a"),
            ]
        }
    )


def test_find_in_text_respects_boundaries(catalog):
    text = 'a = "gpt-4o"; b = "gpt-4.1"\nc = client(model="gpt-4")  # not gpt-4o-mini-tts-x'
    found = [(m.id, written, how) for m, written, how in catalog.find_in_text(text)]
    assert found == [("gpt-4o", "gpt-4o", "id"), ("gpt-4.1", "gpt-4.1", "id"), ("gpt-4", "gpt-4", "id")]


def test_find_in_text_snapshots_aliases_and_provider_prefixes(catalog):
    text = "models: [openai/gpt-4o-2024-05-13, anthropic.claude-3-haiku-20240307-v1:0, claude-3-haiku]"
    found = [(m.id, how) for m, _, how in catalog.find_in_text(text)]
    assert found == [("gpt-4o", "snapshot"), ("claude-3-haiku-20240307", "snapshot")]


def test_find_in_text_ignores_words_and_unknown_ids(catalog):
    assert catalog.find_in_text("the gpt model and llama-9 are not in the catalog; gpt-4x neither") == []


def test_replacement_chain_stops_at_first_not_retiring_and_on_loops(catalog):
    chain = replacement_chain(catalog, catalog.models["gpt-4"], TODAY)
    assert [m.id for m in chain] == ["gpt-4o", "gpt-5"]
    assert [m.id for m in replacement_chain(catalog, catalog.models["loop-a"], TODAY)] == ["loop-b"]


def test_action_texts(catalog):
    assert action(catalog.models["gpt-4"], TODAY) == "Requests to gpt-4 fail since 2026-10-23. Move to gpt-4o."
    assert action(catalog.models["gpt-4o"], TODAY) == "gpt-4o shuts down on 2027-01-14 (53 days). Move to gpt-5."
    assert action(catalog.models["gpt-5"], TODAY) == "gpt-5 is active; no retirement has been announced."


def test_month_bounds():
    assert month_bounds("2027-02") == (date(2027, 2, 1), date(2027, 2, 28))
    assert month_bounds("2028-02") == (date(2028, 2, 1), date(2028, 2, 29))
    assert month_bounds("2026-12") == (date(2026, 12, 1), date(2026, 12, 31))
    assert month_bounds("9999-12") == (date(9999, 12, 1), date(9999, 12, 31))
