"""The three release catalogues (data/movie, data/games, data/sports) as of 2026-11-26: how much of
the next 13 months they cover, and that every record says where its facts come from and when they
were checked (issue 21, items 2 and 6)."""

from datetime import date
from pathlib import Path

import pytest

from twlookup.domain.release_dates import parse_when
from twlookup.platform import clock
from twlookup.platform.records import load_records
from twlookup.services.games.records import Game
from twlookup.services.movie.records import Title
from twlookup.services.sports.records import Event

DATA = Path(__file__).resolve().parents[2] / "data"
TODAY = date(2026, 11, 26)
HORIZON = date(2027, 12, 26)  # thirteen months ahead

TITLES = load_records(DATA / "movie" / "titles.yaml", Title, "titles")
GAMES = load_records(DATA / "games" / "games.yaml", Game, "games")
EVENTS = load_records(DATA / "sports" / "events.yaml", Event, "events")


@pytest.fixture
def pinned_today():
    before = clock.fixed_today()
    clock.set_today(TODAY)
    yield clock.today()
    clock.set_today(before)


def _ahead(text: str, today: date) -> bool:
    """The announced date or window reaches into [today, today + 13 months]."""
    when = parse_when(text)
    return when.earliest is not None and when.latest is not None and when.earliest <= HORIZON and when.latest >= today


def titles_ahead(today: date) -> list[Title]:
    return [t for t in TITLES if not t.release_confirmed_by and _ahead(t.taiwan_release or t.release, today)]


def games_ahead(today: date) -> list[Game]:
    return [g for g in GAMES if not g.release_confirmed_by and _ahead(g.release, today)]


def events_ahead(today: date) -> list[Event]:
    return [e for e in EVENTS if e.start <= HORIZON and e.end >= today]


def test_helpers_count_what_they_say():
    # hand-worked: a window that closed before today, one that reaches today, and one past the horizon
    assert not _ahead("2026-10", TODAY) and _ahead("2026-11", TODAY) and _ahead("2026", TODAY)
    assert _ahead("2027-12-26", TODAY) and not _ahead("2027-12-27", TODAY) and not _ahead("tba", TODAY)


# Issue 21 asks for 30 titles, 30 games and 25 sports events in the next 13 months. What the data
# holds with a published source as of 2026-11-26 is the floor below; the searchable record of
# late-2026 announcements (2027 league schedules, Taiwan release dates) ran out before the targets.
ISSUE_TARGETS = {"movie": 30, "games": 30, "sports": 25}
FLOORS = {"movie": 25, "games": 19, "sports": 9}


def _counts(today: date) -> dict[str, int]:
    return {"movie": len(titles_ahead(today)), "games": len(games_ahead(today)), "sports": len(events_ahead(today))}


def test_next_13_months_are_covered(pinned_today):
    assert pinned_today == TODAY
    counts = _counts(pinned_today)
    assert all(counts[k] >= FLOORS[k] for k in FLOORS), counts


@pytest.mark.xfail(strict=True, reason="issue 21 targets not yet met with sourced dates; raise FLOORS when this passes")
def test_issue_targets_are_met(pinned_today):
    counts = _counts(pinned_today)
    assert all(counts[k] >= ISSUE_TARGETS[k] for k in ISSUE_TARGETS), counts


@pytest.mark.parametrize("records", [TITLES, GAMES, EVENTS], ids=["movie", "games", "sports"])
def test_every_record_has_a_source_and_a_check_date(records):
    for record in records:
        assert record.source.startswith(("https://", "http://")), record.id
        assert date(2025, 1, 1) <= record.checked <= TODAY, record.id
    assert len({r.id for r in records}) == len(records)


def test_delays_and_broadcasts_are_sourced():
    for item in [*TITLES, *GAMES]:
        assert all(d.source.startswith("http") for d in item.delays), item.id
    for event in EVENTS:
        assert all(b.source.startswith("http") and b.checked <= TODAY for b in event.broadcasts), event.id
        assert all(c.source.startswith("http") for c in event.schedule_changes), event.id
