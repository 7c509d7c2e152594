"""Parameters and results of the wellness service's operations."""

from __future__ import annotations

import re
from typing import Annotated, ClassVar, Literal

from pydantic import BeforeValidator, Field, field_validator
from pydantic_core import PydanticCustomError

from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel, Source
from twlookup.services.wellness import records

HHMM = r"^([01]\d|2[0-3]):[0-5]\d$"


def _number(value: object) -> object:
    """An answer is a JSON number (1 and 1.0 alike, as JSON Schema's integer allows), never text or true/false."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("must be a whole number, not text or true/false")
    return value


Answer = Annotated[int, BeforeValidator(_number)]
# Bounds before the validator: that order keeps them as minimum/maximum in the JSON schema.
BSRS_ITEM = Annotated[int, Field(ge=0, le=4), BeforeValidator(_number)]
PHQ_ITEM = Annotated[int, Field(ge=0, le=3), BeforeValidator(_number)]


def _check_answers(value: object, name: str, count: int, top: int, scale: str) -> object:
    """Count and range in words a person can act on, naming the item 1-based as the questionnaire does.

    Runs before the schema's own checks (which stay in the JSON schema for MCP clients), so a wrong
    answer reads "answer 9 is 4; ..." rather than pydantic's 0-based "answers.8".
    """
    allowed = f"{name} has exactly {count} answers, in order, each a whole number 0 to {top} ({scale})"
    if not isinstance(value, list):
        raise PydanticCustomError("answers", "must be a JSON list: {allowed}", {"allowed": allowed})
    if len(value) != count:
        raise PydanticCustomError("answers", "got {n} answers; {allowed}", {"n": len(value), "allowed": allowed})
    for i, answer in enumerate(value, 1):
        if not _whole(answer, top):
            raise PydanticCustomError(
                "answers", "answer {i} is {answer}; {allowed}", {"i": i, "answer": repr(answer), "allowed": allowed}
            )
    return value


def _whole(value: object, top: int) -> bool:
    """A JSON number (not true/false) that is a whole number from 0 to `top`."""
    return isinstance(value, int | float) and not isinstance(value, bool) and value == int(value) and 0 <= value <= top


def _check_extra(value: object) -> object:
    if value is not None and not _whole(value, 4):
        raise PydanticCustomError(
            "suicidal",
            "is {value}; the thoughts-of-suicide item is one whole number 0 to 4 "
            "(0 not at all, 1 a little, 2 moderately, 3 quite a lot, 4 extremely)",
            {"value": repr(value)},
        )
    return value


InstrumentId = Literal["bsrs5", "phq9", "gad7"]
SCALE_0_4 = "0 not at all, 1 a little, 2 moderately, 3 quite a lot, 4 extremely"
SCALE_0_3 = "0 not at all, 1 several days, 2 more than half the days, 3 nearly every day"


# -- inputs ----------------------------------------------------------------------------------------


class TelehealthQuery(Params):
    situation: str | None = Field(
        None, min_length=1, max_length=40, description="Situation id (omit to list all 11), e.g. post-acute-care"
    )

    @field_validator("situation", mode="before")
    @classmethod
    def _situation(cls, v: object) -> object:
        if v == "":
            raise PydanticCustomError(
                "situation",
                "is empty; give a situation id such as post-acute-care, or leave situation out to list all 11",
                {},
            )
        return v


class QuestionnaireBody(Params):
    """The answers to one questionnaire, checked in words first (`_check_answers`): `questionnaire` is its name,
    its number of answers, the highest answer and its scale in words."""

    questionnaire: ClassVar[tuple[str, int, int, str]]

    @field_validator("answers", mode="before", check_fields=False)
    @classmethod
    def _answers(cls, v: object) -> object:
        return _check_answers(v, *cls.questionnaire)


class MoodThermometerBody(QuestionnaireBody):
    questionnaire = ("the mood thermometer (BSRS-5)", 5, 4, SCALE_0_4)
    answers: list[BSRS_ITEM] = Field(
        min_length=5,
        max_length=5,
        description=(
            "The 5 BSRS-5 answers in order, each 0 (not at all) to 4 (extremely), about the past week: "
            "tense or uneasy; easily distressed or angered; depressed or low; inferior to others; trouble sleeping"
        ),
    )
    suicidal: Answer = Field(
        ge=0,
        le=4,
        description="The extra item, thoughts of suicide, 0 to 4; scored on its own and flagged at 2 or more",
    )

    @field_validator("suicidal", mode="before")
    @classmethod
    def _suicidal(cls, v: object) -> object:
        return _check_extra(v)


class Phq9Body(QuestionnaireBody):
    questionnaire = ("the PHQ-9", 9, 3, SCALE_0_3)
    answers: list[PHQ_ITEM] = Field(
        min_length=9,
        max_length=9,
        description="The 9 PHQ-9 answers in order, each 0 (not at all) to 3 (nearly every day), about the past 2 weeks",
    )


class Gad7Body(QuestionnaireBody):
    questionnaire = ("the GAD-7", 7, 3, SCALE_0_3)
    answers: list[PHQ_ITEM] = Field(
        min_length=7,
        max_length=7,
        description="The 7 GAD-7 answers in order, each 0 (not at all) to 3 (nearly every day), about the past 2 weeks",
    )


class SleepQuery(Params):
    wake: str | None = Field(None, pattern=HHMM, description="Time you want to wake up, HH:MM (24-hour clock)")
    bedtime: str | None = Field(None, pattern=HHMM, description="Time you go to bed, HH:MM (24-hour clock)")

    @field_validator("wake", "bedtime", mode="before")
    @classmethod
    def _hhmm(cls, v: object) -> object:
        if isinstance(v, str) and not re.match(HHMM, v):
            raise PydanticCustomError(
                "hhmm",
                "{value} is not a time; use HH:MM on the 24-hour clock, 00:00 to 23:59, e.g. 07:00 or 23:30",
                {"value": repr(v)},
            )
        return v


# -- shared pieces -------------------------------------------------------------------------------


class CrisisLineOut(RecordAnswer, record=records.CrisisLine):
    """A crisis or support line as answers give it (the record, with its source)."""


# -- telehealth ----------------------------------------------------------------------------------


class RegulationOut(RecordAnswer, record=records.Regulation, exclude=("common_conditions",)):
    """The regulation (its common conditions are the telehealth answer's own field)."""


class SituationOut(RecordAnswer, record=records.Situation, exclude=("sources",)):
    sources: list[Source] = Field(description="Every page the situation rests on")


class TelehealthAnswer(LazyModel):
    regulation: RegulationOut
    common_conditions: str = Field(description="What every remote consultation under Article 3 needs")
    count: int
    situations: list[SituationOut]
    notice: str


# -- self-assessments ----------------------------------------------------------------------------


class BandOut(RecordAnswer, record=records.Band):
    """A scoring band as the instrument's manual gives it (the record, unchanged)."""


class ItemFlagOut(LazyModel):
    item: int | None = Field(description="1-based item number; null for an extra item that is not part of the total")
    label: str
    answer: int
    message: str


class ExtraItemOut(LazyModel):
    label: str
    answer: int
    flag_at: int
    flagged: bool


class AssessmentResult(LazyModel):
    instrument: InstrumentId
    name_zh: str
    name_en: str
    period: str = Field(description="The period the answers are about")
    total: int
    max_total: int
    band: BandOut = Field(description="The severity band the total falls in")
    bands: list[BandOut] = Field(description="Every band of the instrument, for context")
    item_flags: list[ItemFlagOut] = Field(description="Items whose answer needs attention whatever the total")
    urgent: bool = Field(
        description=(
            "True when an item flag asks for help now whatever the total (PHQ-9 item 9 above 0; the BSRS-5 "
            "suicide item at 2 or more). It does not grade the total: a severe band is false here, so read band.advice too"
        )
    )
    extra_item: ExtraItemOut | None = Field(None, description="BSRS-5's suicidal-ideation item, scored separately")
    not_a_diagnosis: str
    crisis_lines: list[CrisisLineOut]
    stored: Literal[False] = Field(False, description="Answers are not stored or logged")
    sources: list[Source]


# -- sleep, breathing, guide, crisis lines -----------------------------------------------------------


class SleepOptionOut(LazyModel):
    cycles: int
    sleep_minutes: int = Field(description="Time asleep, without the minutes to fall asleep")
    bedtime: str = Field(description="Get into bed at (HH:MM)")
    wake: str = Field(description="Wake up at (HH:MM)")
    meets_adult_minimum: bool = Field(description="True when the sleep is 7 hours or more")


class SleepMethodOut(RecordAnswer, record=records.SleepMethod, exclude=("cycles", "sources")):
    """The method (its sources are the answer's own field)."""


class SleepTimes(LazyModel):
    mode: Literal["wake", "bedtime"] = Field(
        description="wake: counted back from the wake time; bedtime: forward from the bedtime"
    )
    method: SleepMethodOut
    options: list[SleepOptionOut]
    sources: list[Source]
    notice: str


class ExerciseOut(RecordAnswer, record=records.Exercise, exclude=("sources",)):
    sources: list[Source] = Field(description="Every page the exercise rests on")


class Breathing(LazyModel):
    count: int
    exercises: list[ExerciseOut]
    caution: str
    notice: str


class GuideSectionOut(RecordAnswer, record=records.GuideSection, exclude=("sources",)):
    sources: list[Source] = Field(description="Every page the section rests on")


class DigitalWellness(LazyModel):
    count: int
    sections: list[GuideSectionOut]
    notice: str


class CrisisLines(LazyModel):
    count: int
    lines: list[CrisisLineOut]
    notice: str


class InstrumentOut(RecordAnswer, record=records.Instrument, exclude=("sources",)):
    sources: list[Source] = Field(description="Every page the instrument rests on")


class Export(LazyModel):
    telehealth: TelehealthAnswer
    instruments: list[InstrumentOut]
    crisis_lines: list[CrisisLineOut]
    sleep_method: SleepMethodOut
    sleep_sources: list[Source]
    breathing: Breathing
    digital_wellness: DigitalWellness
    notice: str
