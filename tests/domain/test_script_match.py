"""Finding the ad check's phrases in Traditional or Simplified text without OpenCC, as OpenCC reads them."""

import subprocess
import sys
from pathlib import Path

import pytest

from twlookup.domain.script_match import phrase_spans, traditional
from twlookup.domain.script_spellings import SPELLINGS


def found(text: str, phrase: str) -> list[tuple[int, int, bool]]:
    return phrase_spans(text, traditional(text), phrase)


def test_a_phrase_is_found_as_read_and_by_its_simplified_spelling():
    # 頭髮: the character table reads 头发 as 頭發, so the phrase is found by its spelling
    assert found("使头发乌黑", "使頭髮烏黑") == [(0, 5, True)]
    assert found("可以使頭髮烏黑", "使頭髮烏黑") == [(2, 7, False)]
    # a phrase the character table reads back needs no spelling: 抗过敏 -> 抗過敏
    assert "抗過敏" not in SPELLINGS and found("能抗过敏", "抗過敏") == [(1, 4, False)]
    # Traditional text with 發 is not the phrase with 髮
    assert found("產生發熱", "生髮") == []
    assert found("", "生髮") == [] and found("生发", "") == []
    # occurrences left to right, not overlapping (as the ad check's regular expression found them)
    assert found("治愈治愈治愈", "治癒") == [(0, 2, True), (2, 4, True), (4, 6, True)]
    assert found("哈哈哈", "哈哈") == [(0, 2, False)]


def test_a_character_that_makes_opencc_read_the_spelling_otherwise_is_respected():
    # 出生 is a word to OpenCC: 出生发 reads 出生發, so 生髮 is not there; 促进生发 reads 促進生髮
    assert found("出生发", "生髮") == []
    assert found("促进生发", "生髮") == [(2, 4, True)]


@pytest.mark.parametrize("phrase", sorted(SPELLINGS))
def test_each_spelling_agrees_with_opencc_in_its_contexts(phrase):
    """The generated table against OpenCC itself: the spelling alone is found, and with a character
    before or after it (each that breaks it and a few that do not) it is found where OpenCC reads
    it as it reads it alone."""
    import opencc

    s2tw = opencc.OpenCC("s2tw")
    for spelling, before, after in SPELLINGS[phrase]:
        alone = s2tw.convert(spelling)  # OpenCC's own reading (not always the phrase: 酰胺 stays)
        assert found(spelling, phrase) == [(0, len(spelling), True)]
        for c in before + "的是在":
            assert bool(found(c + spelling, phrase)) == s2tw.convert(c + spelling).endswith(alone), (phrase, c)
        for c in after + "的是在":
            assert bool(found(spelling + c, phrase)) == s2tw.convert(spelling + c).startswith(alone), (phrase, c)


def test_the_spellings_table_is_current():
    """A stale table (ad terms changed without running `python -m twlookup.domain.script_tables_build`)
    fails here."""
    from twlookup.domain import script_spellings
    from twlookup.domain.script_tables_build import build_spellings

    assert build_spellings() == Path(script_spellings.__file__).read_text(encoding="utf-8")


def test_the_ad_check_loads_no_opencc():
    """Issue 24: the ad check loaded OpenCC's dictionaries into the serving process (45 MB, 0.1 s)."""
    code = (
        "import sys\n"
        "from twlookup.services.creator.logic.adcheck import normalise\n"
        "assert normalise('这款面霜能抗 过敏') == '這款面霜能抗過敏'\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'opencc'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
