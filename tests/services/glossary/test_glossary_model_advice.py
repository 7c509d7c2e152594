"""Issue 22: the how-tos must not recommend a model its provider is retiring. The models a how-to
names are looked up in the models service's retirement records (data/models/models.yaml: OpenAI
announced gpt-4o-mini, snapshot gpt-4o-mini-2024-07-18, deprecated 2026-10-14 with shutdown on
2027-01-14 and gpt-6-luna as replacement) and their state is computed for the day asked."""

from datetime import date

import pytest

from twlookup.domain.model_lifecycle import Catalog, Model
from twlookup.platform import clock
from twlookup.services.glossary.logic import model_advice
from twlookup.services.glossary.records import CodeBlock

G = "/glossary/api"
HOWTO = "call-chat-api-with-httpx"


def _model(id_: str, **kw) -> Model:
    facts = {"provider": "openai", "name": id_, "kind": "chat", "aliases": (), "source": "https://x.test/d"}
    return Model(id=id_, checked=date(2026, 11, 26), **{**facts, **kw})


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("day", "state", "in_code", "not_in_code"),
    [
        (date(2026, 11, 26), "scheduled", "gpt-6-luna", '"gpt-4o-mini"'),  # announced, shutdown ahead
        (date(2027, 2, 1), "retired", "gpt-6-luna", '"gpt-4o-mini"'),  # after the shutdown
        (date(2026, 10, 1), "active", '"gpt-4o-mini"', "gpt-6-luna"),  # before the notice
    ],
)
async def test_howto_code_follows_the_models_state_on_the_day(client, monkeypatch, day, state, in_code, not_in_code):
    monkeypatch.setattr(clock, "_fixed", day)
    body = (await client.get(f"{G}/howto", params={"id": HOWTO})).json()
    checks = {m["model"]: m for m in body["models"]}
    check = checks["gpt-4o-mini-2024-07-18"]
    assert check["written"] == "gpt-4o-mini" and check["state"] == state
    assert check["retirement_date"] == "2027-01-14"
    assert check["source"]["url"].startswith("https://") and check["source"]["checked"]
    code = "\n".join(block["code"] for block in body["code"])
    assert in_code in code and not_in_code not in code
    assert check["used_instead"] == (None if state == "active" else "gpt-6-luna")


@pytest.mark.asyncio
async def test_no_howto_answer_recommends_a_retiring_model(client, monkeypatch):
    monkeypatch.setattr(clock, "_fixed", date(2026, 11, 26))
    ids = (await client.get(f"{G}/terms")).json()["howtos"]
    for hid in ids:
        body = (await client.get(f"{G}/howto", params={"id": hid})).json()
        code = "\n".join(block["code"] for block in body["code"])
        for m in body["models"]:
            if m["state"] != "active":
                assert m["used_instead"] or "沒有指名" in m["note"], (hid, m)
                if m["used_instead"]:
                    assert f'"{m["written"]}"' not in code, (hid, m["written"])


@pytest.mark.asyncio
@pytest.mark.parametrize("day", [date(2026, 10, 1), date(2026, 11, 26), date(2027, 2, 1)])
async def test_howto_model_states_are_the_models_services_answers(client, monkeypatch, day):
    """The glossary reads the models service's records and their state through twlookup.domain
    (it does not import that service): each model a how-to names has the state, shutdown date and
    source that /models/api/model gives for it on the same day."""
    monkeypatch.setattr(clock, "_fixed", day)
    checked = 0
    for hid in (await client.get(f"{G}/terms")).json()["howtos"]:
        for m in (await client.get(f"{G}/howto", params={"id": hid})).json()["models"]:
            answer = (await client.get("/models/api/model", params={"id": m["model"]})).json()["model"]
            assert m["state"] == answer["status"], (hid, m["model"])
            assert (m["retirement_date"], m["source"]) == (answer["retirement_date"], answer["source"])
            checked += 1
    assert checked


def test_replacements_are_followed_while_they_are_retiring():
    old = _model("a-1", replacement="b-1", deprecated_on=date(2026, 1, 1), retirement_date=date(2026, 6, 1))
    mid = _model("b-1", replacement="c-1", deprecated_on=date(2026, 5, 1), retirement_date=date(2026, 12, 1))
    loop = _model("d-1", replacement="d-2", deprecated_on=date(2026, 1, 1), retirement_date=date(2026, 6, 1))
    back = _model("d-2", replacement="d-1", deprecated_on=date(2026, 1, 1), retirement_date=date(2026, 6, 1))
    catalog = Catalog({m.id: m for m in (old, mid, loop, back)})
    today = date(2026, 11, 26)
    assert model_advice.successor(old, catalog, today) == "c-1"  # b-1 is retiring too; c-1 has no notice
    assert model_advice.successor(old, catalog, date(2026, 4, 1)) == "b-1"  # before b-1 was deprecated
    assert model_advice.successor(loop, catalog, today) is None  # replacements that loop name no successor


def test_rewrite_swaps_whole_names_only():
    old = _model("gpt-x", replacement="gpt-y", deprecated_on=date(2026, 1, 1), retirement_date=date(2026, 6, 1))
    advice = [model_advice.ModelAdvice("gpt-x", old, "retired", "gpt-y")]
    code = [CodeBlock(language="python", code='m = "gpt-x"\nn = "gpt-x-pro"\n', runs=False)]
    assert model_advice.rewrite(code, advice)[0].code == 'm = "gpt-y"\nn = "gpt-x-pro"\n'


@pytest.mark.asyncio
async def test_only_the_operations_that_advise_build_the_models_catalogue(client, monkeypatch):
    """The glossary's copy of the models' records is a reference of its own: a first search does not
    wait for it; a how-to (run in a worker thread) builds it."""
    from twlookup.platform.store.reference import Reference
    from twlookup.services.glossary.data import CATALOG, MODELS

    monkeypatch.setattr(Reference, "check_seconds", 60.0)
    Reference.reset_all()
    assert (await client.get(f"{G}/search", params={"q": "RAG"})).status_code == 200
    assert CATALOG._value is not None and MODELS._value is None
    assert (await client.get(f"{G}/howto", params={"id": HOWTO})).status_code == 200
    assert MODELS._value is not None
