"""Home blood glucose: grading a reading against the target for its moment (ADA), hypoglycaemia
levels, the diagnostic thresholds, the estimated HbA1c (ADAG), and the report over many readings.
"""

from __future__ import annotations

from dataclasses import dataclass

from twlookup.services.health.logic.readings import mean
from twlookup.services.health.logic.rules import GlucoseRules

WHEN = ("fasting", "before-meal", "after-meal", "random")


@dataclass(frozen=True)
class GlucoseGrade:
    value: float
    when: str
    band: str  # hypoglycaemia-level-2, hypoglycaemia-level-1, below-target, in-target, above-target, no-target
    hypoglycaemia: int | None  # 1 or 2
    in_target: bool | None  # None when the moment has no target (random)
    diagnostic: str | None  # for fasting/random: where the value falls on the diagnostic thresholds


def grade_glucose(rules: GlucoseRules, value: float, when: str) -> GlucoseGrade:
    if value < rules.level2_below:
        band, hypo = "hypoglycaemia-level-2", 2
    elif value < rules.level1_below:
        band, hypo = "hypoglycaemia-level-1", 1
    else:
        band, hypo = "", None
    target = rules.targets[when]
    in_target: bool | None
    if target is None:
        in_target = None
        band = band or "no-target"
    else:
        in_target = (
            hypo is None
            and (target.low is None or value >= target.low)
            and (target.high is None or value <= target.high)
            and (target.high_below is None or value < target.high_below)
        )
        if not band:
            if in_target:
                band = "in-target"
            elif target.low is not None and value < target.low:
                band = "below-target"
            else:
                band = "above-target"
    diagnostic = None
    if when == "fasting":
        if value >= rules.fasting_diabetes_min:
            diagnostic = "diabetes-range"
        elif value >= rules.fasting_prediabetes_min:
            diagnostic = "prediabetes-range"
        elif hypo is None:
            diagnostic = "normal-range"
    elif when == "random" and value >= rules.random_diabetes_min:
        diagnostic = "diabetes-range-with-symptoms"
    return GlucoseGrade(value, when, band, hypo, in_target, diagnostic)


def glucose_explain(rules: GlucoseRules, g: GlucoseGrade) -> list[str]:
    doc = rules.doc
    target = rules.targets[g.when]
    lines = []
    if g.hypoglycaemia:
        lines.append(doc["hypoglycaemia"][f"level{g.hypoglycaemia}_en"])
        lines.append(doc["hypoglycaemia"]["treat_en"])
    if target is None:
        lines.append(
            f"A random reading has no target; it is checked only for hypoglycaemia (below {rules.level1_below:g}), "
            f"for {rules.very_high_at_or_above:g} mg/dL or more (ketone check) and for {rules.random_diabetes_min:g} "
            "or more (diabetes range for people not diagnosed)."
        )
    elif g.band == "in-target":
        lines.append(f"Within the target for {doc['targets'][g.when]['label_en']}.")
    elif g.band == "below-target":
        lines.append(
            f"Below the {target.low:g} mg/dL lower end of the target but not hypoglycaemia; if it happens often, tell your doctor."
        )
    elif g.band == "above-target":
        limit = f"at most {target.high:g}" if target.high is not None else f"below {target.high_below:g}"
        lines.append(
            f"Above the target ({limit} mg/dL) for {doc['targets'][g.when]['label_en']}; if this is usual for you, discuss it with your doctor."
        )
    if g.value >= rules.very_high_at_or_above:
        lines.append(doc["very_high"]["en"])
    if g.diagnostic in ("prediabetes-range", "diabetes-range", "diabetes-range-with-symptoms"):
        lines.append(doc["diagnosis"]["note_en"])
    return lines


def estimated_a1c(rules: GlucoseRules, mean_glucose: float) -> float:
    """ADAG: HbA1c = (mean mg/dL + 46.7) / 28.7 (constants from the data)."""
    return round((mean_glucose + rules.a1c_intercept) / rules.a1c_slope, 1)


@dataclass(frozen=True)
class GlucoseReport:
    count: int
    mean: float
    lowest: float
    highest: float
    with_target: int
    in_target: int
    hypo_level1: int
    hypo_level2: int
    by_when: dict[str, list[GlucoseGrade]]
    estimated_a1c: float
    grades: list[GlucoseGrade]


def glucose_report(rules: GlucoseRules, tagged: list[tuple[str, float]]) -> GlucoseReport:
    grades = [grade_glucose(rules, v, when) for when, v in tagged]
    values = [v for _, v in tagged]
    by_when: dict[str, list[GlucoseGrade]] = {}
    for g in grades:
        by_when.setdefault(g.when, []).append(g)
    avg = mean(values)
    return GlucoseReport(
        count=len(values),
        mean=avg,
        lowest=min(values),
        highest=max(values),
        with_target=sum(g.in_target is not None for g in grades),
        in_target=sum(bool(g.in_target) for g in grades),
        hypo_level1=sum(g.hypoglycaemia == 1 for g in grades),
        hypo_level2=sum(g.hypoglycaemia == 2 for g in grades),
        by_when=by_when,
        estimated_a1c=estimated_a1c(rules, avg),
        grades=grades,
    )
