"""The glossary's content: counts the issue asks for, Taiwan usage, a source per item, and every
how-to code block executed (Python, runs: true) or compiled (Python that needs a network)."""

import re

import pytest

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.records import DataFileError
from twlookup.services.glossary.data import read_all

TERMS, COMPARISONS, HOWTOS = read_all(DEFAULT_DATA)


def test_counts():
    assert len(TERMS) >= 150
    assert len(COMPARISONS) >= 30
    assert len(HOWTOS) >= 20


def test_every_item_has_a_source_and_check_date():
    for item in [*TERMS, *COMPARISONS, *HOWTOS]:
        assert item.source.startswith("https://") or item.source.startswith("http://incompleteideas.net"), item.id
        assert item.source_title and item.checked and not item.sample


# Mainland usage where Taiwan writes 人工智慧, 資料, 資料集, 大型語言模型, 演算法, 資訊, 網路, 品質.
MAINLAND = [r"人工智能", r"数据", r"數據", r"(?<!型)大語言模型", r"(?<!演)算法", r"信息", r"網絡", r"质量", r"質量"]


def test_taiwan_usage_in_what_the_service_writes():
    by_id = {t.id: t for t in TERMS}
    assert by_id["artificial-intelligence"].name_zh == "人工智慧"
    assert by_id["large-language-model"].name_zh == "大型語言模型"
    assert by_id["dataset"].name_zh == "資料集"
    assert by_id["inference"].name_zh == "推論"
    for t in TERMS:  # mainland forms may appear as aliases (so they are found), never in names or definitions
        for word in MAINLAND:
            assert not re.search(word, t.name_zh + t.definition), (t.id, word)
    for c in COMPARISONS:
        for word in MAINLAND:
            assert not re.search(word, c.title + c.summary), (c.id, word)
    for h in HOWTOS:
        for word in MAINLAND:
            assert not re.search(word, h.title + h.summary + "".join(h.steps)), (h.id, word)


def test_related_and_comparison_ids_resolve():
    ids = {t.id for t in TERMS}
    assert all(set(t.related) <= ids for t in TERMS)
    assert all(c.a in ids and c.b in ids for c in COMPARISONS)


BLOCKS = [(h.id, i, b) for h in HOWTOS for i, b in enumerate(h.code)]


@pytest.mark.parametrize(("howto", "index", "block"), BLOCKS, ids=[f"{h}-{i}" for h, i, _ in BLOCKS])
def test_howto_code_runs_or_compiles(howto, index, block):
    if block.language == "python":
        code = compile(block.code, f"{howto}[{index}]", "exec")
        if block.runs:
            exec(code, {"__name__": "howto"})  # the block's own asserts check its result
    elif block.language == "json":
        import json

        json.loads(block.code)
    elif block.language == "bash":
        assert not block.runs  # shell blocks call networks; they are shown, not run
        assert re.search(r"\S", block.code)


def test_most_howtos_execute():
    assert sum(b.runs for _, _, b in BLOCKS if b.language == "python") >= 19


def test_a_bad_data_file_names_the_record(tmp_path):
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "terms.yaml").write_text(
        "checked: 2026-11-23\nterms:\n  - {id: x, name_zh: 甲, name_en: X, category: nonsense, definition: 這是一段夠長的定義文字用來測試資料檔錯誤, source: https://a.example, source_title: t}\n",
        encoding="utf-8",
    )
    (folder / "comparisons.yaml").write_text("comparisons: []\n", encoding="utf-8")
    (folder / "howtos.yaml").write_text("howtos: []\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"record 'x'.*category"):
        read_all(tmp_path)
