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
