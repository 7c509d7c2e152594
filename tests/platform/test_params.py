"""Operation parameters: JSON booleans are taken only where a parameter is a boolean."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import ValidationError

from tests.conftest import assert_problem
from twlookup.platform.operations import Params


class Example(Params):
    count: int
    name: str | None = None
    flag: bool = False
    maybe: bool | None = None
    kind: Literal["a", "b"] = "a"


@pytest.mark.parametrize("field", ["count", "name", "kind"])
def test_true_or_false_is_not_a_number_or_text(field):
    raw = {"count": 1, field: True}
    with pytest.raises(ValidationError) as caught:
        Example.model_validate(raw)
    assert [e["loc"] for e in caught.value.errors()] == [(field,)]


def test_booleans_still_fill_boolean_parameters_and_strings_still_convert():
    got = Example.model_validate({"count": "3", "flag": True, "maybe": False})
    assert (got.count, got.flag, got.maybe) == (3, True, False)


async def test_a_json_true_for_a_share_id_is_a_422_naming_it(client):
    r = await client.post("/share/api/click", json={"id": True})
    body = assert_problem(r, 422, "id")
    assert body["type"].endswith("/invalid-parameter") and "true or false" in body["errors"][0]["message"]


@pytest.mark.parametrize("q", ["\t", "\x1f", " \ufeff ", "\u3000"])
async def test_a_blank_search_is_refused_as_its_schema_says(client, q):
    """The share search's `q` must hold a non-space character: the pattern in its OpenAPI says which
    characters count as spaces, and the validator refuses the same ones (schemathesis found the two
    disagreeing on control characters)."""
    import re

    schema = (await client.get("/share/openapi.json")).json()
    param = next(p for p in schema["paths"]["/api/search"]["get"]["parameters"] if p["name"] == "q")
    assert not re.search(param["schema"]["pattern"], q)
    assert_problem(await client.get("/share/api/search", params={"q": q}), 422, "q")
    assert (await client.get("/share/api/search", params={"q": f"{q}x"})).status_code == 200


@pytest.mark.parametrize(
    ("path", "params", "parameter"),
    [
        ("/sports/api/today", {"date": "2026-02-30"}, "date"),
        ("/holiday/api/crowd", {"country": "JP", "start": "2027-02-30", "end": "2027-03-02"}, "start"),
        ("/holiday/api/crowd", {"country": "JP", "start": "2027-01-01", "end": "2027/01/02"}, "end"),
        ("/sports/api/today", {"date": "1999-12-31"}, "date"),
    ],
)
async def test_one_date_parameter_type_says_the_same_thing_everywhere(client, path, params, parameter):
    """Every date parameter is `platform.schemas.IsoDate`: its error names the parameter, the form
    and the range, and says what was wrong with the value (one text in every service)."""
    body = assert_problem(await client.get(path, params=params), 422, parameter)
    message = body["errors"][0]["message"]
    assert message.startswith(f"{parameter} must be a date written YYYY-MM-DD, from 2000-01-01 to 2099-12-31; ")
    assert message.endswith(("is not a day of the calendar", "is not written that way", "is outside that range"))
