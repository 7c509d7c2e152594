"""The seo service's record models: each kind of reference record declared once (tables.py derives
the store's tables from them)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from twlookup.platform.records import Record, SourcedRecord
from twlookup.platform.schemas import LazyModel

CrawlerType = Literal["search", "ai_search", "train", "user"]
HonoursRobots = Literal["yes", "no", "unclear"]


class Crawler(SourcedRecord):
    token: str = Field(max_length=80, description="Product token matched in robots.txt User-agent lines")
    type: CrawlerType
    operator: str = Field(max_length=80)
    fetches: bool = Field(description="False for robots.txt tokens that no request carries (nothing to verify by IP)")
    honours_robots: HonoursRobots
    ip_ranges: list[str] = Field(default_factory=list, description="ids of the operator's published IP-range files")
    rdns: list[str] = Field(default_factory=list, description="reverse-DNS suffixes the operator documents")
    docs: str = Field(max_length=500, description="The operator's documentation of this crawler")
    purpose: str


class IpRangeFile(SourcedRecord):
    id: str = Field(max_length=40)
    operator: str = Field(max_length=80)
    crawlers: list[str]
    creation_time: str | None = Field(None, max_length=40, description="creationTime of the imported file")
    prefixes: list[str]


class EngineOperator(LazyModel):
    operator: str
    example: str
    meaning: str


class SubmitGuide(LazyModel):
    tool: str
    url: str
    steps: list[str]
    instantindex: bool = Field(description="Whether the engine itself takes IndexNow submissions")
    note: str
    sources: list[str] = Field(min_length=1, description="Pages the note and steps rest on")


class Engine(SourcedRecord):
    id: Literal["google", "bing", "duckduckgo", "yahoo"]
    name: str = Field(max_length=40)
    search_url: str = Field(max_length=200)
    query_param: str = Field(max_length=10)
    time_filters: dict[str, dict[str, str]]
    operators: list[EngineOperator]
    submit: SubmitGuide


class EngineShare(Record):
    engine: str
    percent: float


class MarketShare(SourcedRecord):
    region: str = Field(max_length=20)
    month: str | None = Field(max_length=7)
    shares: list[EngineShare]
    note: str | None = None


class AiAgent(Record):
    name: str = Field(description="The name as ai.robots.txt lists it")
    token: str = Field(description="The product token a robots.txt parser reads from the name")
    type: CrawlerType
    operator: str
    honours_robots: HonoursRobots
