"""The bikes service's records, each declared once. Every figure carries the page it was read on;
a field a page does not state is absent, never guessed."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Literal

from pydantic import ConfigDict, Field, field_validator

from twlookup.platform.records import Record, SourcedRecord
from twlookup.platform.schemas import LazyModel

FACTS_LICENCE = "facts (not copyrightable); the cited page's text and images remain its owner's"

# What kind of page a model's spec was read on, strongest first. A maker's own page or manual is
# the reference the spec asks for; the others are what could be found for bikes out of production
# for decades, and each answer says which kind it is.
SourceKind = Literal["maker", "manual", "encyclopedia", "press", "spec-database", "catalogue", "website"]
SOURCE_KINDS: dict[str, str] = {
    "maker": "the maker's own page or press release",
    "manual": "the maker's owner's or service manual",
    "encyclopedia": "an encyclopedia article (Wikipedia)",
    "press": "a magazine or newspaper report or road test",
    "spec-database": "a specification database compiled by a third party",
    "catalogue": "a dealer's or publisher's model catalogue",
    "website": "a private website (weaker: not the maker, press or an encyclopedia)",
}


class Spec(LazyModel):
    """Engine and chassis figures as the cited page states them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cycle: Literal["two-stroke", "four-stroke", "electric"] | None = Field(
        None, description="Two-stroke, four-stroke or electric, as the page states it"
    )
    displacement_cc: float | None = None
    bore_mm: float | None = None
    stroke_mm: float | None = None
    layout: str | None = None
    cooling: Literal["air", "liquid"] | None = None
    compression: str | None = None
    induction: str | None = None
    oil_supply: Literal["oil injection", "premix"] | None = None
    oil_system: str | None = Field(None, description="The maker's name for it (Autolube, Injectolube, ...)")
    premix_ratio: str | None = None
    power_hp: float | None = None
    power_rpm: int | None = None
    power_note: str | None = None
    torque_nm: float | None = None
    torque_rpm: int | None = None
    torque_note: str | None = None
    weight_kg: float | None = None
    weight_basis: Literal["dry", "wet", "unstated"] | None = None
    fuel_l: float | None = None
    transmission: str | None = None


class BikeModel(SourcedRecord):
    slug: str = Field(pattern=r"^[a-z0-9-]{3,60}$", max_length=60)
    name: str = Field(max_length=120)
    maker: str = Field(max_length=60)
    years: str = Field(max_length=20)
    spec: Spec
    source_kind: SourceKind = Field(description="What kind of page the spec was read on (SOURCE_KINDS)")
    note: str | None = None
    licence: str | None = FACTS_LICENCE


# What a maintenance fact is about. spark_plug (maker code, gap), gear_oil (grade, volume),
# two_stroke_oil (the oil a two-stroke's pump or premix takes), oil_mix (oil injection or the premix
# ratio), engine_oil (a four-stroke's sump), carburettor (make, size, jetting), tyres (sizes),
# tyre_pressure, fuel, interval (service intervals).
MaintenanceItem = Literal[
    "spark_plug",
    "gear_oil",
    "two_stroke_oil",
    "oil_mix",
    "engine_oil",
    "carburettor",
    "tyres",
    "tyre_pressure",
    "fuel",
    "interval",
]


class Maintenance(SourcedRecord):
    slug: str = Field(max_length=60)
    item: MaintenanceItem
    value: str
    licence: str | None = FACTS_LICENCE


class Part(SourcedRecord):
    number: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._/-]{1,39}$", max_length=40)
    name: str = Field(max_length=120)
    fits: list[str] = Field(min_length=1)
    licence: str | None = FACTS_LICENCE


class Sale(SourcedRecord):
    slug: str = Field(max_length=60)
    market: str = Field(max_length=60)
    currency: str = Field(pattern=r"^[A-Z]{3}$", max_length=3)
    low: float = Field(ge=0)
    high: float = Field(ge=0)
    kind: Literal["new", "used"]
    date: date
    note: str | None = None
    licence: str | None = FACTS_LICENCE


ContributionKind = Literal["part", "maint", "sale", "spec"]


class Contribution(Record):
    """A rider's contribution as an operator approved it (platform/review.py): public from then on."""

    submission_id: int = Field(description="The review submission it was approved from")
    slug: str = Field(max_length=60)
    kind: ContributionKind = Field(description="part, maint (maintenance), sale (price report) or spec")
    item: str = Field(max_length=80)
    value: str = Field(max_length=200)
    note: str | None = None
    source: str = Field(max_length=500, description="Where it can be checked, as the contributor gave it")
    approved_at: datetime

    @field_validator("approved_at")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        """Stored in UTC; a store that keeps no zone (SQLite) gives it back naive."""
        return value if value.tzinfo else value.replace(tzinfo=UTC)
