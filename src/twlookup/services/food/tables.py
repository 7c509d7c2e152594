"""The food service's tables, mirroring the records in records.py (`record_table` derives a table
from its record; the older ones are still written out column by column)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import JSON, Date, Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance
from twlookup.platform.store.record_tables import record_table
from twlookup.services.food.records import Shop


class DeityRow(Base):
    __tablename__ = "food_deity"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(50))
    role: Mapped[str] = mapped_column(String(200))
    style: Mapped[str] = mapped_column(String(300))
    categories: Mapped[list[str]] = mapped_column(JSON)
    vegetarian: Mapped[bool] = mapped_column(default=False)
    custom: Mapped[str | None] = mapped_column(Text, default=None)
    custom_source: Mapped[str | None] = mapped_column(String(500), default=None)
    custom_source_title: Mapped[str | None] = mapped_column(String(300), default=None)
    custom_source_kind: Mapped[str | None] = mapped_column(String(20), default=None)
    checked: Mapped[date | None] = mapped_column(Date, default=None)


class CategoryRow(Base):
    __tablename__ = "food_category"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(50))
    meals: Mapped[list[str]] = mapped_column(JSON)
    band_min: Mapped[int] = mapped_column(Integer)
    band_max: Mapped[int] = mapped_column(Integer)
    vegetarian: Mapped[bool] = mapped_column(default=False)
    group: Mapped[bool] = mapped_column(default=False)
    dishes: Mapped[list[str]] = mapped_column(JSON)
    amenities: Mapped[list[str]] = mapped_column(JSON)
    cuisines: Mapped[list[str]] = mapped_column(JSON)


class PoemRow(Provenance, Base):
    __tablename__ = "food_poem"

    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    ganzhi: Mapped[str] = mapped_column(String(4))
    lines: Mapped[list[str]] = mapped_column(JSON)
    omen: Mapped[str] = mapped_column(String(50))
    note: Mapped[str | None] = mapped_column(Text, default=None)


ShopRow = record_table(Shop, "food_shop", index=("lat", "category"))


class SponsorRow(Base):
    __tablename__ = "food_sponsor"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    category: Mapped[str] = mapped_column(String(32))
    note: Mapped[str | None] = mapped_column(Text, default=None)
    url: Mapped[str | None] = mapped_column(String(500), default=None)
    lat: Mapped[float | None] = mapped_column(Float, default=None)
    lon: Mapped[float | None] = mapped_column(Float, default=None)
    opening_hours: Mapped[str | None] = mapped_column(String(500), default=None)
    starts: Mapped[date | None] = mapped_column(Date, default=None)
    ends: Mapped[date | None] = mapped_column(Date, default=None)
