"""Store tables of the seo service: crawlers, published IP-range files, engines, market share."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from twlookup.platform.store.base import Base, Provenance


class CrawlerRow(Provenance, Base):
    __tablename__ = "seo_crawler"

    token: Mapped[str] = mapped_column(String(80), primary_key=True)
    type: Mapped[str] = mapped_column(String(20), index=True)
    operator: Mapped[str] = mapped_column(String(80))
    fetches: Mapped[bool] = mapped_column(Boolean)
    honours_robots: Mapped[str] = mapped_column(String(10))
    ip_ranges: Mapped[list[str]] = mapped_column(JSON, default=list)
    rdns: Mapped[list[str]] = mapped_column(JSON, default=list)
    docs: Mapped[str] = mapped_column(String(500))
    purpose: Mapped[str] = mapped_column(Text)


class IpRangeRow(Provenance, Base):
    __tablename__ = "seo_ip_range_file"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    operator: Mapped[str] = mapped_column(String(80))
    crawlers: Mapped[list[str]] = mapped_column(JSON, default=list)
    creation_time: Mapped[str | None] = mapped_column(String(40), default=None)
    prefixes: Mapped[list[str]] = mapped_column(JSON, default=list)


class EngineRow(Provenance, Base):
    __tablename__ = "seo_engine"

    id: Mapped[str] = mapped_column(String(20), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    search_url: Mapped[str] = mapped_column(String(200))
    query_param: Mapped[str] = mapped_column(String(10))
    time_filters: Mapped[dict[str, Any]] = mapped_column(JSON)
    operators: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    submit: Mapped[dict[str, Any]] = mapped_column(JSON)


class ShareRow(Provenance, Base):
    __tablename__ = "seo_market_share"

    region: Mapped[str] = mapped_column(String(20), primary_key=True)
    month: Mapped[str | None] = mapped_column(String(7), default=None)
    shares: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    note: Mapped[str | None] = mapped_column(Text, default=None)
