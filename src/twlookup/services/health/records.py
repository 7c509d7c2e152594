"""The health service's typed records, each declared once: a citation, a blood-pressure band and a
glucose target (data/health/monitoring.yaml), and a screening programme's eligibility rule
(screening.yaml). The documents are validated against them when seeding (`logic.build`), and the
logic works on them. The documents themselves are stored whole (`tables.HealthDocument`)."""

from __future__ import annotations

from datetime import date
from typing import Any

from twlookup.platform.records import Record


class Cite(Record):
    url: str
    title: str | None = None
    checked: date


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
    label_en: str  # when the reading is taken
    label_zh: str
    low: float | None = None  # in target from this value (inclusive)
    high: float | None = None  # ... up to this value (inclusive)
    high_below: float | None = None  # ... or below this value


class Rule(Record):
    """Who a screening programme covers: a sentence in English and Chinese and its conditions."""

    id: str
    en: str
    zh: str
    conditions: dict[str, Any]
    interval_en: str | None = None
