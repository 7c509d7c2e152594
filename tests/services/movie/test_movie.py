"""The movie service through HTTP and its operations: every route, Taiwan versus origin dates,
the pinned clock on both sides of a date, delays, and every error path."""

from datetime import date

import pytest

from twlookup.platform import clock
from twlookup.services.movie.operations import SERVICE

OPS = {op.path: op for op in SERVICE.operations}


@pytest.fixture
def today(monkeypatch):
    def pin(day: date) -> None:
        monkeypatch.setattr(clock, "_fixed", day)

    pin(date(2026, 11, 23))
    return pin


async def test_list_filters_type_platform_keyword_and_upcoming(client, today):
    body = (await client.get("/movie/api/titles")).json()
    assert body["count"] == len(body["titles"]) >= 40
    anime = (await client.get("/movie/api/titles", params={"type": "anime-series"})).json()["titles"]
    assert anime and all(t["type"] == "anime-series" for t in anime)
    netflix = (await client.get("/movie/api/titles", params={"platform": "NETFLIX"})).json()["titles"]
    # by release: 29 Jan, 10 Mar 2026; Narnia's IMAX run before Netflix from 26 Nov 2026
    assert [t["id"] for t in netflix] == ["bridgerton-s4", "one-piece-s2", "narnia-gerwig"]
    hbo = {t["id"] for t in (await client.get("/movie/api/titles", params={"platform": "hbo"})).json()["titles"]}
    assert hbo == {"euphoria-s3", "a-knight-of-the-seven-kingdoms", "harry-potter-hbo-s1", "the-last-of-us-s3"}


async def test_upcoming_on_both_sides_of_the_release(client, today):
    today(date(2026, 12, 17))
    ids = {t["id"] for t in (await client.get("/movie/api/titles", params={"upcoming": 1})).json()["titles"]}
    assert "avengers-doomsday" in ids
    today(date(2026, 12, 19))
    ids = {t["id"] for t in (await client.get("/movie/api/titles", params={"upcoming": 1})).json()["titles"]}
    assert "avengers-doomsday" not in ids and "avengers-secret-wars" in ids


async def test_title_by_chinese_name_with_delays_and_countdown(client, today):
    body = (await client.get("/movie/api/title", params={"q": "復仇者聯盟：末日崛起"})).json()
    title = body["title"]
    assert body["matched_as"] == "name" and title["id"] == "avengers-doomsday"
    assert title["release_in_taiwan"] == "2026-12-18" and title["released"] is False and title["upcoming"] is True
    assert [(d["old"], d["new"]) for d in title["delays"]] == [("2026-05-01", "2026-12-18")]
    assert body["countdown"] == {
        "as_of": "2026-11-23",
        "target": "2026-12-18",
        "days": 25,
        "days_since": None,
        "precision": "day",
        "counts_to": "release",
        "note": "25 days to the release on 2026-12-18",
    }


async def test_taiwan_release_applies_where_given(client, today):
    c = (await client.get("/movie/api/countdown", params={"q": "jujutsu-kaisen-shibuya-movie"})).json()
    assert c["region"] == "TW" and c["precision"] == "month" and c["target"] == "2025-11-01"
    c = (await client.get("/movie/api/countdown", params={"q": "Frozen 3"})).json()
    assert c["region"] == "origin" and c["target"] == "2027-11-24" and c["days"] == 366


async def test_several_date_changes_are_kept_in_order(client, today):
    t = (await client.get("/movie/api/title", params={"q": "Beyond the Spider-Verse"})).json()["title"]
    assert [(d["old"], d["new"], d["announced"]) for d in t["delays"]] == [
        ("2027-06-04", "2027-06-25", "2025-07-18"),
        ("2027-06-25", "2027-06-18", "2025-09-25"),
    ]
    assert t["release"] == "2027-06-18" and t["days_until"] == 207  # 2026-11-23 to 2027-06-18
    t = (await client.get("/movie/api/title", params={"q": "功夫"})).json()["title"]
    assert t["origin"] == "TW" and t["released"] is True and t["check_note"] is None


async def test_a_passed_date_with_no_delay_is_released_and_says_its_basis(client, today):
    t = (await client.get("/movie/api/title", params={"q": "scream 7"})).json()["title"]
    assert t["release_in_taiwan"] < "2026-11-23" and t["state"] == "released" and t["released"] is True
    assert t["basis"] == "date passed, no delay reported" and t["upcoming"] is False
    assert t["days_until"] is None and t["days_since"] > 0
    assert "has passed; no source here confirms" in t["check_note"]  # what the record itself does not say
    t = (await client.get("/movie/api/title", params={"q": "jujutsu-kaisen-s3"})).json()["title"]
    assert t["released"] is True and t["check_note"] is None and t["basis"] == t["release_confirmed_by"]


async def test_the_same_title_on_both_sides_of_its_date(client, today):
    today(date(2026, 12, 18))
    t = (await client.get("/movie/api/title", params={"q": "avengers-doomsday"})).json()["title"]
    assert (t["state"], t["upcoming"], t["days_until"], t["days_since"], t["basis"]) == (
        "upcoming",
        True,
        0,
        None,
        None,
    )
    today(date(2026, 12, 20))
    t = (await client.get("/movie/api/title", params={"q": "avengers-doomsday"})).json()["title"]
    assert (t["state"], t["upcoming"], t["days_until"], t["days_since"]) == ("released", False, None, 2)
    assert t["basis"] == "date passed, no delay reported"
    c = (await client.get("/movie/api/countdown", params={"q": "avengers-doomsday"})).json()
    assert (c["days"], c["days_since"]) == (None, 2)


async def test_a_window_that_closes_unconfirmed_is_overdue(client, today):
    t = (await client.get("/movie/api/title", params={"q": "jujutsu-kaisen-shibuya-movie"})).json()["title"]
    assert t["release_in_taiwan"] == "2025-11" and t["release_confirmed_by"] is None  # its Taiwan month
    assert t["state"] == "overdue" and t["upcoming"] is False and t["released"] is False
    assert t["basis"] == "window 2025-11 closed on 2025-11-30 with no release confirmed"
    assert t["days_since"] == 358 and t["days_until"] is None  # 2025-11-30 to 2026-11-23


async def test_calendar_lists_taiwan_and_origin_days_and_windows(client, today):
    body = (await client.get("/movie/api/calendar", params={"month": "2026-12"})).json()
    days = [(r["date"], r["region"], r["title"]["id"]) for r in body["releases"]]
    assert ("2026-12-18", "origin", "avengers-doomsday") in days and ("2026-12-18", "origin", "dune-part-three") in days
    assert body["count"] == len(days)
    nov = (await client.get("/movie/api/calendar", params={"month": "2025-11"})).json()
    assert ("2025-11-07", "origin", "jujutsu-kaisen-shibuya-movie") in [
        (r["date"], r["region"], r["title"]["id"]) for r in nov["releases"]
    ]
    assert [t["id"] for t in nov["windows"]] == ["jujutsu-kaisen-shibuya-movie"]  # its Taiwan month


async def test_schedule_changes_newest_first(client, today):
    body = (await client.get("/movie/api/delays")).json()
    shrek = [(d["old"], d["new"], d["announced"]) for d in body["delays"] if d["id"] == "shrek-5"]
    assert shrek == [("2026-12-23", "2027-06-30", "2025-08-12"), ("2026-07-01", "2026-12-23", "2025-01-10")]
    announced = [d["announced"] for d in body["delays"]]
    assert announced == sorted(announced, reverse=True)


@pytest.mark.parametrize(
    ("path", "params", "parameter"),
    [
        ("/movie/api/titles", {"type": "documentary"}, "type"),
        ("/movie/api/titles", {"platform": ""}, "platform"),
        ("/movie/api/titles", {"upcoming": "2"}, "upcoming"),
        ("/movie/api/calendar", {"month": "26-12"}, "month"),
        ("/movie/api/title", {}, "q"),
        ("/movie/api/delays", {"x": "1"}, "x"),
    ],
)
async def test_bad_input_is_422_naming_the_parameter(client, path, params, parameter):
    r = await client.get(path, params=params)
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == parameter


async def test_unknown_title_is_404(client, today):
    r = await client.get("/movie/api/countdown", params={"q": "Avengers: Age of Nothing"})
    assert r.status_code == 404 and r.json()["id"] == "Avengers: Age of Nothing"


async def test_export_is_every_title(client, today):
    out = (await OPS["/api/pro/export"].call({})).model_dump(mode="json")
    assert out["count"] == len(out["titles"]) >= 40 and all(t["source"]["url"] for t in out["titles"])
