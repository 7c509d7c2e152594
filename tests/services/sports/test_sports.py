"""The sports service through HTTP and its operations: every route, status from the dates on
both sides, Taiwan-team filter, what's on, broadcasters known and not known, error paths."""

from datetime import date

import pytest

from twlookup.platform import clock
from twlookup.services.sports.operations import SERVICE

OPS = {op.path: op for op in SERVICE.operations}


@pytest.fixture
def today(monkeypatch):
    def pin(day: date) -> None:
        monkeypatch.setattr(clock, "_fixed", day)

    pin(date(2026, 11, 23))
    return pin


@pytest.mark.parametrize(
    ("day", "status", "days_to_start", "days_since_end", "basis"),
    [
        (date(2026, 3, 4), "upcoming", 1, None, None),
        (date(2026, 3, 5), "ongoing", 0, None, "start date passed, no delay reported"),
        (date(2026, 3, 17), "ongoing", None, None, "start date passed, no delay reported"),
        (date(2026, 3, 18), "completed", None, 1, "end date passed, no delay reported"),
    ],
)
async def test_status_follows_the_dates(client, today, day, status, days_to_start, days_since_end, basis):
    today(day)  # WBC 2026: 5 to 17 March
    event = (await client.get("/sports/api/event", params={"q": "WBC 2026"})).json()["event"]
    assert (event["status"], event["days_until_start"], event["days_since_end"]) == (
        status,
        days_to_start,
        days_since_end,
    )
    assert event["basis"] == basis
    c = (await client.get("/sports/api/countdown", params={"q": "WBC 2026"})).json()
    assert c["status"] == status and (c["days_until_end"] is None) == (days_since_end is not None)
    assert c["days"] == days_to_start  # to the start, null once it has passed


async def test_list_filters(client, today):
    body = (await client.get("/sports/api/events")).json()
    assert body["count"] == len(body["events"]) >= 40
    assert {e["sport"] for e in body["events"]} == {
        "baseball",
        "basketball",
        "multi",
        "badminton",
        "running",
        "football",
        "soccer",
        "tennis",
    }
    taiwan = (await client.get("/sports/api/events", params={"taiwan": "1"})).json()["events"]
    assert taiwan and all(e["taiwan"] for e in taiwan) and "fifa-world-cup-2026" not in {e["id"] for e in taiwan}
    assert {"wbsc-u23-baseball-world-cup-2026", "all-england-2026"} <= {e["id"] for e in taiwan}
    assert "chicago-marathon-2026" not in {e["id"] for e in taiwan}
    upcoming = (await client.get("/sports/api/events", params={"status": "upcoming", "sport": "multi"})).json()[
        "events"
    ]
    # Dakar 2026 (to 13 November) is over on the pinned day; the Changchun winter games (January 2027) come first
    assert [e["id"] for e in upcoming] == [
        "winter-world-university-games-2027",
        "fisu-games-chungcheong-2027",
        "la-2028-olympics",
        "la-2028-paralympics",
    ]


async def test_a_passed_event_not_rechecked_says_so(client, today):
    today(date(2027, 3, 1))
    event = (await client.get("/sports/api/event", params={"q": "afc-asian-cup-2027"})).json()["event"]
    assert event["status"] == "completed"
    assert event["check_note"] == "event dates passed; not re-checked since 2026-11-23"
    today(date(2027, 1, 20))
    event = (await client.get("/sports/api/event", params={"q": "afc-asian-cup-2027"})).json()["event"]
    assert event["status"] == "ongoing" and event["check_note"] == "start date passed; not re-checked since 2026-11-23"


async def test_whats_on_a_day_and_what_comes_up(client, today):
    body = (await client.get("/sports/api/today", params={"date": "2026-03-05", "days": 3})).json()
    assert body["date"] == "2026-03-05" and body["until"] == "2026-03-08" and body["as_of"] == "2026-11-23"
    assert "wbc-2026" in {e["id"] for e in body["ongoing"]}
    labels = [(c["date"], c["label"]) for c in body["coming"]]
    assert ("2026-03-08", "Chinese Taipei v Korea, Tokyo Dome") in labels
    assert all("2026-03-05" <= c["date"] <= "2026-03-08" for c in body["coming"])
    assert all(c["upcoming"] is False and c["days_until"] is None for c in body["coming"])  # looked back from March
    default = (await client.get("/sports/api/today")).json()
    assert default["date"] == "2026-11-23" and default["days"] == 7
    assert all(c["upcoming"] and c["days_until"] >= 0 and c["date"] >= "2026-11-23" for c in default["coming"])


async def test_calendar_month(client, today):
    body = (await client.get("/sports/api/calendar", params={"month": "2026-07"})).json()
    kinds = {(d["event_id"], d["kind"]) for d in body["dates"]}
    assert ("cpbl-2026-all-star", "start") in kinds and ("cpbl-2026-season", "important") in kinds
    assert body["count"] == len(body["dates"])


async def test_broadcast_known_with_sources_and_not_known(client, today):
    wbc = (await client.get("/sports/api/broadcast", params={"q": "經典賽"})).json()
    assert wbc["known"] is True and len(wbc["platforms"]) >= 4
    assert all(p["source"]["url"].startswith("https://") for p in wbc["platforms"])
    assert {"tv", "streaming"} == {p["kind"] for p in wbc["platforms"]}
    cup = (await client.get("/sports/api/broadcast", params={"q": "fifa-world-cup-2026"})).json()
    assert cup["known"] is True and "愛爾達電視 (ELTA)" in {p["platform"] for p in cup["platforms"]}
    assert all(p["source"]["checked"] == "2026-11-23" for p in cup["platforms"])
    nba = (await client.get("/sports/api/broadcast", params={"q": "NBA Finals 2026"})).json()
    assert {p["platform"] for p in nba["platforms"]} == {"愛爾達電視 (ELTA)", "緯來電視網 (Videoland)"}
    bowl = (await client.get("/sports/api/broadcast", params={"q": "super-bowl-lx"})).json()
    assert bowl["known"] is False and bowl["platforms"] == [] and bowl["note"].startswith("Not known")


async def test_countdown_to_start_and_end(client, today):
    today(date(2028, 7, 1))
    c = (await client.get("/sports/api/countdown", params={"q": "LA28"})).json()
    assert (c["target"], c["days"], c["end"], c["days_until_end"], c["status"]) == (
        "2028-07-14",
        13,
        "2028-07-30",
        29,
        "upcoming",
    )


@pytest.mark.parametrize(
    ("path", "params", "parameter"),
    [
        ("/sports/api/events", {"sport": "cricket"}, "sport"),
        ("/sports/api/events", {"status": "cancelled"}, "status"),
        ("/sports/api/today", {"date": "2026-02-30"}, "date"),
        ("/sports/api/today", {"date": "0"}, "date"),
        ("/sports/api/today", {"days": "91"}, "days"),
        ("/sports/api/today", {"days": "-1"}, "days"),
        ("/sports/api/calendar", {"month": "2026-7"}, "month"),
        ("/sports/api/broadcast", {}, "q"),
    ],
)
async def test_bad_input_is_422_naming_the_parameter(client, path, params, parameter):
    r = await client.get(path, params=params)
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == parameter
    if parameter == "sport":
        assert r.json()["errors"][0]["allowed"] == [
            "baseball",
            "basketball",
            "multi",
            "badminton",
            "running",
            "football",
            "soccer",
            "tennis",
            "golf",
            "esports",
        ]


async def test_unknown_event_is_404(client, today):
    r = await client.get("/sports/api/event", params={"q": "Quidditch World Cup"})
    assert r.status_code == 404 and r.json()["id"] == "Quidditch World Cup"


async def test_export_is_every_event(client, today):
    out = (await OPS["/api/pro/export"].call({})).model_dump(mode="json")
    assert out["count"] == len(out["events"]) >= 40
    assert all(e["source"]["url"] and e["source"]["checked"] for e in out["events"])
