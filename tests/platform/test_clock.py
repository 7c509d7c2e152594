"""The one clock: TWLOOKUP_TODAY fixes today for every date-derived answer in the process."""

from __future__ import annotations

from datetime import date

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
