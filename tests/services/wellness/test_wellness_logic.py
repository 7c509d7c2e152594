"""Scoring by the manuals, against the shipped bands: every cut-off, the lowest and highest scores,
the items that are flagged on their own, and the sleep-cycle arithmetic."""

from datetime import time

import pytest

from twlookup.services.wellness import logic
from twlookup.services.wellness.data import WELLNESS
from twlookup.services.wellness.schemas import Gad7Body, MoodThermometerBody, Phq9Body


@pytest.fixture(scope="module")
def data(db_url):
    return WELLNESS.get()


def answers_for(total: int, items: int, top: int) -> list[int]:
    """Answers adding up to `total`, filled from the first item (top = highest answer)."""
    out = []
    for _ in range(items):
        out.append(min(top, total))
        total -= out[-1]
    assert total == 0
    return out


# BSRS-5 (Taiwan Suicide Prevention Society / WDA leaflet): 0-5 usual, 6-9 mild, 10-14 moderate, 15-20 severe.
@pytest.mark.parametrize(
    ("total", "band"),
    [
        (0, "normal"),
        (5, "normal"),
        (6, "mild"),
        (9, "mild"),
        (10, "moderate"),
        (14, "moderate"),
        (15, "severe"),
        (20, "severe"),
    ],
)
def test_bsrs5_bands_on_every_cut_off(data, total, band):
    result = logic.score(data.instruments["bsrs5"], answers_for(total, 5, 4), 0)
    assert (result.total, result.band.id) == (total, band)
    assert not result.flags and not result.urgent


def test_bsrs5_worked_example(data):
    # Hand-worked: tense 1 + distressed 2 + low 0 + inferior 3 + sleep 1 = 7, in 6-9 (mild); the
    # suicide item (1) is not added to the total and is below the flag.
    result = logic.score(data.instruments["bsrs5"], [1, 2, 0, 3, 1], 1)
    assert (result.total, result.band.id, result.flags) == (7, "mild", ())


@pytest.mark.parametrize(("suicidal", "flagged"), [(0, False), (1, False), (2, True), (3, True), (4, True)])
def test_bsrs5_suicide_item_alone_is_flagged_from_2_whatever_the_total(data, suicidal, flagged):
    result = logic.score(data.instruments["bsrs5"], [0, 0, 0, 0, 0], suicidal)
    assert result.total == 0 and result.band.id == "normal"  # not added to the total
    assert result.urgent is flagged
    if flagged:
        (flag,) = result.flags
        assert flag.item is None and flag.answer == suicidal and "1925" in flag.message


# PHQ-9 (Kroenke et al. 2001; PHQ manual): 0-4, 5-9, 10-14, 15-19, 20-27.
@pytest.mark.parametrize(
    ("total", "band"),
    [
        (0, "minimal"),
        (4, "minimal"),
        (5, "mild"),
        (9, "mild"),
        (10, "moderate"),
        (14, "moderate"),
        (15, "moderately-severe"),
        (19, "moderately-severe"),
        (20, "severe"),
        (27, "severe"),
    ],
)
def test_phq9_bands_on_every_cut_off(data, total, band):
    result = logic.score(data.instruments["phq9"], answers_for(total, 9, 3))
    assert (result.total, result.band.id) == (total, band)


@pytest.mark.parametrize("answer", [1, 2, 3])
def test_phq9_item_9_alone_is_flagged(data, answer):
    result = logic.score(data.instruments["phq9"], [0] * 8 + [answer])
    assert result.total == answer and result.band.id == "minimal"
    (flag,) = result.flags
    assert (flag.item, flag.answer) == (9, answer) and result.urgent


def test_phq9_high_total_without_item_9_has_no_flag(data):
    result = logic.score(data.instruments["phq9"], [3] * 8 + [0])
    assert (result.total, result.band.id, result.flags) == (24, "severe", ())


# GAD-7 (Spitzer et al. 2006; PHQ manual): 0-4, 5-9, 10-14, 15-21.
@pytest.mark.parametrize(
    ("total", "band"),
    [
        (0, "minimal"),
        (4, "minimal"),
        (5, "mild"),
        (9, "mild"),
        (10, "moderate"),
        (14, "moderate"),
        (15, "severe"),
        (21, "severe"),
    ],
)
def test_gad7_bands_on_every_cut_off(data, total, band):
    result = logic.score(data.instruments["gad7"], answers_for(total, 7, 3))
    assert (result.total, result.band.id, result.flags) == (total, band, ())


@pytest.mark.parametrize(
    ("instrument", "answers", "extra", "message"),
    [
        ("phq9", [0] * 8, None, "has 9 items, got 8"),
        ("phq9", [0] * 10, None, "has 9 items, got 10"),
        ("phq9", [0] * 8 + [4], None, "answer 9 is 4"),
        ("gad7", [-1] + [0] * 6, None, "answer 1 is -1"),
        ("gad7", [0] * 7, 1, "has no extra item"),
        ("bsrs5", [0] * 5, None, "needs the extra item"),
        ("bsrs5", [0] * 4 + [5], 0, "answer 5 is 5"),
        ("bsrs5", [0] * 5, 5, "the extra item is 5"),
    ],
)
def test_answers_are_checked_against_the_instrument(data, instrument, answers, extra, message):
    with pytest.raises(ValueError, match=message):
        logic.score(data.instruments[instrument], answers, extra)


def test_every_total_falls_in_exactly_one_band(data):
    for instrument in data.instruments.values():
        for total in range(instrument.max_total + 1):
            assert sum(b.min <= total <= b.max for b in instrument.bands) == 1, (instrument.id, total)
        with pytest.raises(ValueError):
            logic.band_for(instrument, instrument.max_total + 1)


def test_sleep_back_from_a_wake_time(data):
    # 07:00 minus n x 90 min minus 15 min to fall asleep: 6 -> 21:45, 5 -> 23:15, 4 -> 00:45, 3 -> 02:15
    got = [(o.cycles, o.bedtime, o.wake) for o in logic.sleep_options(data.sleep, wake=time(7, 0))]
    assert got == [
        (6, time(21, 45), time(7)),
        (5, time(23, 15), time(7)),
        (4, time(0, 45), time(7)),
        (3, time(2, 15), time(7)),
    ]


def test_sleep_forward_from_a_bedtime_across_midnight(data):
    # 23:00 plus 15 min plus n x 90 min: 6 -> 08:15, 5 -> 06:45, 4 -> 05:15, 3 -> 03:45
    got = [(o.cycles, o.sleep_minutes, o.wake) for o in logic.sleep_options(data.sleep, bedtime=time(23, 0))]
    assert got == [(6, 540, time(8, 15)), (5, 450, time(6, 45)), (4, 360, time(5, 15)), (3, 270, time(3, 45))]


def test_sleep_needs_exactly_one_anchor(data):
    with pytest.raises(ValueError):
        logic.sleep_options(data.sleep)
    with pytest.raises(ValueError):
        logic.sleep_options(data.sleep, wake=time(7), bedtime=time(23))


@pytest.mark.parametrize(
    ("model", "instrument"), [(MoodThermometerBody, "bsrs5"), (Phq9Body, "phq9"), (Gad7Body, "gad7")]
)
def test_request_schemas_match_the_instruments(data, model, instrument):
    """The 422s come from the request schema, so it must say what the data says: count and range."""
    x = data.instruments[instrument]
    answers = model.model_json_schema()["properties"]["answers"]
    assert answers["minItems"] == answers["maxItems"] == len(x.items)
    assert (answers["items"]["minimum"], answers["items"]["maximum"]) == (x.item_min, x.item_max)
    if x.extra_item:
        extra = model.model_json_schema()["properties"]["suicidal"]
        assert (extra["minimum"], extra["maximum"]) == (x.extra_item.min, x.extra_item.max)


@pytest.mark.parametrize(
    ("instrument", "items", "top", "extra"), [("bsrs5", 5, 4, 0), ("phq9", 9, 3, None), ("gad7", 7, 3, None)]
)
def test_highest_band_without_flags_still_sends_the_person_to_a_professional(data, instrument, items, top, extra):
    # `urgent` is only the item flags, so the top band's own advice must carry the message.
    answers = [top] * items
    if instrument == "phq9":
        answers[8] = 0  # item 9 would raise a flag
    result = logic.score(data.instruments[instrument], answers, extra)
    assert result.band.id == "severe" and not result.urgent
    advice = result.band.advice.lower()
    assert any(w in advice for w in ("doctor", "psychiatrist", "professional")), advice
