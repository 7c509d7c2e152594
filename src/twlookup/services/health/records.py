"""The health service's typed records, each declared once: a reference document with its
provenance, a blood-pressure band and a glucose target (data/health/monitoring.yaml), and a
screening programme's eligibility rule (screening.yaml). The documents are validated against them
when seeding (`logic.rules.build`), and the logic works on them. The documents themselves are
stored whole (`tables.DocumentRow`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from twlookup.platform.records import Citation, Record, SourcedRecord
from twlookup.platform.schemas import Source

Topic = Literal["counseling", "glp1", "cancer_diet", "screening", "monitoring"]
TOPICS: tuple[Topic, ...] = ("counseling", "glp1", "cancer_diet", "screening", "monitoring")


class Document(SourcedRecord):
    """One reference document of data/health/: its topic, the page that stands for it (`source`)
    and the day it was checked. Every page a rule inside it rests on is cited through it."""

    topic: Topic

    def cite_page(self, page: Citation) -> Source:
        """A page of the document as answers cite it (under the page's own title): the document's
        own source with its licence, any other page by `cite`; both with the document's check date
        and sample flag."""
        if page.url == self.source:
            return self.source_ref.model_copy(update={"title": page.title})
        return self.cite(page.url, page.title)


class BPBand(Record):
    id: str
    name_en: str
    name_zh: str
    systolic_min: int | None
    diastolic_min: int | None
    range_en: str
    advice_en: str
    advice_zh: str

    def contains(self, systolic: float, diastolic: float) -> bool:
        """A band with no minimum takes everything below the bands above it."""
        if self.systolic_min is None and self.diastolic_min is None:
            return True
        return (self.systolic_min is not None and systolic >= self.systolic_min) or (
            self.diastolic_min is not None and diastolic >= self.diastolic_min
        )


class GlucoseTarget(Record):
    """The target for one moment a reading is taken (a moment with no bound has no target)."""

    label_en: str  # when the reading is taken
    label_zh: str
    low: float | None = Field(None, description="In target from this value (mg/dL, inclusive)")
    high: float | None = Field(None, description="... up to this value (inclusive)")
    high_below: float | None = Field(None, description="... or below this value")

    @property
    def bounded(self) -> bool:
        return any(v is not None for v in (self.low, self.high, self.high_below))


class Rule(Record):
    """Who a screening programme covers: a sentence in English and Chinese and its conditions."""

    id: str
    en: str
    zh: str
    conditions: dict[str, Any]
    interval_en: str | None = None
