"""Domain rules of the health service: BP grading, glucose grading, reports, screening
eligibility and the meal keyword check.

Pure functions over the parsed reference data (`HealthData`, built from data/health/*.yaml);
every cut-off comes from that data, none is written here. Input problems raise `ReadingError`
(the operations turn it into a 422 naming the parameter).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from twlookup.platform.records import validate_records
from twlookup.services.health.records import BPBand, Cite, GlucoseTarget, Rule

# ---------------------------------------------------------------- reference data


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
    source: Cite
    crisis_source: Cite
    low_source: Cite


@dataclass(frozen=True)
class GlucoseRules:
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
    source: Cite
    diagnosis_source: Cite
    a1c_source: Cite
    very_high_source: Cite


@dataclass(frozen=True)
class Programme:
    id: str
    doc: dict[str, Any]
    rules: tuple[Rule, ...]
    source: Cite


@dataclass(frozen=True)
class Factor:
    id: str
    group: str
    doc: dict[str, Any]
    keywords_zh: tuple[str, ...]
    patterns_en: tuple[tuple[str, re.Pattern[str]], ...]
    source: Cite


@dataclass
class HealthData:
    bp: BPRules
    glucose: GlucoseRules
    programmes: tuple[Programme, ...]
    factors: tuple[Factor, ...]
    docs: dict[str, dict[str, Any]] = field(default_factory=dict)

    def checked(self, topic: str) -> date:
        return date.fromisoformat(self.docs[topic]["checked"])


def _cite(src: dict[str, Any], checked: date) -> Cite:
    return Cite.model_validate({"checked": checked, **src})


def _en_pattern(keyword: str) -> re.Pattern[str]:
    """An English keyword as a whole word or phrase, plural allowed ("sausages", "pickles")."""
    return re.compile(r"(?<![a-z])" + re.escape(keyword.lower()) + r"(?:s|es)?(?![a-z])")


def build(docs: dict[str, dict[str, Any]], paths: dict[str, Path] | None = None) -> HealthData:
    """Parse the documents (JSON-shaped: dates as ISO strings) into the rule objects; a record that
    does not match its model raises DataFileError naming the file (`paths`, by topic), the record
    and the field."""
    paths = {t: (paths or {}).get(t, Path(f"{t}.yaml")) for t in docs}
    mon = docs["monitoring"]
    checked = date.fromisoformat(mon["checked"])
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
        source=_cite(bp["source"], checked),
        crisis_source=_cite(bp["crisis"]["source"], checked),
        low_source=_cite(bp["low"]["source"], checked),
    )
    gl = mon["blood_glucose"]
    targets: dict[str, GlucoseTarget | None] = {}
    for when, t in gl["targets"].items():
        has_target = any(t.get(k) is not None for k in ("low", "high", "high_below"))
        targets[when] = (
            validate_records(paths["monitoring"], [t], GlucoseTarget, label="label_en")[0] if has_target else None
        )
    diag = gl["diagnosis"]
    a1c = gl["estimated_a1c"]
    glucose = GlucoseRules(
        targets=targets,
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
        source=_cite(gl["source"], checked),
        diagnosis_source=_cite(diag["source"], checked),
        a1c_source=_cite(a1c["source"], checked),
        very_high_source=_cite(gl["very_high"]["source"], checked),
    )
    scr = docs["screening"]
    scr_checked = date.fromisoformat(scr["checked"])
    programmes = tuple(
        Programme(
            p["id"],
            p,
            tuple(validate_records(paths["screening"], p["rules"], Rule)),
            _cite(p["source"], scr_checked),
        )
        for p in scr["programmes"]
    )
    diet = docs["cancer_diet"]
    diet_checked = date.fromisoformat(diet["checked"])
    factors = tuple(
        Factor(
            f["id"],
            str(f["group"]),
            f,
            tuple(f["keywords_zh"]),
            tuple((k, _en_pattern(k)) for k in f["keywords_en"]),
            _cite(f["source"], diet_checked),
        )
        for f in diet["factors"]
    )
    return HealthData(bp_rules, glucose, programmes, factors, docs)


# ---------------------------------------------------------------- input parsing


class ReadingError(ValueError):
    """A reading the client sent cannot be used; the message says which and why."""


SYSTOLIC_RANGE = (50, 300)  # input plausibility (typing errors such as 1350/85), not clinical cut-offs
DIASTOLIC_RANGE = (20, 200)
GLUCOSE_RANGE = (20, 600)  # home meters show LO/HI outside about this range
PAIR = re.compile(r"^\s*(\d{1,3})\s*/\s*(\d{1,3})\s*$")
NUMBER = re.compile(r"^\s*(\d{1,3}(?:\.\d)?)\s*$")


def parse_pair(text: str, position: int) -> tuple[int, int]:
    match = PAIR.match(text)
    if not match:
        raise ReadingError(f"reading {position} {text.strip()!r} is not a systolic/diastolic pair such as 128/82")
    systolic, diastolic = int(match.group(1)), int(match.group(2))
    if not SYSTOLIC_RANGE[0] <= systolic <= SYSTOLIC_RANGE[1]:
        raise ReadingError(
            f"reading {position}: systolic {systolic} is outside {SYSTOLIC_RANGE[0]} to {SYSTOLIC_RANGE[1]} mmHg; check for a typing error"
        )
    if not DIASTOLIC_RANGE[0] <= diastolic <= DIASTOLIC_RANGE[1]:
        raise ReadingError(
            f"reading {position}: diastolic {diastolic} is outside {DIASTOLIC_RANGE[0]} to {DIASTOLIC_RANGE[1]} mmHg; check for a typing error"
        )
    if systolic <= diastolic:
        raise ReadingError(
            f"reading {position}: systolic {systolic} must be higher than diastolic {diastolic}; write systolic first"
        )
    return systolic, diastolic


def _entries(text: str, limit: int) -> list[str]:
    items = text.split(",")
    if any(not item.strip() for item in items):
        raise ReadingError("empty entry: separate readings with single commas and no trailing comma")
    if len(items) > limit:
        raise ReadingError(f"{len(items)} readings given; at most {limit} per call")
    return items


def parse_bp_readings(text: str, limit: int) -> list[tuple[int, int]]:
    return [parse_pair(item, i) for i, item in enumerate(_entries(text, limit), start=1)]


def parse_tagged(text: str, limit: int, slots: dict[str, str], what: str) -> list[tuple[str, str]]:
    """Entries like `m:135/85`: (slot name, value text); unknown slot letters are errors."""
    out = []
    for i, item in enumerate(_entries(text, limit), start=1):
        tag, sep, value = item.strip().partition(":")
        if not sep:
            raise ReadingError(f"entry {i} {item.strip()!r} has no slot letter; write it as {next(iter(slots))}:{what}")
        letter = tag.strip().lower()
        if letter not in slots:
            raise ReadingError(f"entry {i}: unknown slot letter {tag.strip()!r}; use one of {', '.join(slots)}")
        out.append((slots[letter], value))
    return out


BP_SLOTS = {"m": "morning", "e": "evening"}
GLUCOSE_SLOTS = {"f": "fasting", "b": "before-meal", "a": "after-meal", "r": "random"}


def parse_bp_report(text: str, limit: int) -> list[tuple[str, tuple[int, int]]]:
    tagged = parse_tagged(text, limit, BP_SLOTS, "135/85")
    return [(slot, parse_pair(value, i)) for i, (slot, value) in enumerate(tagged, start=1)]


def parse_glucose_report(text: str, limit: int) -> list[tuple[str, float]]:
    tagged = parse_tagged(text, limit, GLUCOSE_SLOTS, "112")
    return [(slot, parse_glucose(value, i)) for i, (slot, value) in enumerate(tagged, start=1)]


def parse_glucose(text: str, position: int) -> float:
    match = NUMBER.match(text)
    if not match:
        raise ReadingError(f"entry {position} {text.strip()!r} is not a glucose value in mg/dL such as 112")
    value = float(match.group(1))
    check_glucose_range(value, f"entry {position}")
    return value


def check_glucose_range(value: float, label: str) -> None:
    if not GLUCOSE_RANGE[0] <= value <= GLUCOSE_RANGE[1]:
        raise ReadingError(
            f"{label}: {value:g} mg/dL is outside {GLUCOSE_RANGE[0]} to {GLUCOSE_RANGE[1]}; home meters show LO or HI beyond it"
        )


# ---------------------------------------------------------------- blood pressure


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


def mean(values: list[float]) -> float:
    """Arithmetic mean to one decimal, halves rounded up as a person checking by hand would
    (136.25 -> 136.3; Python's round() gives 136.2 because 136.25 is stored as 136.2499...)."""
    exact = sum(Decimal(str(v)) for v in values) / len(values)
    return float(exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


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


# ---------------------------------------------------------------- blood glucose

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


# ---------------------------------------------------------------- screening eligibility


@dataclass(frozen=True)
class Person:
    age: int
    sex: str
    smoker: str
    betel: str = "never"
    indigenous: bool = False
    family: frozenset[str] = frozenset()
    pack_years: float | None = None
    quit_years: int | None = None


def check_rule(rule: Rule, p: Person) -> tuple[bool | None, list[str]]:
    """True/False, or None with the parameters whose absence leaves the rule undecided."""
    c = rule.conditions
    definite = [
        ("sex" not in c or p.sex == c["sex"]),
        ("age_min" not in c or p.age >= c["age_min"]),
        ("age_max" not in c or p.age <= c["age_max"]),
        ("ages" not in c or p.age in c["ages"]),
        ("smoker" not in c or p.smoker in c["smoker"]),
        ("betel" not in c or p.betel in c["betel"]),
        ("indigenous" not in c or p.indigenous == c["indigenous"]),
        ("family" not in c or c["family"] in p.family),
    ]
    if not all(definite):
        return False, []
    missing = []
    if "pack_years_min" in c:
        if p.pack_years is None:
            missing.append("pack_years")
        elif p.pack_years < c["pack_years_min"]:
            return False, []
    if "quit_years_below" in c and p.smoker == "former":
        if p.quit_years is None:
            missing.append("quit_years")
        elif p.quit_years >= c["quit_years_below"]:
            return False, []
    return (None, missing) if missing else (True, [])


@dataclass(frozen=True)
class Eligibility:
    programme: Programme
    status: str  # eligible, need-information, not-eligible
    matched: tuple[Rule, ...]
    missing: tuple[str, ...]


def screening_eligibility(programmes: tuple[Programme, ...], p: Person) -> list[Eligibility]:
    out = []
    for prog in programmes:
        matched, missing = [], []
        for rule in prog.rules:
            ok, need = check_rule(rule, p)
            if ok:
                matched.append(rule)
            elif ok is None:
                missing.extend(n for n in need if n not in missing)
        status = "eligible" if matched else ("need-information" if missing else "not-eligible")
        out.append(Eligibility(prog, status, tuple(matched), tuple(missing if not matched else ())))
    return out


# ---------------------------------------------------------------- meal check


@dataclass(frozen=True)
class MealMatch:
    factor: Factor
    keywords: tuple[str, ...]


def meal_matches(factors: tuple[Factor, ...], meal: str) -> list[MealMatch]:
    """Factors whose keywords appear in the text: Chinese keywords as substrings, English ones
    as whole words (plural allowed), case-insensitive. Highest IARC group first."""
    lowered = meal.lower()
    found = []
    for f in factors:
        hits = [k for k in f.keywords_zh if k in meal] + [k for k, pat in f.patterns_en if pat.search(lowered)]
        if hits:
            found.append(MealMatch(f, tuple(dict.fromkeys(hits))))
    order = {"1": 0, "2A": 1, "2B": 2}
    return sorted(found, key=lambda m: order.get(m.factor.group, 9))
