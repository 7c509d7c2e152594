"""The cardgame guide: content counts, the Konami AE list parser on the page's real format, the list
in force on either side of an effective date, the importer, and every route and error."""

from datetime import date
from pathlib import Path

import pytest

from twlookup.cli import DEFAULT_DATA
from twlookup.platform import clock
from twlookup.platform.records import DataFileError
from twlookup.services.cardgame import logic, parsers
from twlookup.services.cardgame.data import read_banlists, read_guide
from twlookup.services.cardgame.records import BanCard, BanList

FIXTURE = Path(__file__).parent / "fixtures" / "konami-ae-fl-page.html"
C = "/cardgame/api"


def test_content_counts():
    chapters, terms, faq = read_guide(DEFAULT_DATA)
    assert len(chapters) >= 10 and len(terms) >= 80 and len(faq) >= 30
    assert [c.order for c in sorted(chapters, key=lambda c: c.order)] == list(range(1, len(chapters) + 1))
    assert all(c.source.startswith("https://www.yugioh-card.com/") for c in chapters)


def test_parser_reads_the_page_format():
    lists = parsers.parse(FIXTURE.read_bytes(), date(2026, 8, 22))
    assert [b.effective for b in lists] == [date(2026, 4, 1), date(2026, 7, 1)]
    jul = lists[1]
    # the page prints 33 forbidden, 36 limited and 18 semi-limited entries for Jul-26 (AE); one card,
    # Vanquish Soul Hollie Sue, is printed on both Limited and Semi-Limited and is merged onto Limited
    assert (len(jul.forbidden), len(jul.limited), len(jul.semi_limited)) == (33, 36, 17)
    assert jul.forbidden[0].name == "Amazoness Archer" and jul.format == "OCG-AE"
    assert len(lists[0].released) == 1  # Apr-26 returned one card to three copies
    assert jul.source == parsers.PAGE_URL


def test_parser_reads_bare_json_and_rejects_other_files():
    seeded = read_banlists(DEFAULT_DATA)
    assert seeded[-1].effective == date(2026, 7, 1) and len(seeded) == 7
    # the shipped page: every Jul-26 AE card but three carries its Japanese name from the OCG lists
    jul = seeded[-1]
    cards = [*jul.forbidden, *jul.limited, *jul.semi_limited]
    assert sum(c.japanese_name is None for c in cards) == 3 and len(cards) == 86
    # the page prints Branded Fusion's Japanese name 12 times mangled (烙印Monster/Fusion) and 4 times as
    # 烙印融合: the mangled form is never taken
    assert next(c for c in jul.semi_limited if c.name == "Branded Fusion").japanese_name == "烙印融合"
    with pytest.raises(ValueError, match="cardData"):
        parsers.parse(b"<html>no lists here</html>", date(2026, 8, 22))
    with pytest.raises(ValueError, match="Jul-2026"):
        parsers.parse(
            b'{"en": {"effective_dates": [{"effective_date_name": "Jul-2026", "card_lists": [{"card_list_name": "Forbidden (AE)", "cards": []}]}]}}',
            date(2026, 1, 1),
        )
    with pytest.raises(ValueError, match="no Asian-English"):
        parsers.parse(
            b'{"en": {"effective_dates": [{"effective_date_name": "Jul-26", "card_lists": [{"card_list_name": "Forbidden", "cards": []}]}]}}',
            date(2026, 1, 1),
        )
    with pytest.raises(ValueError, match="card_name"):
        parsers.parse(
            b'{"en": {"effective_dates": [{"effective_date_name": "Jul-26", "card_lists": [{"card_list_name": "Forbidden (AE)", "cards": [{"card_type": "Trap"}]}]}]}}',
            date(2026, 1, 1),
        )


def _list(day, forbidden=(), limited=(), semi=()):
    cards = lambda names: [BanCard(name=n) for n in names]  # noqa: E731
    return BanList(
        effective=day,
        format="OCG-AE",
        forbidden=cards(forbidden),
        limited=cards(limited),
        semi_limited=cards(semi),
        source="https://x.example",
        checked=date(2026, 1, 1),
    )


def test_list_in_force_on_either_side_of_the_effective_date():
    a, b, c = _list(date(2026, 4, 1)), _list(date(2026, 7, 1)), _list(date(2026, 10, 1))
    assert logic.lists_in_force([a, b, c], date(2026, 9, 30)) == (b, a, c)
    assert logic.lists_in_force([a, b, c], date(2026, 10, 1)) == (c, b, None)
    assert logic.lists_in_force([a], date(2026, 3, 31)) == (None, None, a)


def test_changes_between_lists_hand_worked():
    before = _list(date(2026, 4, 1), forbidden=["A"], limited=["B"], semi=["C"])
    now = _list(date(2026, 7, 1), forbidden=["A", "B"], semi=["D"])
    # B: 1 -> 0; C: 2 -> 3 (released); D: 3 -> 2
    assert logic.changes(now, before) == [("B", 1, 0), ("C", 2, 3), ("D", 3, 2)]


def test_bad_chapter_reference_is_named(tmp_path):
    folder = tmp_path / "cardgame"
    folder.mkdir()
    for name in ("chapters", "glossary", "faq"):
        (folder / f"{name}.yaml").write_text(
            (DEFAULT_DATA / "cardgame" / f"{name}.yaml").read_text(encoding="utf-8"), encoding="utf-8"
        )
    with (folder / "faq.yaml").open("a", encoding="utf-8") as fh:
        fh.write("- id: ghost\n  question: Where?\n  answer: Nowhere.\n  chapter: no-such-chapter\n")
    with pytest.raises(DataFileError, match="no-such-chapter"):
        read_guide(tmp_path)


pytestmark = pytest.mark.filterwarnings("ignore")


async def test_chapters_and_chapter(client):
    r = await client.get(f"{C}/chapters")
    body = r.json()
    assert body["count"] >= 10 and body["chapters"][0]["slug"] == "what-is-the-game"
    r = await client.get(f"{C}/chapter/how-a-turn-goes")
    ch = r.json()
    assert "## The phases" in ch["markdown"] and ch["previous"] == "cards-and-the-field"
    assert ch["source"]["url"].startswith("https://www.yugioh-card.com/") and "Konami" in ch["rights"]
    r = await client.get(f"{C}/chapter/nope")
    assert r.status_code == 404 and "how-a-turn-goes" in r.json()["detail"]
    r = await client.get(f"{C}/chapter/BAD_SLUG")
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "slug"


@pytest.mark.parametrize(
    ("q", "kind", "ident"),
    [
        ("tribute summon", "chapter", "summoning-monsters#tribute-summon"),
        ("banlist", "term", "Forbidden & Limited List"),
        ("F&L", "term", "Forbidden & Limited List"),
        ("synchro", "chapter", "extra-deck-summons#synchro"),
        ("Resolving a Chain", "chapter", "chains-and-spell-speed#resolving-a-chain"),
        ("How many cards must my deck have?", "faq", "deck-size"),
        ("Fiber Jar", "card", "Fiber Jar"),
        ("sleves", "term", "Sleeves"),  # typo
    ],
)
async def test_search_first_result(client, q, kind, ident):
    r = await client.get(f"{C}/search", params={"q": q})
    top = r.json()["results"][0]
    assert (top["kind"], top["id"]) == (kind, ident), r.json()["results"][:3]
    assert top["score"] == pytest.approx(sum(x["points"] for x in top["reasons"]), abs=1e-3)


async def test_search_errors(client):
    assert (await client.get(f"{C}/search")).status_code == 422
    r = await client.get(f"{C}/search", params={"q": "duel", "limit": 99})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "limit"


async def test_glossary(client):
    r = await client.get(f"{C}/glossary")
    assert r.json()["count"] >= 80
    r = await client.get(f"{C}/glossary", params={"q": "GY"})
    t = r.json()["terms"][0]
    assert t["term"] == "Graveyard" and t["chapter_title"] == "Cards and the field"
    r = await client.get(f"{C}/glossary", params={"q": "zzqqxx"})
    assert r.status_code == 404


async def test_banlist_today(client, monkeypatch):
    monkeypatch.setattr(clock, "_fixed", date(2026, 11, 23))
    r = await client.get(f"{C}/banlist")
    body = r.json()
    assert body["effective"] == "2026-07-01" and body["previous_effective"] == "2026-04-01"
    # 18 semi-limited entries on the page, one of them a duplicate of a Limited card (merged onto Limited)
    assert body["counts"] == {"forbidden": 33, "limited": 36, "semi_limited": 17}
    assert body["source"]["url"] == parsers.PAGE_URL and body["source"]["checked"] == "2026-08-22"
    assert body["changes_from_previous"] and all(c["before"] != c["now"] for c in body["changes_from_previous"])
    monkeypatch.setattr(clock, "_fixed", date(2026, 6, 30))
    body = (await client.get(f"{C}/banlist")).json()
    assert body["effective"] == "2026-04-01" and body["upcoming_effective"] == "2026-07-01"
    monkeypatch.setattr(clock, "_fixed", date(2020, 1, 1))
    r = await client.get(f"{C}/banlist")
    assert r.status_code == 503 and r.headers["retry-after"]


async def test_a_list_past_its_quarter_is_served_with_a_warning(client, monkeypatch):
    # Konami Asia's AE lists take effect quarterly (every list held since 2025-01 is dated 1 Jan, Apr,
    # Jul or Oct); on 2026-11-26 the store's newest is the 2026-07-01 list, read from the page on
    # 2026-08-22, so the 2026-10-01 list (published by Konami, not held here) may be in force instead
    monkeypatch.setattr(clock, "_fixed", date(2026, 11, 26))
    body = (await client.get(f"{C}/banlist")).json()
    assert body["effective"] == "2026-07-01" and body["missing_since"] == "2026-10-01"
    assert body["may_be_outdated"] is True and "2026-10-01" in body["warning"]
    assert body["next_expected"] == "2027-01-01"  # never a day in the past
    # before the next quarter's date the held list is the one in force, without a warning
    monkeypatch.setattr(clock, "_fixed", date(2026, 9, 30))
    body = (await client.get(f"{C}/banlist")).json()
    assert body["may_be_outdated"] is False and body["warning"] is None and body["next_expected"] == "2026-10-01"
    assert body["missing_since"] is None


async def test_faq(client):
    body = (await client.get(f"{C}/faq")).json()
    assert body["count"] >= 30
    assert all(f["link"].startswith("/api/chapter/") for f in body["faq"])


def test_importer_stores_lists(tmp_path, settings):
    from twlookup.platform.store.seed import ingest
    from twlookup.services.cardgame.data import GUIDE, import_banlist

    rows = ingest(import_banlist, FIXTURE)
    assert rows == 2
    assert {b.effective for b in GUIDE.get().banlists} >= {date(2026, 4, 1), date(2026, 7, 1)}


def test_a_card_printed_on_two_lists_is_merged_not_dropped():
    # Jul-26 (AE): Konami's page prints Vanquish Soul Hollie Sue on Limited with the change marker
    # "Semi-Limited-to-limited" and again, unmarked, on Semi-Limited; before the merge it read as semi-limited (2)
    jul = parsers.parse(FIXTURE.read_bytes(), date(2026, 8, 22))[1]
    entries = [c for k in ("forbidden", "limited", "semi_limited") for c in getattr(jul, k) if "Hollie Sue" in c.name]
    assert len(entries) == 1
    (card,) = entries
    assert card in jul.limited and card.also_listed == ["semi_limited"] and card.remarks == "Semi-Limited-to-limited"
    assert logic.status_of(jul)["Vanquish Soul Hollie Sue"] == 1
    assert card.japanese_name == "VS ホーリー・スー"  # from the same page's OCG list
    # in the shipped lists, Oct-25 prints Fiendsmith's Tract on Limited and Semi-Limited: kept once, the stricter
    oct25 = next(b for b in read_banlists(DEFAULT_DATA) if b.effective == date(2025, 10, 1))
    tract = [c for c in [*oct25.limited, *oct25.semi_limited] if c.name == "Fiendsmith's Tract"]
    assert len(tract) == 1 and tract[0] in oct25.limited and tract[0].also_listed == ["semi_limited"]
    # duplicates within one list merge too
    merged = parsers.merge_duplicates({"limited": [BanCard(name="A"), BanCard(name="a", card_type="Spell")]})
    assert merged == {"limited": [BanCard(name="A", card_type="Spell")]}


async def test_card_status_in_force_previous_and_history(client, monkeypatch):
    monkeypatch.setattr(clock, "_fixed", date(2026, 8, 1))
    body = (await client.get(f"{C}/card", params={"name": "vanquish soul hollie sue"})).json()
    assert body["name"] == "Vanquish Soul Hollie Sue" and body["as_of"] == "2026-08-01"
    assert body["in_force"] == {
        "effective": "2026-07-01",
        "status": "limited",
        "copies": 1,
        "listed_as": "limited",
        "also_listed": ["semi_limited"],
        "remarks": "Semi-Limited-to-limited",  # Konami's marker confirms the stricter reading
    }
    assert body["previous"]["effective"] == "2026-04-01" and body["previous"]["status"] == "semi-limited"
    assert [h["effective"] for h in body["history"]][-2:] == ["2026-04-01", "2026-07-01"]
    assert body["history"][0]["effective"] == "2023-11-01" and body["history"][0]["status"] == "unlimited"
    assert body["may_be_outdated"] is False and body["source"]["url"] == parsers.PAGE_URL
    assert body["japanese_name"] == "VS ホーリー・スー"  # from the shipped page's OCG list
    ja = (await client.get(f"{C}/card", params={"name": "VS ホーリー・スー"})).json()
    assert ja["name"] == "Vanquish Soul Hollie Sue" and ja["in_force"]["copies"] == 1
    # the day decides which list is in force: on 2026-06-30 the April list is
    monkeypatch.setattr(clock, "_fixed", date(2026, 6, 30))
    body = (await client.get(f"{C}/card", params={"name": "Vanquish Soul Hollie Sue"})).json()
    assert body["in_force"]["effective"] == "2026-04-01" and body["in_force"]["copies"] == 2
    assert body["upcoming"]["effective"] == "2026-07-01" and body["upcoming"]["copies"] == 1
    # past the next quarter with no newer list stored: the answer says so
    monkeypatch.setattr(clock, "_fixed", date(2026, 11, 26))
    body = (await client.get(f"{C}/card", params={"name": "Pot of Greed"})).json()
    assert body["in_force"]["status"] == "forbidden" and body["in_force"]["copies"] == 0
    assert body["may_be_outdated"] is True and body["missing_since"] == "2026-10-01" and "2026-10-01" in body["warning"]


async def test_card_errors(client, monkeypatch):
    monkeypatch.setattr(clock, "_fixed", date(2026, 8, 1))
    r = await client.get(f"{C}/card", params={"name": "Pot of Gred"})
    assert r.status_code == 404 and "Pot of Greed" in r.json()["detail"] and "3 copies" in r.json()["detail"]
    r = await client.get(f"{C}/card")
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "name"
    r = await client.get(f"{C}/card", params={"name": "x" * 121})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "name"
    monkeypatch.setattr(clock, "_fixed", date(2020, 1, 1))
    r = await client.get(f"{C}/card", params={"name": "Pot of Greed"})
    assert r.status_code == 503 and r.headers["retry-after"]


def test_card_found_by_japanese_name_from_the_page():
    lists = parsers.parse(FIXTURE.read_bytes(), date(2026, 8, 22))
    card = logic.find_card(lists, "VS ホーリー・スー")
    assert card is not None and card.name == "Vanquish Soul Hollie Sue"
    assert logic.find_card(lists, "  vanquish SOUL hollie-sue ") is not None  # case, spaces, punctuation folded
    assert logic.find_card(lists, "no such card") is None
    assert logic.card_on(lists[1], "Pot of Greed")[:2] == (0, "forbidden")
    assert logic.card_on(lists[1], "Blue-Eyes White Dragon") == (3, None, None)
