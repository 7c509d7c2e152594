"""Domain rules of the wellness service: scoring self-assessments by their manuals, sleep times.

Pure functions over the records (records.py) and plain dataclasses; nothing here keeps an answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from twlookup.services.wellness.records import Band, Instrument, SleepMethod


@dataclass(frozen=True)
class ItemFlag:
    item: int | None  # None for the extra item
    label: str
    answer: int
    message: str


@dataclass(frozen=True)
class Score:
    instrument: Instrument
    total: int
    band: Band
    flags: tuple[ItemFlag, ...]
    extra_answer: int | None

    @property
    def urgent(self) -> bool:
        """True when an item flag asks for help now, whatever the total."""
        return bool(self.flags)


def band_for(instrument: Instrument, total: int) -> Band:
    for band in instrument.bands:
        if band.min <= total <= band.max:
            return band
    raise ValueError(f"{instrument.id}: no band covers a total of {total}")


def check_answers(instrument: Instrument, answers: Sequence[int], extra: int | None) -> None:
    """Count and range exactly as the instrument defines them; ValueError names what is wrong."""
    if len(answers) != len(instrument.items):
        raise ValueError(f"{instrument.id} has {len(instrument.items)} items, got {len(answers)} answers")
    for i, answer in enumerate(answers, 1):
        if not instrument.item_min <= answer <= instrument.item_max:
            raise ValueError(f"answer {i} is {answer}; each answer is {instrument.item_min} to {instrument.item_max}")
    if instrument.extra_item is None:
        if extra is not None:
            raise ValueError(f"{instrument.id} has no extra item")
    elif extra is None:
        raise ValueError(f"{instrument.id} needs the extra item ({instrument.extra_item.label})")
    elif not instrument.extra_item.min <= extra <= instrument.extra_item.max:
        raise ValueError(f"the extra item is {extra}; it is {instrument.extra_item.min} to {instrument.extra_item.max}")


def score(instrument: Instrument, answers: Sequence[int], extra: int | None = None) -> Score:
    """Sum the items, find the band, and raise every item flag the manual names."""
    check_answers(instrument, answers, extra)
    total = sum(answers)
    flags = [
        ItemFlag(rule.item, instrument.items[rule.item - 1], answers[rule.item - 1], rule.message)
        for rule in instrument.flag_items
        if answers[rule.item - 1] >= rule.flag_at
    ]
    if instrument.extra_item is not None and extra is not None and extra >= instrument.extra_item.flag_at:
        flags.append(ItemFlag(None, instrument.extra_item.label, extra, instrument.extra_item.message))
    return Score(instrument, total, band_for(instrument, total), tuple(flags), extra)


# -- sleep ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SleepOption:
    cycles: int
    sleep_minutes: int
    bedtime: time  # when to get into bed
    wake: time


def sleep_options(method: SleepMethod, *, wake: time | None = None, bedtime: time | None = None) -> list[SleepOption]:
    """Whole sleep cycles back from a wake time, or forward from a bedtime, with the time it
    takes to fall asleep added before the first cycle. Exactly one of wake/bedtime is given."""
    given = wake if wake is not None else bedtime
    if given is None or (wake is not None and bedtime is not None):
        raise ValueError("give exactly one of wake and bedtime")
    anchor = datetime.combine(date(2000, 1, 2), given)
    latency = timedelta(minutes=method.fall_asleep_minutes)
    out = []
    for n in method.cycles:
        asleep = timedelta(minutes=n * method.cycle_minutes)
        if wake is not None:
            start, end = anchor - asleep - latency, anchor
        else:
            start, end = anchor, anchor + latency + asleep
        out.append(SleepOption(n, n * method.cycle_minutes, start.time(), end.time()))
    return out
