"""Parameters and results of the health service's operations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel, Source
from twlookup.services.health import records
from twlookup.services.health.logic import readings, screening

BP_CHECK_LIMIT = 6  # spec document 1, Limits: blood pressure check, at most 6 readings per call
BP_REPORT_LIMIT = 28  # one full 7-2-2 week: 7 days x 2 times x 2 readings
GLUCOSE_REPORT_LIMIT = 120  # e.g. 30 days of 4 readings

NOTICE = (
    "Information, not a diagnosis or medical advice: it follows the cited guidelines and cannot "
    "replace a doctor who knows you. In an emergency call 119."
)
PRIVACY = "Queries and answers of this service are not stored or logged."


def parsed_by(parse: Callable[[str, int], object], limit: int) -> AfterValidator:
    """Validate readings while parameters are parsed, so a paid route answers 422 before asking
    for payment; the message names the bad entry."""

    def check(text: str) -> str:
        try:
            parse(text, limit)
        except readings.ReadingError as exc:
            raise PydanticCustomError("invalid_readings", str(exc)) from None
        return text

    return AfterValidator(check)


CheckReadings = Annotated[str, parsed_by(readings.parse_bp_readings, BP_CHECK_LIMIT)]
BPReportReadings = Annotated[str, parsed_by(readings.parse_bp_report, BP_REPORT_LIMIT)]
GlucoseReportReadings = Annotated[str, parsed_by(readings.parse_glucose_report, GLUCOSE_REPORT_LIMIT)]


When = Literal["fasting", "before-meal", "after-meal", "random"]
Sex = Literal["female", "male"]
Habit = Literal["never", "former", "current"]


class Answer(LazyModel):
    notice: str = Field(NOTICE, description="Every answer is information, not a diagnosis")
    privacy: str = Field(PRIVACY, description="Nothing of the query or the answer is kept")


# ---------------------------------------------------------------- counseling


class CrisisLine(LazyModel):
    number: str
    name_en: str
    name_zh: str
    hours_en: str
    for_en: str


class CounselingGuide(Answer):
    programme_en: str
    programme_zh: str
    year: int
    age_min: int
    age_max: int
    free_sessions: int
    who_en: str
    who_zh: str
    rules_en: list[str]
    rules_zh: list[str]
    booking_steps_en: list[str]
    booking_steps_zh: list[str]
    website: str
    talking_tips_en: list[str] = Field(description="Written for this service; not from the programme's rules")
    talking_tips_zh: list[str]
    crisis_lines: list[CrisisLine]
    sources: list[Source]


# ---------------------------------------------------------------- GLP-1


class SideEffect(LazyModel):
    effect_en: str
    effect_zh: str
    percent_by_dose: dict[str, float] = Field(description="Share of trial participants (%) on each dose")
    placebo_percent: float


class Drug(LazyModel):
    id: str
    ingredient: str
    brand: str
    name_zh: str
    kind_en: str
    trial: str
    side_effects: list[SideEffect]
    note_en: str
    source: Source


class Bilingual(LazyModel):
    en: str
    zh: str


class Glp1Guide(Answer):
    approval_en: str
    indication_en: str
    drugs: list[Drug]
    warning_signs: list[Bilingual]
    when_to_see_doctor: list[Bilingual]
    sources: list[Source]


# ---------------------------------------------------------------- cancer diet and meal check


class FactorOut(LazyModel):
    id: str
    name_en: str
    name_zh: str
    iarc_group: str
    group_meaning_en: str
    group_meaning_zh: str
    cancers_en: str
    why_en: str
    why_zh: str
    advice_en: str
    advice_zh: str
    keywords_zh: list[str]
    keywords_en: list[str]
    source: Source


class CancerDiet(Answer):
    explain_en: str
    factors: list[FactorOut]
    source: Source


class MealQuery(Params):
    meal: str = Field(
        min_length=1,
        max_length=500,
        description="What you ate or plan to eat, free text in Traditional Chinese or English (at most 500 characters)",
    )


class MealHit(LazyModel):
    matched_keywords: list[str]
    factor: FactorOut


class MealCheck(Answer):
    matches: list[MealHit] = Field(description="Dietary factors named in the text, IARC Group 1 first")
    highest_group: str | None
    summary_en: str
    method_en: str


# ---------------------------------------------------------------- screening


class RuleOut(RecordAnswer, record=records.Rule, exclude=("conditions", "interval_en")):
    """An eligibility rule in words (its conditions are what the check reads)."""


class ProgrammeOut(LazyModel):
    id: str
    cancer_en: str
    cancer_zh: str
    test_en: str
    test_zh: str
    interval_en: str
    interval_zh: str
    where_en: str
    where_zh: str
    who: list[RuleOut] = Field(description="Eligibility rules; meeting any one is enough")
    source: Source


class Screening(Answer):
    how_en: str
    how_zh: str
    programmes: list[ProgrammeOut]
    not_covered_en: str
    sources: list[Source]


class ScreeningQuery(Params):
    age: int = Field(
        ge=0,
        le=120,
        description="Age as the screening rules count it: this calendar year minus your year of birth (0 to 120)",
    )
    sex: Sex = Field(description="female or male (the sex the programmes use)")
    smoker: Habit = Field(description="Cigarette smoking: never, former (quit) or current")
    pack_years: float | None = Field(
        None,
        ge=0,
        le=300,
        description="Packs per day times years smoked (lung LDCT needs 20 or more); only with smoker=former or current",
    )
    quit_years: int | None = Field(
        None,
        ge=0,
        le=100,
        description="Whole years since quitting smoking (lung LDCT: less than 15); only with smoker=former",
    )
    betel: Habit = Field("never", description="Betel nut chewing: never, former or current (oral screening)")
    indigenous: bool = Field(False, description="Indigenous (原住民): oral screening starts at 18 for betel chewers")
    family_colorectal: bool = Field(
        False, description="A parent, child or sibling was diagnosed with colorectal cancer"
    )
    family_lung: bool = Field(False, description="A parent, child or sibling was diagnosed with lung cancer")


class EligibilityOut(LazyModel):
    programme: ProgrammeOut
    status: screening.Status
    because: list[RuleOut] = Field(description="The rules this person meets")
    interval_en: str = Field(description="How often, for the rule met (or the programme's interval)")
    missing: list[str] = Field(description="Parameters that would decide a need-information result")


class ScreeningCheck(Answer):
    age: int
    sex: str
    eligible: list[str] = Field(description="Ids of programmes this person can use now")
    results: list[EligibilityOut]
    how_en: str


# ---------------------------------------------------------------- home monitoring


class BandOut(RecordAnswer, record=records.BPBand):
    """A blood pressure band of the guideline (the record, unchanged)."""


class GlucoseTargetOut(RecordAnswer, record=records.GlucoseTarget):
    when: str


class HomeMonitoring(Answer):
    rule_722_en: str
    rule_722_zh: str
    bp_target_en: str
    bp_bands: list[BandOut] = Field(
        description="Highest first: a reading is in the first band whose systolic OR diastolic minimum it reaches"
    )
    bp_crisis_en: str
    bp_crisis_above: str
    bp_low_en: str
    glucose_unit: str
    glucose_targets_note_en: str
    glucose_targets: list[GlucoseTargetOut]
    hba1c_target_below: float
    hypoglycaemia_en: list[str]
    hypoglycaemia_treat_en: str
    glucose_very_high_en: str = Field(description="What to do at 240 mg/dL or more (ketone check, emergency signs)")
    estimated_hba1c_formula: str
    sources: list[Source]


# ---------------------------------------------------------------- BP check and report


class BPQuery(Params):
    readings: CheckReadings = Field(
        min_length=3,
        max_length=200,
        description=(
            f"Up to {BP_CHECK_LIMIT} comma-separated systolic/diastolic pairs in mmHg, e.g. 128/82,135/85. "
            "Systolic 50-300, diastolic 20-200, systolic above diastolic."
        ),
    )


class GradeOut(LazyModel):
    systolic: float
    diastolic: float
    band: str = Field(description="stage-2, stage-1, elevated or normal (2022 Taiwan guideline)")
    band_en: str
    band_zh: str
    at_target: bool = Field(description="Below 130/80")
    crisis: bool = Field(description="Above 180 systolic or above 120 diastolic")
    low: bool = Field(description="Below 90 systolic or below 60 diastolic")


class BPCheck(Answer):
    count: int
    readings: list[GradeOut]
    average: GradeOut
    urgent: bool = Field(description="True when any reading is in the hypertensive crisis range")
    what_to_do: list[str]
    sources: list[Source]


class BPReportQuery(Params):
    readings: BPReportReadings = Field(
        min_length=5,
        max_length=1000,
        description=(
            f"Up to {BP_REPORT_LIMIT} comma-separated entries, each a slot letter, a colon and a "
            "systolic/diastolic pair: m = morning (within an hour of waking, before breakfast and "
            "medicine), e = evening (within an hour before bed). E.g. m:135/85,e:128/82"
        ),
    )


class BPReport(Answer):
    count: int
    average: GradeOut
    morning: GradeOut | None
    evening: GradeOut | None
    morning_hypertension: bool | None = Field(
        description="Morning average at or above 130 systolic or 80 diastolic; null without morning readings"
    )
    morning_minus_evening: dict[str, float] | None
    trend: dict[str, float] | None = Field(
        description=(
            "Average of the later half of the readings minus the earlier half, in the order given (with an odd "
            "count the middle reading is left out); null with fewer than 4 readings"
        )
    )
    crisis_readings: int
    low_readings: int
    band_counts: dict[str, int]
    urgent: bool = Field(description="True when any reading is above 180 systolic or above 120 diastolic")
    what_to_do: list[str]
    summary_for_doctor: str
    sources: list[Source]


# ---------------------------------------------------------------- glucose check and report


class GlucoseQuery(Params):
    value: float = Field(ge=20, le=600, description="Blood glucose in mg/dL from a home meter (20 to 600)")
    when: When = Field(
        description=(
            "fasting (no food for 8 hours or more), before-meal, after-meal (1 to 2 hours after the start "
            "of the meal) or random (any other time: no target, only low and very high values are flagged)"
        )
    )


class GlucoseCheck(Answer):
    value: float
    unit: str
    when: str
    band: str = Field(
        description="hypoglycaemia-level-2, hypoglycaemia-level-1, below-target, in-target, above-target or no-target"
    )
    hypoglycaemia: int | None = Field(description="1 or 2 (ADA levels), null when not low")
    in_target: bool | None
    target: GlucoseTargetOut
    diagnostic_range: str | None = Field(
        description="fasting: normal-range, prediabetes-range or diabetes-range; random: diabetes-range-with-symptoms at 200 or more"
    )
    urgent: bool
    explanation: list[str]
    sources: list[Source]


class GlucoseReportQuery(Params):
    readings: GlucoseReportReadings = Field(
        min_length=3,
        max_length=2000,
        description=(
            f"Up to {GLUCOSE_REPORT_LIMIT} comma-separated entries, each a slot letter, a colon and a value in mg/dL: "
            "f = fasting, b = before a meal, a = 1 to 2 hours after the start of a meal, r = random. E.g. f:112,a:168,b:96"
        ),
    )


class SlotSummary(LazyModel):
    when: str
    count: int
    mean: float
    in_target: int | None = Field(description="Readings within the target for that moment; null for random")


class GlucoseReport(Answer):
    count: int
    mean: float
    lowest: float
    highest: float
    readings_with_target: int = Field(description="Readings taken at a moment that has a target (all but random)")
    in_target: int
    time_in_target_percent: float | None = Field(
        description="in_target / readings_with_target x 100; null when no reading has a target"
    )
    hypoglycaemia_events: int
    hypoglycaemia_level1: int
    hypoglycaemia_level2: int
    by_when: list[SlotSummary]
    estimated_hba1c: float
    estimated_hba1c_formula: str
    estimated_hba1c_caveat: str
    urgent: bool = Field(
        description="True when any reading is level 2 hypoglycaemia (below 54 mg/dL); level 1 events are counted, not flagged"
    )
    summary_for_doctor: str
    sources: list[Source]


# ---------------------------------------------------------------- export


class Export(Answer):
    counseling: CounselingGuide
    glp1: Glp1Guide
    cancer_diet: CancerDiet
    screening: Screening
    home_monitoring: HomeMonitoring
