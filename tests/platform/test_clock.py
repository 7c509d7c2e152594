"""The one clock: TWLOOKUP_TODAY fixes today for every date-derived answer in the process."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

import pytest
from pydantic import ValidationError

from twlookup.platform import clock
from twlookup.platform.schemas import today_taipei
from twlookup.settings import Settings


@pytest.fixture
def restore_clock():
    yield
    clock.set_today(None)


def test_fixed_today_is_what_every_service_reads(restore_clock):
    clock.set_today(date(2027, 6, 1))
    assert today_taipei() == date(2027, 6, 1)
    assert clock.now().date() == date(2027, 6, 1)
    assert clock.now().tzinfo is clock.TAIPEI
    clock.set_today(None)
    assert today_taipei() != date(2027, 6, 1) or date.today() == date(2027, 6, 1)


def test_setting_reads_the_environment(monkeypatch):
    monkeypatch.setenv("TWLOOKUP_TODAY", "2027-06-01")
    assert Settings().today == date(2027, 6, 1)
    monkeypatch.setenv("TWLOOKUP_TODAY", "June 1st")
    with pytest.raises(ValidationError, match="today"):
        Settings()


def test_create_app_fixes_the_clock(restore_clock):
    from twlookup.app import create_app

    create_app(Settings(today=date(2028, 2, 29), payments_enabled=False), services=[])
    assert today_taipei() == date(2028, 2, 29)


def test_the_real_day_is_worked_out_again_at_midnight_in_taipei(monkeypatch):
    monkeypatch.setattr(clock, "_fixed", None)
    monkeypatch.setattr(clock, "_day_ends", float("-inf"))
    day = clock.today()
    assert day == datetime.now(clock.TAIPEI).date()
    ends = datetime.fromtimestamp(clock._day_ends, clock.TAIPEI)
    assert (ends.date(), ends.time()) == (day + timedelta(days=1), time(0, 0))  # the next midnight there
    now = clock._day_ends - 1  # a second before it: the day kept
    monkeypatch.setattr(clock, "epoch_seconds", lambda: now)
    monkeypatch.setattr(clock, "_day", date(2000, 1, 1))  # (what it kept, made visible)
    assert clock.today() == date(2000, 1, 1)
    monkeypatch.setattr(clock, "epoch_seconds", lambda: now + 1)  # midnight: worked out again
    assert clock.today() == datetime.now(clock.TAIPEI).date()
