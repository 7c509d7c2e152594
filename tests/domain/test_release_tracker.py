"""The shared catalogue: forgiving name matching, suggestions, and data files that fail loudly."""

from datetime import date

import pytest
from pydantic import ValidationError

from twlookup.domain.release_tracker import Catalogue, Delay, TrackedItem
from twlookup.platform.records import DataFileError, load_records


class Item(TrackedItem):
    pass


CAT = Catalogue(
    [
        Item(id="gta-6", name="Grand Theft Auto VI", name_zh="俠盜獵車手 VI", aliases=["GTA VI"]),
        Item(id="avengers-doomsday", name="Avengers: Doomsday", name_zh="復仇者聯盟：末日崛起"),
        Item(id="avengers-secret-wars", name="Avengers: Secret Wars"),
    ]
)


@pytest.mark.parametrize(
    ("query", "ident", "how"),
    [
        ("gta-6", "gta-6", "id"),
        ("ＧＴＡ－６", "gta-6", "id"),  # full-width
        ("grand theft auto vi", "gta-6", "name"),
        ("俠盜獵車手VI", "gta-6", "name"),
        ("gta vi", "gta-6", "alias"),
        ("Doomsday", "avengers-doomsday", "partial"),
        ("末日崛起", "avengers-doomsday", "partial"),
    ],
)
def test_resolve_forgivingly(query, ident, how):
    item, matched = CAT.resolve(query)
    assert (item.id, matched) == (ident, how)


def test_ambiguous_or_unknown_names_match_nothing_but_get_suggestions():
    assert CAT.resolve("avengers") is None  # part of two names
    assert CAT.resolve("zz") is None and CAT.resolve("  ") is None
    assert CAT.suggestions("avengers-doomsdy") == ["avengers-doomsday"]


def test_delay_dates_are_checked():
    Delay(old="2025-fall", new="2026-05-26", announced=date(2025, 5, 2), source="https://x.example")
    with pytest.raises(ValidationError):
        Delay(old="autumn", new="2026-05-26", announced=date(2025, 5, 2), source="https://x.example")


def test_a_bad_data_file_names_file_record_and_field(tmp_path):
    from twlookup.services.games.schemas import Game

    path = tmp_path / "games.yaml"
    path.write_text(
        "checked: 2026-11-23\ngames:\n  - id: bad-game\n    name: Bad\n    platforms: [gameboy]\n"
        "    release: 2026-13\n    source: https://x.example\n",
        encoding="utf-8",
    )
    with pytest.raises(DataFileError) as err:
        load_records(path, Game, "games")
    assert "games.yaml" in str(err.value) and "bad-game" in str(err.value)
    assert "platforms" in str(err.value) and "release" in str(err.value)


async def test_a_query_in_several_names_lists_them_rather_than_saying_none_exists(client):
    r = await client.get("/sports/api/broadcast", params={"q": "world cup"})
    body = r.json()
    assert r.status_code == 404 and body["status"] == 404
    assert "fifa-world-cup-2026" in body["candidates"] and len(body["candidates"]) > 1
    assert "No event" not in body["detail"] and "fifa-world-cup-2026" in body["detail"]
    one = await client.get("/sports/api/broadcast", params={"q": "doomsday"})  # not a sports event
    assert one.status_code == 404 and "candidates" not in one.json()
