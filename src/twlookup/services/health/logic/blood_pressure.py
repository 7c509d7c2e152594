"""Home blood pressure: grading readings and their average against the 2022 Taiwan guideline's
bands, target, crisis and low limits (all from the data), what to do, and the morning/evening
report with a summary for a doctor.
"""

from __future__ import annotations

from dataclasses import dataclass

from twlookup.services.health.logic.readings import mean
from twlookup.services.health.logic.rules import BPRules
from twlookup.services.health.records import BPBand


@dataclass(frozen=True)
class BPGrade:
    systolic: float
    diastolic: float
    band: BPBand
    at_target: bool
    crisis: bool
    low: bool


def grade_bp(rules: BPRules, systolic: float, diastolic: float) -> BPGrade:
    band = next(b for b in rules.bands if b.contains(systolic, diastolic))
    return BPGrade(
        systolic,
        diastolic,
        band,
        at_target=systolic < rules.target_systolic_below and diastolic < rules.target_diastolic_below,
        crisis=systolic > rules.crisis_systolic_above or diastolic > rules.crisis_diastolic_above,
        low=systolic < rules.low_systolic_below or diastolic < rules.low_diastolic_below,
    )


def average_bp(rules: BPRules, pairs: list[tuple[int, int]]) -> BPGrade:
    return grade_bp(rules, mean([s for s, _ in pairs]), mean([d for _, d in pairs]))


def bp_actions(rules: BPRules, grades: list[BPGrade], average: BPGrade) -> list[str]:
    """What to do, most urgent first."""
    actions = []
    if any(g.crisis for g in grades):
        actions.append(rules.doc["crisis"]["summary_en"])
    if not (average.low and average.band.id == "normal"):
        # "Normal range" above a low average (e.g. 85/55) would read as all clear
        actions.append(average.band.advice_en)
    if any(g.low for g in grades):
        actions.append(rules.doc["low"]["summary_en"])
    if not average.at_target and average.band.id != "normal":
        actions.append(rules.doc["target"]["summary_en"])
    actions.append(
        "Grading in the guideline is based on the 7-2-2 home average (28 readings over 7 days); a few readings are a snapshot."
    )
    return actions


@dataclass(frozen=True)
class BPReport:
    overall: BPGrade
    morning: BPGrade | None
    evening: BPGrade | None
    morning_hypertension: bool | None
    morning_minus_evening: tuple[float, float] | None
    trend: tuple[float, float] | None  # second half minus first half (systolic, diastolic)
    crisis_readings: int
    low_readings: int
    band_counts: dict[str, int]
    count: int


TREND_MIN_READINGS = 4


def bp_report(rules: BPRules, tagged: list[tuple[str, tuple[int, int]]]) -> BPReport:
    pairs = [p for _, p in tagged]
    grades = [grade_bp(rules, s, d) for s, d in pairs]
    morning = [p for slot, p in tagged if slot == "morning"]
    evening = [p for slot, p in tagged if slot == "evening"]
    m = average_bp(rules, morning) if morning else None
    e = average_bp(rules, evening) if evening else None
    trend = None
    # At least 4 readings (2 per half): with 2, "later minus earlier" is just one evening reading
    # minus one morning reading, a time-of-day difference rather than a trend.
    if len(pairs) >= TREND_MIN_READINGS:
        half = len(pairs) // 2
        first, second = pairs[:half], pairs[len(pairs) - half :]
        trend = (
            round(mean([s for s, _ in second]) - mean([s for s, _ in first]), 1),
            round(mean([d for _, d in second]) - mean([d for _, d in first]), 1),
        )
    counts = {b.id: 0 for b in rules.bands}
    for g in grades:
        counts[g.band.id] += 1
    return BPReport(
        overall=average_bp(rules, pairs),
        morning=m,
        evening=e,
        morning_hypertension=(not m.at_target) if m else None,
        morning_minus_evening=(round(m.systolic - e.systolic, 1), round(m.diastolic - e.diastolic, 1))
        if m and e
        else None,
        trend=trend,
        crisis_readings=sum(g.crisis for g in grades),
        low_readings=sum(g.low for g in grades),
        band_counts=counts,
        count=len(pairs),
    )


def bp_doctor_summary(rules: BPRules, r: BPReport) -> str:
    def fmt(g: BPGrade) -> str:
        return f"{g.systolic:g}/{g.diastolic:g} mmHg ({g.band.name_en})"

    parts = [f"Home blood pressure, {r.count} readings: average {fmt(r.overall)}."]
    if r.morning:
        parts.append(
            f"Morning average {fmt(r.morning)}"
            + (
                " - above the 130/80 target (morning hypertension)."
                if r.morning_hypertension
                else " - below the 130/80 target."
            )
        )
    if r.evening:
        parts.append(f"Evening average {fmt(r.evening)}.")
    if r.morning_minus_evening:
        ds, dd = r.morning_minus_evening
        parts.append(f"Morning minus evening: {ds:+g}/{dd:+g} mmHg.")
    if r.trend:
        ts, td = r.trend
        parts.append(f"Later half of the readings minus earlier half: {ts:+g}/{td:+g} mmHg.")
    if r.crisis_readings:
        parts.append(
            f"{r.crisis_readings} reading(s) above {rules.crisis_systolic_above}/{rules.crisis_diastolic_above} mmHg (hypertensive crisis range)."
        )
    if r.low_readings:
        parts.append(f"{r.low_readings} reading(s) below {rules.low_systolic_below}/{rules.low_diastolic_below} mmHg.")
    return " ".join(parts)
