"""The wellness service's records, each declared once: a self-assessment instrument and its
bands and flag rules (data/wellness/instruments.yaml), a telehealth situation
(telehealth.yaml) and a crisis line (crisis_lines.yaml). The data files are validated against
them when seeding, the store's tables mirror them, and the logic and answers work on them."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, field_validator

from twlookup.platform.records import Citation, CitingRecord, Record, SourcedRecord

Ref = Citation  # a source: title and URL


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
    id: str
    name_zh: str
    name_en: str
    period: str
    item_min: int
    item_max: int
    answer_scale: str
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

    id: str
    article: str
    name_zh: str
    name_en: str
    special_case: bool
    remote_consultation_allowed: bool
    prescribing: str
    first_visit_allowed: bool
    description: OneLine


class CrisisLine(SourcedRecord):
    number: Annotated[str, BeforeValidator(str)]
    name_zh: str
    name_en: str
    hours: str
    purpose: str

    @property
    def ref(self) -> Citation:
        return Citation(title=self.source_title or self.number, url=self.source)
