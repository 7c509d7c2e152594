"""What an announced release date means on a given day (hand-worked cases on both sides of each date)."""

from datetime import date

import pytest

from twlookup.domain.release_dates import parse_when
from twlookup.domain.release_state import DATE_PASSED, release_state

CONFIRMING = "https://www.example-publisher.test/news/out-now"


@pytest.mark.parametrize(
    ("text", "today", "state", "days_until", "days_since"),
    [
        ("2026-11-19", date(2026, 11, 18), "upcoming", 1, None),
        ("2026-11-19", date(2026, 11, 19), "upcoming", 0, None),  # the day itself is still to come
        ("2026-11-19", date(2026, 11, 20), "released", None, 1),
        ("2027-Q1", date(2026, 12, 31), "upcoming", 1, None),
        ("2027-Q1", date(2027, 1, 1), "upcoming", 0, None),
        ("2027-Q1", date(2027, 1, 2), "window-open", None, None),
        ("2027-Q1", date(2027, 3, 31), "window-open", None, None),
        ("2027-Q1", date(2027, 4, 1), "overdue", None, 1),
        ("2026-fall", date(2026, 12, 1), "overdue", None, 1),  # September to November
        ("2027", date(2028, 1, 10), "overdue", None, 10),
        ("tba", date(2030, 1, 1), "tba", None, None),
    ],
)
def test_state_days_until_and_since(text, today, state, days_until, days_since):
    s = release_state(parse_when(text), today)
    assert (s.state, s.days_until, s.days_since) == (state, days_until, days_since)
    assert s.upcoming == (state in ("upcoming", "window-open", "tba"))
    assert s.released == (state == "released")


def test_basis_says_why():
    assert (
        release_state(parse_when("2026-11-19"), date(2026, 11, 25)).basis
        == DATE_PASSED
        == ("date passed, no delay reported")
    )
    overdue = release_state(parse_when("2026-Q3"), date(2026, 11, 25))
    assert overdue.basis == "window 2026-Q3 closed on 2026-09-30 with no release confirmed"
    assert release_state(parse_when("2026-12-18"), date(2026, 11, 25)).basis is None


def test_a_confirming_source_is_the_basis_and_releases_a_window():
    s = release_state(parse_when("2026-Q3"), date(2026, 11, 25), confirmed_by=CONFIRMING)
    assert (s.state, s.basis, s.days_since) == ("released", CONFIRMING, 56)
    early = release_state(parse_when("2026-12-18"), date(2026, 11, 25), confirmed_by=CONFIRMING)
    assert early.released and not early.upcoming and early.days_until is None
