"""The health service's operations: thin adapters from parameters to logic and results.

The service is private: the platform keeps its query strings, bodies, tool arguments and
answers out of every log line (platform/privacy.py, router.py, mcp.py).
"""

from __future__ import annotations

from dataclasses import asdict

from twlookup.platform.errors import InvalidParameter
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import Source
from twlookup.platform.service import Service
from twlookup.services.health.data import HEALTH
from twlookup.services.health.logic import blood_pressure, glucose, meal, readings, rules, screening
from twlookup.services.health.schemas import (
    BP_CHECK_LIMIT,
    BP_REPORT_LIMIT,
    GLUCOSE_REPORT_LIMIT,
    NOTICE,
    BandOut,
    Bilingual,
    BPCheck,
    BPQuery,
    BPReport,
    BPReportQuery,
    CancerDiet,
    CounselingGuide,
    CrisisLine,
    Drug,
    EligibilityOut,
    Export,
    FactorOut,
    Glp1Guide,
    GlucoseCheck,
    GlucoseQuery,
    GlucoseReport,
    GlucoseReportQuery,
    GlucoseTargetOut,
    GradeOut,
    HomeMonitoring,
    MealCheck,
    MealHit,
    MealQuery,
    ProgrammeOut,
    RuleOut,
    Screening,
    ScreeningCheck,
    ScreeningQuery,
    SideEffect,
    SlotSummary,
)

SERVICE = Service(
    name="health",
    title="Taiwan health information",
    description=(
        "Taiwan health information: the free counseling scheme, weight-loss (GLP-1) drugs approved in "
        "Taiwan with their side-effect rates, dietary carcinogens by IARC group and a meal check, "
        "publicly funded cancer screening eligibility, and home blood pressure and glucose checks "
        "against the Taiwan hypertension guideline and ADA targets. Queries are not stored."
    ),
    network="mainnet",
    notice=NOTICE,
    private=True,
)


# ---------------------------------------------------------------- guides


def counseling_guide(h: rules.HealthData) -> CounselingGuide:
    doc = h.docs["counseling"]
    p = doc["programme"]
    # the programme's year, ages, who, rules and website, and the talking tips, as the data file words them
    return CounselingGuide.model_validate(
        doc
        | p
        | dict(
            programme_en=p["name_en"],
            programme_zh=p["name_zh"],
            free_sessions=p["sessions"],
            booking_steps_en=p["steps_en"],
            booking_steps_zh=p["steps_zh"],
            crisis_lines=[CrisisLine(**c) for c in doc["crisis_lines"]],
            sources=[h.cite("counseling", p["source"]), h.cite("counseling", doc["crisis_source"])],
        )
    )


def glp1_guide(h: rules.HealthData) -> Glp1Guide:
    doc = h.docs["glp1"]
    drugs = [
        # the drug's facts under the data file's names; the side effects' shares and the source renamed
        Drug.model_validate(
            d
            | dict(
                side_effects=[
                    SideEffect.model_validate(s | dict(percent_by_dose=s["arms"], placebo_percent=s["placebo"]))
                    for s in d["side_effects"]
                ],
                source=h.cite("glp1", d["source"]),
            )
        )
        for d in doc["drugs"]
    ]
    return Glp1Guide(
        approval_en=doc["approval"]["summary_en"],
        indication_en=doc["indication_en"],
        drugs=drugs,
        warning_signs=[Bilingual.model_validate(w) for w in doc["warning_signs"]],
        when_to_see_doctor=[Bilingual.model_validate(w) for w in doc["when_to_see_doctor"]],
        sources=[
            h.cite("glp1", doc["approval"]["source"]),
            h.cite("glp1", doc["indication_source"]),
            h.cite("glp1", doc["warnings_source"]),
        ],
    )


def factor_out(h: rules.HealthData, f: rules.Factor) -> FactorOut:
    meaning = h.docs["cancer_diet"]["groups"][f.group]
    d = f.doc
    # names, cancers, why and advice as the data file's entry words them; the rest from the parsed factor
    return FactorOut.model_validate(
        d
        | dict(
            id=f.id,
            iarc_group=f.group,
            group_meaning_en=meaning["en"],
            group_meaning_zh=meaning["zh"],
            keywords_zh=list(f.keywords_zh),
            keywords_en=[k for k, _ in f.patterns_en],
            source=f.source,
        )
    )


GROUP_EXPLAIN = (
    "IARC groups say how strong the evidence is that something can cause cancer in people "
    "(1: carcinogenic, 2A: probably, 2B: possibly), not how large the risk of a portion is."
)


def cancer_diet(h: rules.HealthData) -> CancerDiet:
    doc = h.docs["cancer_diet"]
    return CancerDiet(
        explain_en=GROUP_EXPLAIN,
        factors=[factor_out(h, f) for f in h.factors],
        source=h.cite("cancer_diet", doc["list_source"]),
    )


def programme_out(p: rules.Programme) -> ProgrammeOut:
    d = p.doc
    # cancer, test, interval and where as the data file's entry words them
    return ProgrammeOut.model_validate(d | dict(id=p.id, who=[as_answer(r, RuleOut) for r in p.rules], source=p.source))


def screening_guide(h: rules.HealthData) -> Screening:
    doc = h.docs["screening"]
    return Screening(
        how_en=doc["common"]["how_en"],
        how_zh=doc["common"]["how_zh"],
        programmes=[programme_out(p) for p in h.programmes],
        not_covered_en=doc["not_covered_en"],
        sources=[h.cite("screening", s) for s in doc["common"]["sources"]],
    )


def target_out(g: rules.GlucoseRules, when: str) -> GlucoseTargetOut:
    return as_answer(g.moments[when], GlucoseTargetOut, when=when)


def bp_sources(h: rules.HealthData) -> list[Source]:
    return [h.bp.source, h.bp.crisis_source, h.bp.low_source]


def glucose_sources(h: rules.HealthData) -> list[Source]:
    g = h.glucose
    return [g.source, g.diagnosis_source, g.a1c_source, g.very_high_source]


def home_monitoring(h: rules.HealthData) -> HomeMonitoring:
    bp, gl = h.bp.doc, h.glucose.doc
    hypo = gl["hypoglycaemia"]
    return HomeMonitoring(
        rule_722_en=bp["rule_722"]["summary_en"],
        rule_722_zh=bp["rule_722"]["summary_zh"],
        bp_target_en=bp["target"]["summary_en"],
        bp_bands=[as_answer(b, BandOut) for b in h.bp.bands],
        bp_crisis_en=bp["crisis"]["summary_en"],
        bp_crisis_above=f"{h.bp.crisis_systolic_above}/{h.bp.crisis_diastolic_above} mmHg",
        bp_low_en=bp["low"]["summary_en"],
        glucose_unit=gl["unit"],
        glucose_targets_note_en=gl["targets_note_en"],
        glucose_targets=[target_out(h.glucose, w) for w in glucose.WHEN],
        hba1c_target_below=h.glucose.a1c_target_below,
        hypoglycaemia_en=[hypo["level1_en"], hypo["level2_en"], hypo["level3_en"]],
        hypoglycaemia_treat_en=hypo["treat_en"],
        glucose_very_high_en=gl["very_high"]["en"],
        estimated_hba1c_formula=gl["estimated_a1c"]["formula"],
        sources=[*bp_sources(h), h.cite("monitoring", bp["rule_722"]["also_from"]), *glucose_sources(h)],
    )


@SERVICE.operation("GET", "/api/counseling", tool="get_counseling_guide")
def get_counseling() -> CounselingGuide:
    """Free counseling scheme (15 to 45, three sessions), its rules, booking steps and crisis lines."""
    return counseling_guide(HEALTH.get())


@SERVICE.operation("GET", "/api/glp1", tool="get_glp1_side_effects")
def get_glp1() -> Glp1Guide:
    """Weight-loss (GLP-1) drugs approved in Taiwan: trial side-effect rates, warning signs, when to see a doctor."""
    return glp1_guide(HEALTH.get())


@SERVICE.operation("GET", "/api/cancer-diet")
def get_cancer_diet() -> CancerDiet:
    """Dietary carcinogens by IARC group, with why and how to cut the risk."""
    return cancer_diet(HEALTH.get())


@SERVICE.operation("GET", "/api/meal-check", tool="check_meal_cancer_risk")
def meal_check(p: MealQuery) -> MealCheck:
    """Match a meal description (Traditional Chinese or English) against the IARC dietary carcinogens."""
    h = HEALTH.get()
    hits = meal.meal_matches(h.factors, p.meal)
    if hits:
        names = ", ".join(f"{m.factor.doc['name_en']} (IARC {m.factor.group})" for m in hits)
        summary = f"Named in the meal: {names}. See each factor's advice."
    else:
        summary = (
            "No keyword of the listed dietary carcinogens was found. That is not a clean bill: only the "
            "words listed in /api/cancer-diet are recognised."
        )
    return MealCheck(
        matches=[MealHit(matched_keywords=list(m.keywords), factor=factor_out(h, m.factor)) for m in hits],
        highest_group=hits[0].factor.group if hits else None,
        summary_en=summary,
        method_en=(
            "Keyword match: Chinese keywords anywhere in the text, English keywords as whole words "
            "(plurals included), case-insensitive. " + GROUP_EXPLAIN
        ),
    )


@SERVICE.operation("GET", "/api/screening")
def get_screening() -> Screening:
    """Publicly funded cancer screenings in force now: who, which test, how often, where."""
    return screening_guide(HEALTH.get())


@SERVICE.operation("GET", "/api/screening-check", tool="check_cancer_screening_eligibility")
def screening_check(p: ScreeningQuery) -> ScreeningCheck:
    """The publicly funded cancer screenings a person is eligible for now, with interval and where to go."""
    if p.pack_years is not None and p.smoker == "never":
        raise InvalidParameter(
            "pack_years", "given with smoker=never; give smoker=former or current, or leave pack_years out"
        )
    if p.quit_years is not None and p.smoker != "former":
        raise InvalidParameter("quit_years", "only applies with smoker=former")
    h = HEALTH.get()
    family = frozenset(name for name, on in (("colorectal", p.family_colorectal), ("lung", p.family_lung)) if on)
    person = screening.Person(p.age, p.sex, p.smoker, p.betel, p.indigenous, family, p.pack_years, p.quit_years)
    results = screening.screening_eligibility(h.programmes, person)
    return ScreeningCheck(
        age=p.age,
        sex=p.sex,
        eligible=[r.programme.id for r in results if r.status == "eligible"],
        results=[
            EligibilityOut(
                programme=programme_out(r.programme),
                status=r.status,
                because=[as_answer(x, RuleOut) for x in r.matched],
                interval_en=next((x.interval_en for x in r.matched if x.interval_en), r.programme.doc["interval_en"]),
                missing=list(r.missing),
            )
            for r in results
        ],
        how_en=h.docs["screening"]["common"]["how_en"],
    )


@SERVICE.operation("GET", "/api/home-monitoring")
def get_home_monitoring() -> HomeMonitoring:
    """The 7-2-2 home blood pressure rule, BP grading and target, glucose targets and hypoglycaemia levels."""
    return home_monitoring(HEALTH.get())


def grade_out(g: blood_pressure.BPGrade) -> GradeOut:
    return GradeOut(
        systolic=g.systolic,
        diastolic=g.diastolic,
        band=g.band.id,
        band_en=g.band.name_en,
        band_zh=g.band.name_zh,
        at_target=g.at_target,
        crisis=g.crisis,
        low=g.low,
    )


@SERVICE.operation("GET", "/api/bp-check", tool="check_home_blood_pressure")
def bp_check(p: BPQuery) -> BPCheck:
    """Grade up to 6 home blood pressure readings and their average, with what to do (2022 Taiwan guideline)."""
    h = HEALTH.get()
    pairs = readings.parse_bp_readings(p.readings, BP_CHECK_LIMIT)  # already validated by BPQuery
    grades = [blood_pressure.grade_bp(h.bp, s, d) for s, d in pairs]
    average = blood_pressure.average_bp(h.bp, pairs)
    return BPCheck(
        count=len(grades),
        readings=[grade_out(g) for g in grades],
        average=grade_out(average),
        urgent=any(g.crisis for g in grades),
        what_to_do=blood_pressure.bp_actions(h.bp, grades, average),
        sources=bp_sources(h),
    )


@SERVICE.operation("GET", "/api/glucose-check", tool="check_blood_glucose")
def glucose_check(p: GlucoseQuery) -> GlucoseCheck:
    """Grade one blood glucose reading against the target for that moment; hypoglycaemia is flagged."""
    h = HEALTH.get()
    g = glucose.grade_glucose(h.glucose, p.value, p.when)
    return GlucoseCheck(
        value=p.value,
        unit=h.glucose.doc["unit"],
        when=p.when,
        band=g.band,
        hypoglycaemia=g.hypoglycaemia,
        in_target=g.in_target,
        target=target_out(h.glucose, p.when),
        diagnostic_range=g.diagnostic,
        urgent=g.hypoglycaemia is not None,
        explanation=glucose.glucose_explain(h.glucose, g),
        sources=glucose_sources(h),
    )


@SERVICE.operation(
    "GET", "/api/pro/bp-report", price="$0.01", example={"readings": "m:135/85,e:128/82,m:138/88,e:126/80"}
)
def bp_report(p: BPReportQuery) -> BPReport:
    """Home blood pressure report: morning and evening averages, morning hypertension, trend, a summary for a doctor."""
    h = HEALTH.get()
    tagged = readings.parse_bp_report(p.readings, BP_REPORT_LIMIT)
    r = blood_pressure.bp_report(h.bp, tagged)
    grades = [blood_pressure.grade_bp(h.bp, s, d) for _, (s, d) in tagged]
    return BPReport(
        count=r.count,
        average=grade_out(r.overall),
        morning=grade_out(r.morning) if r.morning else None,
        evening=grade_out(r.evening) if r.evening else None,
        morning_hypertension=r.morning_hypertension,
        morning_minus_evening=dict(zip(("systolic", "diastolic"), r.morning_minus_evening))
        if r.morning_minus_evening
        else None,
        trend=dict(zip(("systolic", "diastolic"), r.trend)) if r.trend else None,
        crisis_readings=r.crisis_readings,
        low_readings=r.low_readings,
        band_counts=r.band_counts,
        urgent=r.crisis_readings > 0,
        what_to_do=blood_pressure.bp_actions(h.bp, grades, r.overall),
        summary_for_doctor=blood_pressure.bp_doctor_summary(h.bp, r),
        sources=bp_sources(h),
    )


@SERVICE.operation("GET", "/api/pro/glucose-report", price="$0.01", example={"readings": "f:112,a:168,b:96,r:65"})
def glucose_report(p: GlucoseReportQuery) -> GlucoseReport:
    """Glucose report: time in target, hypoglycaemia events, estimated HbA1c (ADAG formula) and a summary for a doctor."""
    h = HEALTH.get()
    tagged = readings.parse_glucose_report(p.readings, GLUCOSE_REPORT_LIMIT)
    r = glucose.glucose_report(h.glucose, tagged)
    percent = round(100 * r.in_target / r.with_target, 1) if r.with_target else None
    by_when = [
        SlotSummary(
            when=w,
            count=len(gs),
            mean=readings.mean([g.value for g in gs]),
            in_target=sum(bool(g.in_target) for g in gs) if h.glucose.targets[w] else None,
        )
        for w in glucose.WHEN
        if (gs := r.by_when.get(w))
    ]
    hypo = r.hypo_level1 + r.hypo_level2
    very_high = sum(g.value >= h.glucose.very_high_at_or_above for g in r.grades)
    summary = (
        f"{r.count} home glucose readings (mg/dL): mean {r.mean:g}, lowest {r.lowest:g}, highest {r.highest:g}. "
        + (f"In target {r.in_target} of {r.with_target} ({percent:g}%). " if percent is not None else "")
        + f"Hypoglycaemia: {r.hypo_level1} level 1, {r.hypo_level2} level 2. "
        + (f"{very_high} reading(s) at {h.glucose.very_high_at_or_above:g} mg/dL or more. " if very_high else "")
        + f"Estimated HbA1c {r.estimated_a1c:g}% from the mean (ADAG), not a laboratory value."
    )
    # count, mean, lowest, highest and in_target under the report's own names; the rest named here
    return GlucoseReport.model_validate(
        asdict(r)
        | dict(
            readings_with_target=r.with_target,
            time_in_target_percent=percent,
            hypoglycaemia_events=hypo,
            hypoglycaemia_level1=r.hypo_level1,
            hypoglycaemia_level2=r.hypo_level2,
            by_when=by_when,
            estimated_hba1c=r.estimated_a1c,
            estimated_hba1c_formula=h.glucose.doc["estimated_a1c"]["formula"],
            estimated_hba1c_caveat=(
                "The ADAG formula was derived from many readings spread over about three months; a few "
                "finger-stick readings, mostly at one time of day, can give a misleading estimate. Only a laboratory "
                "HbA1c test measures it."
            ),
            urgent=r.hypo_level2 > 0,
            summary_for_doctor=summary,
            sources=glucose_sources(h),
        )
    )


@SERVICE.operation("GET", "/api/pro/export", price="$0.05")
def export() -> Export:
    """All topic data of the service with its sources."""
    h = HEALTH.get()
    return Export(
        counseling=counseling_guide(h),
        glp1=glp1_guide(h),
        cancer_diet=cancer_diet(h),
        screening=screening_guide(h),
        home_monitoring=home_monitoring(h),
    )
