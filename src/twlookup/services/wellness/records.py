"""The wellness service's records, each declared once: a self-assessment instrument and its
bands and flag rules (data/wellness/instruments.yaml), a telehealth situation and the regulation
(telehealth.yaml), a crisis line (crisis_lines.yaml), and the guides' sleep method, breathing
exercises and digital wellness sections (guides.yaml). The data files are validated against them
when seeding; the tables (tables.py) and the answers (schemas.py) are derived from them."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, field_validator

from twlookup.platform.records import CitingRecord, Record, SourcedRecord


def _one_line(text: str) -> str:
    return " ".join(text.split())


OneLine = Annotated[str, BeforeValidator(lambda v: _one_line(v) if isinstance(v, str) else v)]


class Band(Record):
    id: str
    min: int
    max: int
    label_zh: str
    label_en: str
    advice: str


class FlagRule(Record):
    """An item whose answer matters on its own: flagged at `flag_at` or above (item is 1-based)."""

    item: int
    flag_at: int
    message: OneLine


class ExtraItem(Record):
    """An item scored on its own and not added to the total (BSRS-5's suicidal-ideation item)."""

    label: str
    min: int
    max: int
    flag_at: int
    message: OneLine


class Instrument(CitingRecord):
    id: str = Field(max_length=20)
    name_zh: str = Field(max_length=100)
    name_en: str = Field(max_length=200)
    period: str = Field(max_length=100)
    item_min: int
    item_max: int
    answer_scale: str = Field(max_length=300)
    items: tuple[str, ...]
    bands: tuple[Band, ...]
    flag_items: tuple[FlagRule, ...] = ()
    extra_item: ExtraItem | None = None

    @field_validator("flag_items", mode="before")
    @classmethod
    def _none_is_empty(cls, value: object) -> object:
        return () if value is None else value

    @property
    def max_total(self) -> int:
        return self.item_max * len(self.items)


class Situation(CitingRecord):
    """A situation in which the telehealth regulation allows a remote consultation."""

    id: str = Field(max_length=40)
    article: str = Field(max_length=100, description="Where the situation is set out")
    name_zh: str = Field(max_length=100)
    name_en: str = Field(max_length=200)
    special_case: bool = Field(
        description="One of the regulation's special circumstances (Article 3); the remote areas are a ground of their own"
    )
    remote_consultation_allowed: bool
    prescribing: Literal["allowed", "conditional"] = Field(
        description="allowed: the law names prescribing for this ground; conditional: the physician may prescribe when they judge it appropriate, within the approved plan"
    )
    first_visit_allowed: bool = Field(description="False where Article 20 bars remote care for a patient's first visit")
    description: OneLine


class Regulation(SourcedRecord):
    """The telemedicine regulation the situations come from, and what every remote consultation
    under it needs (`common_conditions`)."""

    name_zh: str
    name_en: str
    amended: date
    in_force: date
    common_conditions: OneLine


class CrisisLine(SourcedRecord):
    number: Annotated[str, BeforeValidator(str)] = Field(max_length=20, description="Number to dial in Taiwan")
    name_zh: str = Field(max_length=100)
    name_en: str = Field(max_length=200)
    hours: str = Field(max_length=200)
    purpose: str = Field(description="What the line is for")


class SleepMethod(CitingRecord):
    """Whole sleep cycles counted from a wake time or a bedtime, after the minutes it takes to fall asleep."""

    cycle_minutes: int
    fall_asleep_minutes: int
    cycles: tuple[int, ...]  # the numbers of cycles to list, longest night first
    explain: OneLine


class Exercise(CitingRecord):
    """A breathing exercise, step by step."""

    id: str = Field(max_length=40)
    name_zh: str
    name_en: str
    minutes: int = Field(description="About how long one session takes")
    steps: tuple[str, ...]
    good_for: str


class GuideSection(CitingRecord):
    """A section of the digital wellness guide: its tips."""

    id: str = Field(max_length=40)
    title_zh: str
    title_en: str
    tips: tuple[str, ...]
