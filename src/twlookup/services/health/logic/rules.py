"""The health service's reference data as its rules read it: the documents of data/health/
parsed into blood pressure and glucose rules, screening programmes and dietary factors, every
cut-off from the data (none is written in the logic).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from twlookup.platform.records import Citation, validate_records
from twlookup.platform.schemas import Source
from twlookup.services.health.records import TOPICS, BPBand, Document, GlucoseTarget, Rule, Topic


@dataclass(frozen=True)
class BPRules:
    bands: tuple[BPBand, ...]  # highest first
    target_systolic_below: int
    target_diastolic_below: int
    crisis_systolic_above: int
    crisis_diastolic_above: int
    low_systolic_below: int
    low_diastolic_below: int
    doc: dict[str, Any]  # the whole blood_pressure document, for the guide endpoints
    source: Source
    crisis_source: Source
    low_source: Source


@dataclass(frozen=True)
class GlucoseRules:
    moments: dict[str, GlucoseTarget]  # when -> its labels and bounds
    targets: dict[str, GlucoseTarget | None]  # when -> target (None: no target, e.g. random)
    level1_below: float
    level2_below: float
    fasting_prediabetes_min: float
    fasting_diabetes_min: float
    random_diabetes_min: float
    a1c_slope: float
    a1c_intercept: float
    a1c_target_below: float
    very_high_at_or_above: float
    doc: dict[str, Any]
    source: Source
    diagnosis_source: Source
    a1c_source: Source
    very_high_source: Source


@dataclass(frozen=True)
class Programme:
    id: str
    doc: dict[str, Any]
    rules: tuple[Rule, ...]
    source: Source


@dataclass(frozen=True)
class Factor:
    id: str
    group: str
    doc: dict[str, Any]
    keywords_zh: tuple[str, ...]
    patterns_en: tuple[tuple[str, re.Pattern[str]], ...]
    source: Source


@dataclass
class HealthData:
    bp: BPRules
    glucose: GlucoseRules
    programmes: tuple[Programme, ...]
    factors: tuple[Factor, ...]
    documents: dict[Topic, Document]
    docs: dict[str, dict[str, Any]] = field(default_factory=dict)

    def cite(self, topic: Topic, page: dict[str, Any]) -> Source:
        """A page (`url`, `title`) of a document, cited through the document's record (its check
        date and sample flag; its licence where the page is the document's own source)."""
        return self.documents[topic].cite_page(Citation.model_validate(page))


def main_source(topic: Topic, doc: dict[str, Any]) -> dict[str, str]:
    """The page that stands for a whole document (each rule inside names its own too)."""
    if topic == "counseling":
        return doc["programme"]["source"]
    if topic == "glp1":
        return doc["approval"]["source"]
    if topic == "cancer_diet":
        return doc["list_source"]
    if topic == "screening":
        return doc["common"]["sources"][0]
    return doc["blood_pressure"]["source"]


def document(topic: Topic, doc: dict[str, Any], path: Path) -> Document:
    """The record of one document: its topic, main source and check date."""
    page = main_source(topic, doc)
    values = {"topic": topic, "source": page["url"], "source_title": page.get("title"), "checked": doc["checked"]}
    return validate_records(path, [values], Document, label="topic")[0]


def _en_pattern(keyword: str) -> re.Pattern[str]:
    """An English keyword as a whole word or phrase, plural allowed ("sausages", "pickles")."""
    return re.compile(r"(?<![a-z])" + re.escape(keyword.lower()) + r"(?:s|es)?(?![a-z])")


def build(docs: dict[str, dict[str, Any]], paths: Mapping[Topic, Path] | None = None) -> HealthData:
    """Parse the documents (JSON-shaped: dates as ISO strings) into the rule objects; a record that
    does not match its model raises DataFileError naming the file (`paths`, by topic), the record
    and the field."""
    paths = {t: (paths or {}).get(t, Path(f"{t}.yaml")) for t in TOPICS}
    documents = {t: document(t, docs[t], paths[t]) for t in TOPICS}

    def cite(topic: Topic, page: dict[str, Any]) -> Source:
        cited = validate_records(paths[topic], [page], Citation, label="url")[0]
        return documents[topic].cite_page(cited)

    mon = docs["monitoring"]
    bp = mon["blood_pressure"]
    bands = tuple(validate_records(paths["monitoring"], bp["bands"], BPBand))
    bp_rules = BPRules(
        bands=bands,
        target_systolic_below=bp["target"]["systolic_below"],
        target_diastolic_below=bp["target"]["diastolic_below"],
        crisis_systolic_above=bp["crisis"]["systolic_above"],
        crisis_diastolic_above=bp["crisis"]["diastolic_above"],
        low_systolic_below=bp["low"]["systolic_below"],
        low_diastolic_below=bp["low"]["diastolic_below"],
        doc=bp,
        source=cite("monitoring", bp["source"]),
        crisis_source=cite("monitoring", bp["crisis"]["source"]),
        low_source=cite("monitoring", bp["low"]["source"]),
    )
    gl = mon["blood_glucose"]
    moments = {
        when: validate_records(paths["monitoring"], [t], GlucoseTarget, label="label_en")[0]
        for when, t in gl["targets"].items()
    }
    diag = gl["diagnosis"]
    a1c = gl["estimated_a1c"]
    glucose = GlucoseRules(
        moments=moments,
        targets={when: t if t.bounded else None for when, t in moments.items()},
        level1_below=gl["hypoglycaemia"]["level1_below"],
        level2_below=gl["hypoglycaemia"]["level2_below"],
        fasting_prediabetes_min=diag["fasting_prediabetes_min"],
        fasting_diabetes_min=diag["fasting_diabetes_min"],
        random_diabetes_min=diag["random_diabetes_min"],
        a1c_slope=a1c["slope"],
        a1c_intercept=a1c["intercept"],
        a1c_target_below=gl["a1c_target_below"],
        very_high_at_or_above=gl["very_high"]["at_or_above"],
        doc=gl,
        source=cite("monitoring", gl["source"]),
        diagnosis_source=cite("monitoring", diag["source"]),
        a1c_source=cite("monitoring", a1c["source"]),
        very_high_source=cite("monitoring", gl["very_high"]["source"]),
    )
    scr = docs["screening"]
    programmes = tuple(
        Programme(
            p["id"],
            p,
            tuple(validate_records(paths["screening"], p["rules"], Rule)),
            cite("screening", p["source"]),
        )
        for p in scr["programmes"]
    )
    diet = docs["cancer_diet"]
    factors = tuple(
        Factor(
            f["id"],
            str(f["group"]),
            f,
            tuple(f["keywords_zh"]),
            tuple((k, _en_pattern(k)) for k in f["keywords_en"]),
            cite("cancer_diet", f["source"]),
        )
        for f in diet["factors"]
    )
    return HealthData(bp_rules, glucose, programmes, factors, documents, docs)
