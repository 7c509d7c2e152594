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

    id: str = Field(pattern=r"^[a-z_]+$", max_length=32)
    name: str = Field(max_length=50)
    role: str = Field(max_length=200, description="What the deity is prayed to for")
    style: str = Field(max_length=300, description="本服務為這位神明設定的飲食主題（趣味設定，非習俗）")
    categories: list[str] = Field(min_length=1, description="Food categories the draw favours for this deity")
    vegetarian: bool = Field(False, description="Offerings are vegetarian by custom: the draw keeps to vegetarian food")
    custom: str | None = Field(None, description="供品習俗（依來源頁面改寫）；沒有來源的不寫")
    custom_source: str | None = Field(None, max_length=500, description="The page the custom is read on")
    custom_source_title: str | None = Field(None, max_length=300)
    custom_source_kind: CustomSourceKind | None = Field(
        None, description="來源的性質：temple（寺廟自己的說法）、news（新聞報導）、website（民間網站，較弱）"
    )
    checked: date | None = Field(None, description="When the custom's page was read")

    @property
    def custom_page(self) -> CustomPage | None:
        """The page the offering custom is read on, as a sourced record (None without a custom)."""
        if self.custom_source is None or self.custom_source_kind is None or self.checked is None:
            return None
        return CustomPage(
            source=self.custom_source,
            source_title=self.custom_source_title,
            checked=self.checked,
            kind=self.custom_source_kind,
        )


class CustomPage(SourcedRecord):
    """A page stating a deity's offering custom: its address, title, the day it was read and how strong it is."""

    kind: CustomSourceKind


class Category(Record):
    """A food category with its price band per person (NT$). The band is this service's own
    classification of what one person spends on one meal of the kind, not a survey."""

    id: str = Field(pattern=r"^[a-z_]+$", max_length=32)
    name: str = Field(max_length=50)
    meals: list[MealId] = Field(min_length=1)
    band_min: int = Field(ge=0, description="NT$ per person, lower end")
    band_max: int = Field(ge=1, description="NT$ per person, upper end")
    vegetarian: bool = False
    group: bool = Field(False, description="適合 3 人以上分食")
    dishes: list[str] = Field(min_length=3)
    amenities: list[str] = Field(default_factory=list, description="OSM amenity values that map here")
    cuisines: list[str] = Field(default_factory=list, description="OSM cuisine values that map here")


class Poem(SourcedRecord):
    """One of the sixty jiazi temple poems (traditional text, public domain)."""

    number: int = Field(ge=1, le=60)
    ganzhi: str = Field(min_length=2, max_length=2)
    lines: list[str] = Field(min_length=4, max_length=4)
    omen: str = Field(max_length=50)
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

    id: str = Field(pattern=r"^[a-z0-9_-]+$", max_length=40)
    name: str = Field(max_length=200)
    category: str = Field(max_length=32)
    note: str | None = None
    url: str | None = Field(None, max_length=500)
    lat: float | None = None
    lon: float | None = None
    opening_hours: str | None = Field(None, max_length=500)
    starts: date | None = None
    ends: date | None = None
