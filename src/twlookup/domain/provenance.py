"""Provenance of a fact as the pure logic layers carry it: where it was read and when."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Provenance:
    source: str
    source_title: str | None
    checked: date
    sample: bool = False
