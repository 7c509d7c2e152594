"""Store tables of the seo service, derived from its records: crawlers, published IP-range files,
engines, market share."""

from __future__ import annotations

from twlookup.platform.store.record_tables import record_table
from twlookup.services.seo.records import Crawler, Engine, IpRangeFile, MarketShare

CrawlerRow = record_table(Crawler, "seo_crawler", key="token", index=("type",))
IpRangeRow = record_table(IpRangeFile, "seo_ip_range_file")
EngineRow = record_table(Engine, "seo_engine")
ShareRow = record_table(MarketShare, "seo_market_share", key="region")
