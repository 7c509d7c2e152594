"""The AI-text check: documented signals, positions of matched phrases, and its accuracy on the
labelled calibration set (stated in the README)."""

import importlib.util
from pathlib import Path

import pytest

from twlookup.services.opinions.logic import aicheck

_spec = importlib.util.spec_from_file_location("opinions_calibration", Path(__file__).parent / "calibration.py")
_calibration = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_calibration)
HUMAN, AI = _calibration.HUMAN, _calibration.AI


def test_calibration_accuracy():
    right = sum(aicheck.check(t).label != "likely-ai" for t in HUMAN) + sum(
        aicheck.check(t).label == "likely-ai" for t in AI
    )
    accuracy = right / (len(HUMAN) + len(AI))
    assert len(HUMAN) == len(AI) == 10
    assert accuracy >= 0.95  # README states 20 of 20 on this set, and why that is an upper bound


def test_matches_carry_positions_weight_and_source():
    text = "Great phone. As an AI language model, I cannot hold it. I hope this helps!"
    r = aicheck.check(text)
    names = [m.phrase for m in r.matches]
    assert names == ["as an AI language model", "I hope this helps"]
    first = r.matches[0]
    assert text[first.start : first.end] == "As an AI language model"
    assert first.weight == 2.0 and "Signs_of_AI_writing" in first.source
    assert r.label == "likely-ai"


def test_simplified_and_traditional_chinese_both_match():
    for text in ("作為一個AI語言模型，我無法回答。", "作为一个AI语言模型，我无法回答。"):
        r = aicheck.check(text)
        assert r.matches and r.matches[0].phrase == "作為AI語言模型"


def test_score_formula_hand_worked():
    # one 'delve' (0.6 points) in 3 sentences: no uniformity signal, no repetition
    r = aicheck.check("We delve into this. It was fine. Cheap too.")
    assert r.phrase_points == 0.6 and r.uniformity is None and r.repetition == 0
    assert r.score == pytest.approx(round(0.75 * (1 - 2.718281828459045**-0.6), 4), abs=1e-4)


def test_uniform_sentences_raise_the_uniformity_signal():
    uniform = " ".join(
        ["The device works well today."] * 3 + ["The screen looks good today.", "The price seems fair today."]
    )
    varied = (
        "Really good. The battery on this thing lasted an entire week of heavy reading on a long trip across the island. "
        "Not bad. Would I buy it again for the price they ask now, given the newer models? Probably yes. Screen is sharp."
    )
    assert aicheck.check(uniform).uniformity == 1.0
    assert aicheck.check(varied).uniformity == 0.0


def test_plain_text_is_likely_human():
    r = aicheck.check("買了三個月，電池還行，但按鍵有點鬆。")
    assert r.label == "likely-human" and r.score < 0.25
