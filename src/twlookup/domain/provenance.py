"""Provenance of a fact as the pure logic layers carry it: where it was read and when; and the
citations of an answer, each page once."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from twlookup.platform.schemas import Source


@dataclass(frozen=True)
class Provenance:
    source: str
    source_title: str | None
    checked: date
    sample: bool = False

    @property
    def source_ref(self) -> Source:
        """The provenance as the `Source` object answers carry (the sample flag kept)."""
        return Source(url=self.source, title=self.source_title, checked=self.checked, sample=self.sample)


def distinct_sources(sources: Iterable[Source]) -> list[Source]:
    """Each cited page once, in first-cited order; a page cited for sample data and for real data
    is listed both ways, so that the sample flag of neither citation is lost."""
    seen: dict[tuple[str, bool], Source] = {}
    for s in sources:
        seen.setdefault((s.url, s.sample), s)
    return list(seen.values())
