"""Store tables of the price service: categories, products and daily price observations."""

from __future__ import annotations

from datetime import date

from sqlalchemy import Date, Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class CategoryRecord(Provenance, Base):
    """A product kind of the feed (種類代碼), e.g. vegetables N04 (data/price/categories.yaml)."""

    __tablename__ = "price_category"

    slug: Mapped[str] = mapped_column(String(30), primary_key=True)
    code: Mapped[str] = mapped_column(String(10), unique=True)
    position: Mapped[int] = mapped_column(Integer)
    name_zh: Mapped[str] = mapped_column(String(50))
    name_en: Mapped[str] = mapped_column(String(50))


class ProductRecord(Provenance, Base):
    """A crop as the feed names it: 作物代號 (id) and 作物名稱 (name)."""

    __tablename__ = "price_product"

    id: Mapped[str] = mapped_column(String(20), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    category: Mapped[str] = mapped_column(String(30), index=True)


class ObservationRecord(Provenance, Base):
    """One product's prices at one market on one trading day (NT$/kg; volume in kg)."""

    __tablename__ = "price_observation"

    product_id: Mapped[str] = mapped_column(String(20), primary_key=True)
    market_code: Mapped[str] = mapped_column(String(10), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True, index=True)
    market_name: Mapped[str] = mapped_column(String(50))
    upper: Mapped[float] = mapped_column(Float)
    middle: Mapped[float] = mapped_column(Float)
    lower: Mapped[float] = mapped_column(Float)
    average: Mapped[float] = mapped_column(Float)
    volume: Mapped[float] = mapped_column(Float)
