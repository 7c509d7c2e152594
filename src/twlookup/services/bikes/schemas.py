"""Parameters and results of the bikes service's operations."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field, field_validator

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel, Source
from twlookup.services.bikes.records import BikeModel, Contribution, Maintenance, Part, Sale, SourceKind, Spec

SLUG = Field(pattern=r"^[a-z0-9-]{3,60}$", description="A model's slug, as /api/models lists them")
TARGET_MODELS = 80  # issue 22: at least 80 models


class SlugQuery(Params):
    slug: str = SLUG


class SearchQuery(Params):
    q: str = Field(
        min_length=1,
        max_length=60,
        description=(
            "Words of a model's name, maker (in either script: 山葉 or Yamaha, 光陽 or Kymco, 三陽 or SYM) or "
            "years, a part (火星塞 or spark plug, 化油器 or carburettor, 混合油 or premix, 齒輪油 or gear oil, "
            "輪胎 or tyre) or a maker's code (NGK, BR8HSA); 1 to 60 characters"
        ),
    )


class PartQuery(Params):
    q: str = Field(
        min_length=2,
        max_length=40,
        description=(
            "A part number or part of one (BR9ECM, BP7HS), a maker's name (NGK, Mikuni) or a part's name in "
            "Chinese or English (火星塞, spark plug, 化油器); 2 to 40 characters"
        ),
    )


class ContributeBody(Params):
    slug: str = SLUG
    kind: Literal["part", "maint", "sale", "spec"] = Field(
        description="part, maint (maintenance), sale (price report) or spec"
    )
    item: str = Field(
        min_length=1, max_length=80, description="What it is about, e.g. 'spark plug', 'bore_mm', 'UK price'"
    )
    value: str = Field(
        min_length=1, max_length=200, description="The value, e.g. 'NGK B8ES', '64', 'GBP 3500 (2025-06)'"
    )
    note: str | None = Field(None, max_length=500, description="Anything a reviewer should know")
    source: str = Field(
        min_length=10,
        max_length=500,
        description="Where it can be checked: an http(s) URL of a manual, catalogue or listing",
    )

    @field_validator("source")
    @classmethod
    def _url(cls, value: str) -> str:
        from urllib.parse import urlsplit

        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc or " " in value.strip():
            raise ValueError("must be an http(s) URL where the fact can be checked")
        return value.strip()


class ContributionOut(RecordAnswer, record=Contribution, exclude=("submission_id", "slug")):
    reviewed: Literal[True] = True


SOURCE_KIND = Field(
    description=(
        "What kind of page the spec was read on: maker, manual, encyclopedia, press (magazine or "
        "newspaper), spec-database, catalogue or website (a private site: weaker)"
    )
)


class ModelSummary(RecordAnswer, record=BikeModel, exclude=("spec", "note")):
    cycle: str | None = Field(
        None, description="two-stroke, four-stroke or electric; null when the source does not say"
    )
    displacement_cc: float | None = Field(description="As the source states it; null when it states none")
    oil_supply: str | None
    source_kind: SourceKind = SOURCE_KIND  # the models' answers keep their own description


class ModelList(LazyModel):
    count: int
    target: int = Field(TARGET_MODELS, description="Models the spec calls for")
    by_source_kind: dict[str, int] = Field(description="How many models' specs come from each kind of page")
    note: str
    models: list[ModelSummary]


class MaintenanceOut(RecordAnswer, record=Maintenance, exclude=("slug",)):
    """One sourced maintenance fact of a model."""


class PartOut(RecordAnswer, record=Part):
    """A part, the models it fits, and the page that says so."""


class SaleOut(RecordAnswer, record=Sale, exclude=("slug",)):
    """A dated sale report of a model."""


class ModelDetail(RecordAnswer, record=BikeModel):
    spec: Spec = Field(description="Figures as the source states them; absent ones were not stated there")
    spec_source: Source = Field(description="The page the spec was read on (the model's source)")
    source_kind: SourceKind = SOURCE_KIND
    source_kind_meaning: str
    maintenance: list[MaintenanceOut]
    parts: list[PartOut]
    sales: list[SaleOut]
    contributions: list[ContributionOut] = Field(
        description="Reviewed contributions from riders (each with its source)"
    )


class MaintenanceList(LazyModel):
    slug: str
    name: str
    cycle: str | None
    oil_supply: str | None
    items: list[MaintenanceOut]
    contributions: list[ContributionOut]
    missing: str | None = Field(None, description="What no cited source gave for this model")


class FactOut(RecordAnswer, record=Maintenance):
    """One sourced maintenance fact of one model."""

    name: str = Field(description="The model's name")


class Understood(LazyModel):
    items: list[str] = Field(description="Maintenance items the query named (spark_plug, carburettor, ...)")
    makers: list[str] = Field(description="Makers the query named, in either script")
    words: list[str] = Field(description="Other words, matched as text in names and in the facts' values")


class SearchOut(LazyModel):
    q: str
    count: int = Field(description="How many models matched")
    understood: Understood
    models: list[ModelSummary]
    facts: list[FactOut] = Field(
        description="The matching models' facts for the parts named or the codes given (empty for a plain name search)"
    )
    note: str | None = Field(None, description="What the query asked that no record holds")


class PartsOut(LazyModel):
    q: str
    count: int
    parts: list[PartOut]
    contributed: list[dict] = Field(description="Reviewed part contributions matching q: {slug, item, value, source}")
    facts: list[FactOut] = Field(
        description="Maintenance facts naming the part or code (火星塞/spark plug, NGK, BP7HS ...), each with its source"
    )
    models: list[str] = Field(description="Slugs of the models the matching parts and facts fit")


class ExportOut(LazyModel):
    generated: datetime
    count: int
    models: list[ModelDetail]
