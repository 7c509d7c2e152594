"""Days off under the Labor Standards Act that the government calendar has as workdays: kept apart
from the calendar's days off, and a day may not be both."""

from datetime import date
from pathlib import Path

import pytest
import yaml
from yaml_files import load_yaml

from twlookup.cli import DEFAULT_DATA
from twlookup.domain.taiwan_calendar import DayOff, LaborLawDay, TaiwanCalendar, YearSource
from twlookup.domain.taiwan_calendar_tables import seed_calendar

LABOR_2025 = LaborLawDay(
    date(2025, 5, 1), "勞動節", "Labor Day", "n", "https://example.org/lsa", None, date(2026, 11, 23)
)


def calendar() -> TaiwanCalendar:
    years = {y: YearSource(y, "https://example.org", None, date(2026, 11, 22), True) for y in (2025, 2026)}
    days = {date(2026, 5, 1): DayOff(date(2026, 5, 1), "勞動節", "Labor Day", "holiday")}
    return TaiwanCalendar(years, days, {}, {LABOR_2025.date: LABOR_2025})


def test_a_labor_law_day_is_not_a_government_day_off():
    cal = calendar()
    assert cal.is_day_off(date(2025, 5, 1)) is False  # a Thursday at work for government offices
    assert date(2025, 5, 1) in cal.labor_law_days


def test_the_later_holiday_of_the_same_day_and_name_has_a_precedent():
    cal = calendar()
    assert cal.labor_law_precedent(date(2026, 5, 1)) == LABOR_2025
    assert cal.labor_law_precedent(date(2025, 5, 1)) is None  # not a calendar holiday itself
    assert cal.labor_law_precedent(date(2026, 5, 2)) is None  # a Saturday, no holiday


def test_seeding_refuses_a_labor_law_day_that_is_on_the_calendar(tmp_path: Path):
    doc = load_yaml((DEFAULT_DATA / "calendar" / "taiwan.yaml").read_text(encoding="utf-8"))
    doc["years"][2025]["labor_law_days_off"][0]["date"] = date(2025, 10, 10)  # National Day
    (tmp_path / "calendar").mkdir()
    (tmp_path / "calendar" / "taiwan.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ValueError, match="2025-10-10 is on the government calendar"):
        seed_calendar(None, tmp_path)
