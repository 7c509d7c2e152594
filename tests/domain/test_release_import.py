"""The Wikidata import's pieces on hand-made values: dates at Wikidata's precisions, SPARQL JSON
refused when it is not, the Taiwan date chosen, and curated records winning."""

from datetime import date

import pytest

from twlookup.domain.release_import import bindings, merge, publications, when_text
from twlookup.services.games.schemas import Game

E = "http://www.wikidata.org/entity/"


@pytest.mark.parametrize(
    ("value", "precision", "text"),
    [
        ("2027-02-26T00:00:00Z", "11", "2027-02-26"),
        ("2027-04-01T00:00:00Z", "10", "2027-04"),
        ("2027-01-01T00:00:00Z", "9", "2027"),
        ("2027-01-01T00:00:00Z", "8", None),  # a decade: nothing a tracker can count to
        ("2027-02-30T00:00:00Z", "11", None),
        ("+2027-02-26T00:00:00Z", "11", None),  # not the query service's form
    ],
)
def test_wikidata_times_at_their_precision(value, precision, text):
    assert when_text(value, precision) == text


@pytest.mark.parametrize(
    "raw", [b"<html>timeout</html>", b"{}", b'{"head": {"vars": []}}', b'{"head": {"vars": []}, "results": {}}']
)
def test_what_is_not_sparql_json_is_refused(raw):
    with pytest.raises(ValueError, match="not SPARQL JSON results"):
        bindings(raw)


def _row(item: str, day: str, place: str | None = None) -> dict[str, str]:
    row = {"item": E + item, "itemLabel": "Example", "date": f"{day}T00:00:00Z", "precision": "11"}
    return {**row, "place": E + place} if place else row


def test_the_taiwan_date_and_the_origin_date():
    (only_placed,) = publications([_row("Q1", "2027-03-01", "Q17"), _row("Q1", "2027-02-20", "Q30")])
    assert (only_placed.origin, only_placed.origin_place, only_placed.taiwan) == ("2027-02-20", "Q30", None)
    (mixed,) = publications(
        [_row("Q2", "2027-02-20", "Q30"), _row("Q2", "2027-03-01"), _row("Q2", "2027-03-05", "Q865")]
    )
    assert (mixed.origin, mixed.origin_place, mixed.taiwan) == ("2027-03-01", None, "2027-03-05")  # unplaced first


def _game(ident: str, name: str, **extra) -> Game:
    return Game(
        id=ident,
        name=name,
        platforms=["pc"],
        release="2027",
        source="https://example.test/",
        checked=date(2026, 11, 26),
        **extra,
    )


def test_a_curated_record_wins_by_id_name_or_alias():
    curated = [_game("gta-6", "Grand Theft Auto VI", aliases=["GTA 6"], name_zh="俠盜獵車手VI")]
    imported = [
        _game("grand-theft-auto-vi", "Grand Theft Auto VI", record_origin="imported"),
        _game("gta-6-q1", "GTA 6", record_origin="imported"),  # an alias of the curated record
        _game("gta-vi-zh", "俠盜獵車手VI", record_origin="imported"),
        _game("lantern-road", "Lantern Road", record_origin="imported"),
        _game("lantern-road-2", "Lantern Road", record_origin="imported"),  # the same name twice: the first
    ]
    assert [g.id for g in merge(curated, imported)] == ["gta-6", "lantern-road"]
