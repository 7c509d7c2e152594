"""Store tables of the Taiwan calendar, its seeder from data/calendar/taiwan.yaml, and its cache."""

from __future__ import annotations

import datetime as dt
from datetime import date
from pathlib import Path

from sqlalchemy import Date, ForeignKey, String, Text, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from twlookup.domain.taiwan_calendar import DayOff, LaborLawDay, TaiwanCalendar, YearSource
from twlookup.platform.store.base import Base, Provenance
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows


class CalendarYear(Provenance, Base):
    __tablename__ = "calendar_year"

    year: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    official: Mapped[bool]
    note: Mapped[str | None] = mapped_column(Text, default=None)


class CalendarDayOff(Base):
    __tablename__ = "calendar_day_off"

    date: Mapped[date] = mapped_column(Date, primary_key=True)
    year: Mapped[int] = mapped_column(ForeignKey("calendar_year.year"))
    name_zh: Mapped[str] = mapped_column(String(100))
    name_en: Mapped[str] = mapped_column(String(150))
    kind: Mapped[str] = mapped_column(String(20))


class CalendarMakeupWorkday(Base):
    __tablename__ = "calendar_makeup_workday"

    date: Mapped[date] = mapped_column(Date, primary_key=True)
    year: Mapped[int] = mapped_column(ForeignKey("calendar_year.year"))
    pays_back: Mapped[dt.date | None] = mapped_column(Date, default=None)  # `date` is a column here


class CalendarLaborLawDay(Provenance, Base):
    """A day off under the Labor Standards Act that the government calendar of its year has as a workday."""

    __tablename__ = "calendar_labor_law_day"

    date: Mapped[date] = mapped_column(Date, primary_key=True)
    year: Mapped[int] = mapped_column(ForeignKey("calendar_year.year"))
    name_zh: Mapped[str] = mapped_column(String(100))
    name_en: Mapped[str] = mapped_column(String(150))
    note: Mapped[str] = mapped_column(Text)


def seed_calendar(session: Session, data_dir: Path) -> int:
    doc = load_yaml(data_dir / "calendar" / "taiwan.yaml")
    years, makeups, labor = [], [], []
    days: list[CalendarDayOff] = []
    for year, spec in doc["years"].items():
        years.append(
            CalendarYear(
                year=int(year),
                official=bool(spec.get("official", True)),
                note=spec.get("note"),
                source=spec["source"],
                source_title=spec.get("source_title"),
                checked=spec["checked"],
            )
        )
        # an item's keys are its row's columns (an unknown key is refused by the row)
        days.extend(CalendarDayOff(**item, year=int(year)) for item in spec["days_off"])
        for item in spec.get("makeup_workdays") or []:
            makeups.append(CalendarMakeupWorkday(date=item["date"], year=int(year), pays_back=item.get("for")))
        for item in spec.get("labor_law_days_off") or []:
            if item["date"] in {d.date for d in days}:
                raise ValueError(f"{item['date']} is on the government calendar; it is no labor-law-only day off")
            labor.append(
                CalendarLaborLawDay(**{"source_title": None, "checked": spec["checked"], **item}, year=int(year))
            )
    # Children reference their year: clear them, upsert the years, then add the children back.
    session.query(CalendarLaborLawDay).delete()
    session.query(CalendarMakeupWorkday).delete()
    session.query(CalendarDayOff).delete()
    session.flush()
    count = replace_rows(session, CalendarYear, years)
    session.add_all([*days, *makeups, *labor])
    session.flush()
    return count + len(days) + len(makeups) + len(labor)


def _load(session: Session) -> TaiwanCalendar:
    years = {
        y.year: YearSource(y.year, y.source, y.source_title, y.checked, y.official, y.note)
        for y in session.scalars(select(CalendarYear))
    }
    days = {d.date: DayOff(d.date, d.name_zh, d.name_en, d.kind) for d in session.scalars(select(CalendarDayOff))}
    makeups = {m.date: m.pays_back for m in session.scalars(select(CalendarMakeupWorkday))}
    labor = {
        d.date: LaborLawDay(d.date, d.name_zh, d.name_en, d.note, d.source, d.source_title, d.checked)
        for d in session.scalars(select(CalendarLaborLawDay))
    }
    return TaiwanCalendar(years, days, makeups, labor)


TAIWAN_CALENDAR: Reference[TaiwanCalendar] = Reference(_load)
