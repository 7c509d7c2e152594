"""The food service's records, each declared once: data files are validated against them, the
store mirrors them, and answers are built from them."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from twlookup.platform.records import Record, SourcedRecord

# How strong the page behind an offering custom is: a temple's own word (on its site or quoted by
# a newspaper), a news report, or a private website (weak; the answer says so).
CustomSourceKind = Literal["temple", "news", "website"]

MealId = Literal["breakfast", "lunch", "afternoon", "dinner", "late_night"]


class Deity(Record):
    """A deity and the food style the draw gives it. `custom` states an offering custom in our own
    words and is only present with the page it was read on; `style` is this service's theme."""

    id: str = Field(pattern=r"^[a-z_]+$")
    name: str
    role: str = Field(description="What the deity is prayed to for")
    style: str = Field(description="The food style this service's draw gives the deity (a theme, not a custom)")
    categories: list[str] = Field(min_length=1, description="Food categories the draw favours for this deity")
    vegetarian: bool = Field(False, description="Offerings are vegetarian by custom: the draw keeps to vegetarian food")
    custom: str | None = Field(None, description="An offering custom, in our words, as the cited page states it")
    custom_source: str | None = None
    custom_source_title: str | None = None
    custom_source_kind: CustomSourceKind | None = Field(
        None, description="temple (the temple's own word), news (a news report) or website (a private site: weak)"
    )
    checked: date | None = None


class Category(Record):
    """A food category with its price band per person (NT$). The band is this service's own
    classification of what one person spends on one meal of the kind, not a survey."""

    id: str = Field(pattern=r"^[a-z_]+$")
    name: str
    meals: list[MealId] = Field(min_length=1)
    band_min: int = Field(ge=0, description="NT$ per person, lower end")
    band_max: int = Field(ge=1, description="NT$ per person, upper end")
    vegetarian: bool = False
    group: bool = Field(False, description="Best shared by 3 or more people (hot pot, stir-fry)")
    dishes: list[str] = Field(min_length=3)
    amenities: list[str] = Field(default_factory=list, description="OSM amenity values that map here")
    cuisines: list[str] = Field(default_factory=list, description="OSM cuisine values that map here")


class Poem(SourcedRecord):
    """One of the sixty jiazi temple poems (traditional text, public domain)."""

    number: int = Field(ge=1, le=60)
    ganzhi: str = Field(min_length=2, max_length=2)
    lines: list[str] = Field(min_length=4, max_length=4)
    omen: str
    note: str | None = None


class Shop(SourcedRecord):
    """A place to eat from OpenStreetMap (id like node/123), or a sample shop (`sample: true`)."""

    id: str = Field(
        pattern=r"^(node|way|relation|sample)/\d+$",
        max_length=40,
        description="OpenStreetMap id (node/123, way/456) or sample/N for sample shops",
    )
    name: str = Field(max_length=200)
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    category: str = Field(max_length=32)
    amenity: str | None = Field(None, max_length=40, description="OpenStreetMap amenity tag")
    cuisine: str | None = Field(None, max_length=200, description="OpenStreetMap cuisine tag")
    opening_hours: str | None = Field(None, max_length=500, description="OpenStreetMap opening_hours as mapped")


class Sponsor(Record):
    """A sponsor shop as the operator configures it (data/food/sponsors.yaml). Always shown as sponsored."""

    id: str = Field(pattern=r"^[a-z0-9_-]+$")
    name: str
    category: str
    note: str | None = None
    url: str | None = None
    lat: float | None = None
    lon: float | None = None
    opening_hours: str | None = None
    starts: date | None = None
    ends: date | None = None
