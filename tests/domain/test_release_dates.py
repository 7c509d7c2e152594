"""Announced dates at their precision, countdowns and the passed-date notes (hand-worked cases)."""

from datetime import date

import pytest

from twlookup.domain.release_dates import countdown, fold, month_bounds, parse_when, passed_since_check


@pytest.mark.parametrize(
    ("text", "precision", "earliest", "latest"),
    [
        ("2026-11-19", "day", date(2026, 11, 19), date(2026, 11, 19)),
        ("2027-02", "month", date(2027, 2, 1), date(2027, 2, 28)),
        ("2028-02", "month", date(2028, 2, 1), date(2028, 2, 29)),  # leap year
        ("2027-Q1", "quarter", date(2027, 1, 1), date(2027, 3, 31)),
        ("2027-Q4", "quarter", date(2027, 10, 1), date(2027, 12, 31)),
        ("2026-H2", "half", date(2026, 7, 1), date(2026, 12, 31)),
        ("2026-spring", "season", date(2026, 3, 1), date(2026, 5, 31)),
        ("2026-fall", "season", date(2026, 9, 1), date(2026, 11, 30)),
        ("2027", "year", date(2027, 1, 1), date(2027, 12, 31)),
        ("TBA", "tba", None, None),
    ],
)
def test_parse_each_precision(text, precision, earliest, latest):
    when = parse_when(text)
    assert (when.precision, when.earliest, when.latest) == (precision, earliest, latest)


@pytest.mark.parametrize("text", ["2027-Q5", "2027-13", "2027-02-30", "soon", "2027-winter", "27"])
def test_parse_rejects_what_is_not_an_announced_date(text):
    with pytest.raises(ValueError):
        parse_when(text)


def test_countdown_counts_whole_days_and_says_the_target():
    today = date(2026, 11, 23)
    c = countdown(parse_when("2026-12-18"), today)
    assert (c.target, c.days) == (date(2026, 12, 18), 25)  # 7 days left in November + 18
    assert "2026-12-18" in c.note
    past = countdown(parse_when("2026-11-19"), today)
    assert past.days is None and past.days_since == 4 and "4 days ago" in past.note  # never negative
    on_the_day = countdown(parse_when("2026-11-23"), today)
    assert (on_the_day.days, on_the_day.days_since) == (0, None)


def test_window_counts_to_its_earliest_day_and_says_so():
    c = countdown(parse_when("2027-Q1"), date(2026, 11, 23))
    assert c.target == date(2027, 1, 1) and c.days == 39 and c.precision == "quarter"
    assert "window" in c.note and "earliest day" in c.note and "2027-03-31" in c.note


def test_an_open_window_has_no_countdown_and_a_closed_one_counts_since_its_last_day():
    open_window = countdown(parse_when("2026-fall"), date(2026, 11, 23))
    assert (open_window.days, open_window.days_since) == (None, None)
    assert "is open" in open_window.note and "7 days left" in open_window.note  # 23 to 30 November
    closed = countdown(parse_when("2026-Q3"), date(2026, 11, 23))
    assert (closed.days, closed.days_since) == (None, 54)  # 30 September + 54 days = 23 November
    assert "closed on 2026-09-30" in closed.note


def test_tba_has_no_countdown():
    c = countdown(parse_when("tba"), date(2026, 11, 23))
    assert c.target is None and c.days is None and "no countdown" in c.note


def test_passed_date_notes_both_sides_of_the_check_date():
    when = parse_when("2026-11-19")
    assert passed_since_check(when, date(2026, 11, 2), date(2026, 11, 18)) is None  # not passed yet
    assert passed_since_check(when, date(2026, 11, 2), date(2026, 11, 25)) == (
        "release date 2026-11-19 passed; not re-checked since 2026-11-02"
    )
    assert "no source here confirms" in passed_since_check(when, date(2026, 11, 23), date(2026, 11, 25))
    assert passed_since_check(when, date(2026, 11, 2), date(2026, 11, 25), confirmed=True) is None
    assert "window 2026-fall" in passed_since_check(parse_when("2026-fall"), date(2026, 8, 1), date(2026, 12, 1))


def test_month_bounds_and_folding():
    assert month_bounds("2027-02") == (date(2027, 2, 1), date(2027, 2, 28))
    assert fold("ＧＴＡ　６") == fold("gta-6") == fold("GTA 6") == "gta6"
    assert fold("復仇者聯盟：末日崛起") == "復仇者聯盟末日崛起"
