"""The games service through HTTP and its operations: every route, filters, the pinned clock on
both sides of a date, the paid watchlist, and every error path."""

from datetime import date

import httpx
import pytest
import respx
import wikimedia_fixtures as wm

from twlookup.platform import clock
from twlookup.services.games.operations import SERVICE

OPS = {op.path: op for op in SERVICE.operations}


@pytest.fixture
def today(monkeypatch):
    def pin(day: date) -> None:
        monkeypatch.setattr(clock, "_fixed", day)

    pin(date(2026, 11, 23))
    return pin


async def test_list_filters_by_platform_status_and_upcoming(client, today):
    r = await client.get("/games/api/games")
    body = r.json()
    assert r.status_code == 200 and body["count"] == len(body["games"]) >= 40
    assert sum(body["counts_by_status"].values()) == body["count"]
    assert all(g["source"]["url"].startswith("http") and g["source"]["checked"] for g in body["games"])
    ps5 = (await client.get("/games/api/games", params={"platform": "ps5"})).json()["games"]
    assert ps5 and all("ps5" in g["platforms"] for g in ps5)
    windows = (await client.get("/games/api/games", params={"status": "window"})).json()["games"]
    assert {"pokemon-winds-waves", "tomb-raider-catalyst", "state-of-decay-3"} <= {g["id"] for g in windows}
    assert all(g["status"] == "window" and g["precision"] != "day" for g in windows)
    tba = (await client.get("/games/api/games", params={"status": "tba"})).json()["games"]
    assert [g["id"] for g in tba] == ["splatoon-raiders"] and tba[0]["days_until"] is None
    released = (await client.get("/games/api/games", params={"status": "released"})).json()["games"]
    assert {g["id"] for g in released} >= {"arknights-endfield", "marathon"}


async def test_upcoming_on_both_sides_of_the_release_date(client, today):
    today(date(2026, 11, 18))
    ids = {g["id"] for g in (await client.get("/games/api/games", params={"upcoming": "1"})).json()["games"]}
    assert "gta-6" in ids and "pokemon-winds-waves" in ids
    today(date(2026, 11, 20))
    ids = {g["id"] for g in (await client.get("/games/api/games", params={"upcoming": "1"})).json()["games"]}
    assert "gta-6" not in ids and "pokemon-winds-waves" in ids


async def test_a_passed_date_with_no_delay_becomes_released_with_its_basis(client, today):
    today(date(2026, 11, 18))
    game = (await client.get("/games/api/game", params={"q": "GTA 6"})).json()["game"]
    assert game["status"] == "confirmed" and game["check_note"] is None and game["days_until"] == 1
    assert game["upcoming"] is True and game["basis"] is None and game["days_since"] is None
    today(date(2026, 11, 25))
    game = (await client.get("/games/api/game", params={"q": "GTA 6"})).json()["game"]
    assert game["status"] == "released" and game["basis"] == "date passed, no delay reported"
    assert game["upcoming"] is False and game["days_until"] is None and game["days_since"] == 6
    assert (
        game["check_note"]
        == "release date 2026-11-19 has passed; no source here confirms the release (record checked 2026-11-26)"
    )
    released = (await client.get("/games/api/games", params={"status": "released"})).json()["games"]
    assert "gta-6" in {g["id"] for g in released}


async def test_a_window_is_open_then_overdue_unless_confirmed(client, today):
    """Onimusha: Way of the Sword is announced for the year 2026 only (data/games/games.yaml)."""
    today(date(2026, 9, 15))
    game = (await client.get("/games/api/game", params={"q": "onimusha"})).json()["game"]
    assert (game["release"], game["status"], game["upcoming"], game["days_until"]) == ("2026", "window", True, None)
    today(date(2027, 1, 3))
    game = (await client.get("/games/api/game", params={"q": "onimusha"})).json()["game"]
    assert (game["status"], game["upcoming"], game["days_since"]) == ("overdue", False, 3)  # the year ends 31 December
    assert game["basis"] == "window 2026 closed on 2026-12-31 with no release confirmed"
    overdue = (await client.get("/games/api/games", params={"status": "overdue"})).json()["games"]
    assert "onimusha-way-of-the-sword" in {g["id"] for g in overdue} and all(g["status"] == "overdue" for g in overdue)


async def test_game_full_record_with_delay_history(client, today):
    r = await client.get("/games/api/game", params={"q": "俠盜獵車手VI"})
    assert r.status_code == 200
    body = r.json()
    assert body["matched_as"] == "name" and body["game"]["id"] == "gta-6"
    delays = body["game"]["delays"]
    assert [(d["old"], d["new"], d["announced"]) for d in delays] == [
        ("2025-fall", "2026-05-26", "2025-05-02"),
        ("2026-05-26", "2026-11-19", "2025-11-06"),
    ]
    assert all(d["source"]["url"].startswith("https://") for d in delays)
    assert body["countdown"]["target"] == "2026-11-19" and body["countdown"]["days"] is None
    assert body["countdown"]["days_since"] == 4


async def test_countdown_for_a_window_counts_to_its_earliest_day(client, today):
    today(date(2026, 8, 1))
    c = (await client.get("/games/api/countdown", params={"q": "Persona 4 Revival"})).json()
    assert c["target"] == "2027-01-01" and c["days"] == 153 and c["precision"] == "half" and "window" in c["note"]
    c = (await client.get("/games/api/countdown", params={"q": "fable"})).json()  # dated since June 2026
    assert c["target"] == "2027-02-23" and c["days"] == 206 and c["precision"] == "day"
    c = (await client.get("/games/api/countdown", params={"q": "Saros"})).json()
    assert c["target"] == "2026-04-30" and c["days"] is None and c["days_since"] == 93 and c["status"] == "released"


async def test_calendar_has_exact_days_and_overlapping_windows(client, today):
    body = (await client.get("/games/api/calendar", params={"month": "2026-11"})).json()
    assert [(d["date"], [g["id"] for g in d["games"]]) for d in body["days"]] == [("2026-11-19", ["gta-6"])]
    assert body["count"] == 1
    windows = {g["id"] for g in body["windows"]}
    assert "kiln" in windows and "pokemon-pokopia" in windows and "yoshi-mysterious-book" not in windows
    assert "fable" not in windows  # dated 2027-02-23 since the Xbox Games Showcase of June 2026


async def test_delays_newest_announcement_first(client, today):
    body = (await client.get("/games/api/delays")).json()
    announced = [d["announced"] for d in body["delays"]]
    assert announced == sorted(announced, reverse=True) and body["count"] == len(announced) >= 4
    assert {"gta-6", "saros", "marvels-wolverine", "007-first-light"} <= {d["id"] for d in body["delays"]}
    bond = next(d for d in body["delays"] if d["id"] == "007-first-light")
    assert (bond["old"], bond["new"], bond["announced"]) == ("2026-03-27", "2026-05-27", "2025-12-23")


@pytest.mark.parametrize(
    ("path", "params", "parameter"),
    [
        ("/games/api/games", {"platform": "ps4"}, "platform"),
        ("/games/api/games", {"status": "delayed"}, "status"),
        ("/games/api/games", {"upcoming": "maybe"}, "upcoming"),
        ("/games/api/games", {"genre": "rpg"}, "genre"),
        ("/games/api/calendar", {"month": "2026-13"}, "month"),
        ("/games/api/calendar", {}, "month"),
        ("/games/api/game", {"q": ""}, "q"),
        ("/games/api/countdown", {"q": "x" * 201}, "q"),
        ("/games/api/lookup", {}, "q"),
    ],
)
async def test_bad_input_is_422_naming_the_parameter(client, path, params, parameter):
    r = await client.get(path, params=params)
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"
    assert r.json()["errors"][0]["parameter"] == parameter
    if parameter == "platform":
        assert r.json()["errors"][0]["allowed"] == ["ps5", "xbox", "pc", "switch2", "mobile"]


async def test_unknown_game_is_404_naming_it_with_suggestions(client, today):
    r = await client.get("/games/api/game", params={"q": "marvels-wolverlne"})
    assert r.status_code == 404 and r.json()["id"] == "marvels-wolverlne"
    assert "marvels-wolverine" in r.json()["detail"]


async def test_cross_origin_calls_are_allowed(client):
    r = await client.get("/games/api/delays", headers={"Origin": "https://example.org"})
    assert r.headers["access-control-allow-origin"] in ("*", "https://example.org")


async def test_watchlist_limit_is_30_and_named(client):
    r = await client.post("/games/api/pro/watchlist", json={"ids": [f"g{i}" for i in range(31)]})
    assert r.status_code in (402, 422)  # the gate may ask for payment first; the operation refuses either way
    with pytest.raises(Exception) as err:
        await OPS["/api/pro/watchlist"].call({"ids": [f"g{i}" for i in range(31)]})
    assert err.value.status == 422 and err.value.errors[0]["parameter"] == "ids" and "30" in err.value.detail


@respx.mock(assert_all_called=False)
async def test_watchlist_catalogue_record_supplement_and_countdown(client, today, respx_mock):
    wm.mock_any_lookup(
        respx_mock,
        {
            "grandtheftautovi": wm.generic_item("Q118121519", "Grand Theft Auto VI", "2026 video game", "Q7889"),
            "hollowknightsilksong": wm.generic_item("Q55107465", "Hollow Knight: Silksong", "2025 video game", "Q7889"),
        },
    )
    out = (
        await OPS["/api/pro/watchlist"].call({"ids": ["ＧＴＡ ６", "gta-6", "Hollow Knight: Silksong", "qqqq"]})
    ).model_dump(mode="json")
    assert out["count"] == 3 and out["limit"] == 30  # the two spellings of GTA VI are one entry
    gta, silksong, nothing = out["entries"]
    assert gta["item"]["id"] == "gta-6" and gta["countdown"]["target"] == "2026-11-19"
    assert gta["supplement"]["item"]["id"] == "Q118121519" and gta["supplement"]["matches_domain"]
    assert silksong["item"] is None and silksong["countdown"] is None and silksong["supplement"]["found"]
    assert nothing["supplement"]["found"] is False


@respx.mock(assert_all_called=False)
async def test_watchlist_is_503_when_the_knowledge_base_is_down(client, today, respx_mock):
    from sqlalchemy import delete

    from twlookup.domain.knowledge_base import KnowledgeCache
    from twlookup.platform.store import engine as store_engine

    with store_engine.session() as session, session.begin():
        session.execute(delete(KnowledgeCache))
    wm.route_api(respx_mock, "wbsearchentities").side_effect = httpx.ConnectError("down")
    with pytest.raises(Exception) as err:
        await OPS["/api/pro/watchlist"].call({"ids": ["gta-6", "Tetris"]})
    assert err.value.status == 503 and err.value.headers["Retry-After"] == "30"
    assert err.value.extra["upstream"] == "www.wikidata.org"


async def test_export_has_every_game_with_delays_and_sources(client, today):
    out = (await OPS["/api/pro/export"].call({})).model_dump(mode="json")
    assert out["count"] == len(out["games"]) >= 40
    assert all(g["source"]["url"] and g["source"]["checked"] in ("2026-11-23", "2026-11-26") for g in out["games"])
    assert any(g["delays"] for g in out["games"])
