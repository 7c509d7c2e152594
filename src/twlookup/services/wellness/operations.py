"""The wellness service's operations: thin adapters from parameters to logic and results.

Self-assessment answers travel in POST JSON bodies, never in the URL, and no operation keeps,
logs or counts them (see docs/services/wellness.md).
"""

from __future__ import annotations

from datetime import time

from twlookup.platform.errors import InvalidParameter, NotFound
from twlookup.platform.records import as_answer
from twlookup.platform.service import Service
from twlookup.services.wellness import logic
from twlookup.services.wellness.data import WELLNESS, WellnessData
from twlookup.services.wellness.records import Band, CrisisLine, Exercise, Instrument, Situation, SleepMethod
from twlookup.services.wellness.schemas import (
    AssessmentResult,
    BandOut,
    Breathing,
    CrisisLineOut,
    CrisisLines,
    DigitalWellness,
    ExerciseOut,
    Export,
    ExtraItemOut,
    Gad7Body,
    GuideSectionOut,
    InstrumentId,
    InstrumentOut,
    ItemFlagOut,
    MoodThermometerBody,
    Phq9Body,
    RegulationOut,
    SituationOut,
    SleepMethodOut,
    SleepOptionOut,
    SleepQuery,
    SleepTimes,
    TelehealthAnswer,
    TelehealthQuery,
)

NOTICE = (
    "Information only, not a diagnosis or medical advice; a self-assessment cannot replace a "
    "professional's evaluation. In danger now: call 119 (ambulance) or 110 (police); to talk to "
    "someone any time: 1925."
)
NOT_A_DIAGNOSIS = (
    "This score is a screening result, not a diagnosis. Only a doctor or mental health professional "
    "can assess what it means for you. Your answers were not stored."
)
ADULT_MINIMUM_MINUTES = 7 * 60  # AASM/SRS consensus: adults need 7 hours or more (data/wellness/guides.yaml)

SERVICE = Service(
    name="wellness",
    title="Telehealth, self-assessments, sleep and crisis lines",
    description=(
        "Taiwan's 11 telehealth situations under the 2024 telemedicine regulations; mood thermometer "
        "(BSRS-5), PHQ-9 and GAD-7 scored by their manuals; sleep times; breathing exercises; a "
        "digital wellness guide; Taiwan's crisis lines. Answers are not stored."
    ),
    network="testnet",
    notice=NOTICE,
    private=True,
)


def _line(line: CrisisLine) -> CrisisLineOut:
    return as_answer(line, CrisisLineOut)


def _band(b: Band) -> BandOut:
    return as_answer(b, BandOut)


def _telehealth(data: WellnessData, situations: list[Situation]) -> TelehealthAnswer:
    reg = data.regulation
    return TelehealthAnswer(
        regulation=as_answer(reg, RegulationOut),
        common_conditions=reg.common_conditions,
        count=len(situations),
        situations=[as_answer(s, SituationOut, sources=s.source_refs) for s in situations],
        notice=NOTICE,
    )


@SERVICE.operation("GET", "/api/telehealth", tool="check_telehealth_eligibility")
def telehealth(p: TelehealthQuery) -> TelehealthAnswer:
    """Whether a situation allows remote consultation as a special case, and whether prescribing is allowed.

    The 11 situations of Taiwan's telemedicine rules (Physicians Act Article 11 and the
    通訊診察治療辦法 as amended in 2024): omit `situation` to list all of them.
    """
    data = WELLNESS.get()
    if p.situation is None:
        return _telehealth(data, list(data.situations.values()))
    found = data.situations.get(p.situation)
    if found is None:
        raise NotFound("telehealth situation", p.situation, "Valid ids: " + ", ".join(data.situations) + ".")
    return _telehealth(data, [found])


def _assess(
    data: WellnessData, instrument_id: InstrumentId, answers: list[int], extra: int | None = None
) -> AssessmentResult:
    instrument = data.instruments[instrument_id]
    result = logic.score(instrument, answers, extra)  # count and range are already the schema's (tested equal)
    extra_out, item = None, instrument.extra_item
    if item is not None and extra is not None:
        extra_out = ExtraItemOut(
            **item.model_dump(include={"label", "flag_at"}), answer=extra, flagged=extra >= item.flag_at
        )
    return AssessmentResult(
        **instrument.model_dump(include={"name_zh", "name_en", "period"}),
        instrument=instrument_id,
        total=result.total,
        max_total=instrument.max_total,
        band=_band(result.band),
        bands=[_band(b) for b in instrument.bands],
        item_flags=[ItemFlagOut.model_validate(f, from_attributes=True) for f in result.flags],
        urgent=result.urgent,
        extra_item=extra_out,
        not_a_diagnosis=NOT_A_DIAGNOSIS,
        crisis_lines=[_line(line) for line in data.crisis_lines],
        sources=instrument.source_refs,
    )


@SERVICE.operation("POST", "/api/mood-thermometer", tool="score_mood_thermometer")
def mood_thermometer(p: MoodThermometerBody) -> AssessmentResult:
    """Score the mood thermometer (BSRS-5): total 0 to 20 with its band, and the suicidal-ideation item on its own.

    Five answers 0 to 4 about the past week, plus `suicidal` 0 to 4, which is not added to the
    total and is flagged at 2 or more whatever the total. Answers are not stored.
    """
    return _assess(WELLNESS.get(), "bsrs5", list(p.answers), p.suicidal)


@SERVICE.operation("POST", "/api/phq9", tool="score_phq9")
def phq9(p: Phq9Body) -> AssessmentResult:
    """Score the PHQ-9: total 0 to 27 with its severity band; item 9 is flagged whenever it is above 0.

    Nine answers 0 to 3 about the past 2 weeks. Answers are not stored.
    """
    return _assess(WELLNESS.get(), "phq9", list(p.answers))


@SERVICE.operation("POST", "/api/gad7", tool="score_gad7")
def gad7(p: Gad7Body) -> AssessmentResult:
    """Score the GAD-7: total 0 to 21 with its severity band.

    Seven answers 0 to 3 about the past 2 weeks. Answers are not stored.
    """
    return _assess(WELLNESS.get(), "gad7", list(p.answers))


def _method(m: SleepMethod) -> SleepMethodOut:
    return as_answer(m, SleepMethodOut)


def _hhmm(t: time) -> str:
    return t.strftime("%H:%M")


@SERVICE.operation("GET", "/api/sleep", tool="calc_sleep_times")
def sleep(p: SleepQuery) -> SleepTimes:
    """Bedtimes for a wake time, or wake times for a bedtime, in whole 90-minute sleep cycles.

    Give exactly one of `wake` and `bedtime` (HH:MM). The method adds 15 minutes to fall asleep
    before the first cycle and lists 6, 5, 4 and 3 cycles.
    """
    if (p.wake is None) == (p.bedtime is None):
        raise InvalidParameter(
            "wake" if p.wake is None else "bedtime",
            "give exactly one of wake and bedtime (HH:MM)",
            {"one_of": ["wake", "bedtime"]},
        )
    method = WELLNESS.get().sleep
    given = time.fromisoformat(p.wake or p.bedtime or "")
    options = logic.sleep_options(method, wake=given if p.wake else None, bedtime=given if p.bedtime else None)
    return SleepTimes(
        mode="wake" if p.wake else "bedtime",
        method=_method(method),
        options=[
            SleepOptionOut(
                cycles=o.cycles,
                sleep_minutes=o.sleep_minutes,
                bedtime=_hhmm(o.bedtime),
                wake=_hhmm(o.wake),
                meets_adult_minimum=o.sleep_minutes >= ADULT_MINIMUM_MINUTES,
            )
            for o in options
        ],
        sources=method.source_refs,
        notice=NOTICE,
    )


def _exercise(e: Exercise) -> ExerciseOut:
    return as_answer(e, ExerciseOut, sources=e.source_refs)


def _breathing(data: WellnessData) -> Breathing:
    return Breathing(
        count=len(data.breathing),
        exercises=[_exercise(g) for g in data.breathing],
        caution=data.breathing_caution,
        notice=NOTICE,
    )


@SERVICE.operation("GET", "/api/breathing", tool="breathing_exercises")
def breathing() -> Breathing:
    """Breathing exercises for calming down: belly breathing, box breathing and 4-7-8, step by step."""
    return _breathing(WELLNESS.get())


def _digital(data: WellnessData) -> DigitalWellness:
    sections = [as_answer(g, GuideSectionOut, sources=g.source_refs) for g in data.digital]
    return DigitalWellness(count=len(sections), sections=sections, notice=NOTICE)


@SERVICE.operation("GET", "/api/digital-wellness", tool="digital_wellness_guide")
def digital_wellness() -> DigitalWellness:
    """Digital wellness guide: screen time for children, eyes and posture, sleep and mood."""
    return _digital(WELLNESS.get())


@SERVICE.operation("GET", "/api/crisis-lines", tool="crisis_lines")
def crisis_lines() -> CrisisLines:
    """Taiwan's crisis and support lines: number, hours and what each is for."""
    data = WELLNESS.get()
    return CrisisLines(count=len(data.crisis_lines), lines=[_line(x) for x in data.crisis_lines], notice=NOTICE)


def _instrument(i: Instrument) -> InstrumentOut:
    return as_answer(i, InstrumentOut, sources=i.source_refs)


@SERVICE.operation("GET", "/api/pro/export", price="$0.05")
def export() -> Export:
    """All the service's data with sources: telehealth situations, instruments and their bands, crisis lines, guides."""
    data = WELLNESS.get()
    return Export(
        telehealth=_telehealth(data, list(data.situations.values())),
        instruments=[_instrument(i) for i in data.instruments.values()],
        crisis_lines=[_line(x) for x in data.crisis_lines],
        sleep_method=_method(data.sleep),
        sleep_sources=data.sleep.source_refs,
        breathing=_breathing(data),
        digital_wellness=_digital(data),
        notice=NOTICE,
    )
