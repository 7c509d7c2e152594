"""The shared search module: normalisation, tokens and a ranking that explains itself."""

import pytest

from twlookup.domain import search


def test_normalise_folds_full_width_and_simplified():
    assert search.normalise("ＬＬＭ　１２３") == "llm 123"
    assert search.normalise("人工智能") == "人工智慧"
    assert search.normalise("数据集") == "資料集"
    assert search.normalise("大语言模型") == "大型語言模型"  # s2twp alone gives 大語言模型
    assert search.normalise("损失函数") == "損失函數"
    assert search.compact("Large  Language-Model!") == "largelanguagemodel"


def test_tokens_have_words_and_bigrams():
    toks = search.tokens("大型語言模型的推論 GPU")
    assert "gpu" in toks and "推論" in toks and "語言" in toks


DOCS = [
    search.Document(
        "llm", {"name_zh": ["大型語言模型"], "name_en": ["Large language model"], "alias": ["LLM"]}, "以大量文字預訓練"
    ),
    search.Document("transformer", {"name_zh": ["Transformer 架構"], "name_en": ["Transformer"]}, "以注意力機制為核心"),
    search.Document("vit", {"name_zh": ["視覺 Transformer"], "name_en": ["Vision Transformer"]}, "影像切成區塊"),
    search.Document("dataset", {"name_zh": ["資料集"], "name_en": ["Dataset"]}, "蒐集整理好的資料"),
]


@pytest.fixture(scope="module")
def index():
    return search.Index(DOCS)


@pytest.mark.parametrize(
    ("query", "first", "kind"),
    [
        ("大语言模型", "llm", "exact"),  # Simplified input
        ("ＬＬＭ", "llm", "exact"),  # full-width
        ("llm", "llm", "exact"),
        ("什麼是大型語言模型？", "llm", "name-in-query"),
        ("transfomer", "transformer", "fuzzy"),  # typo
        ("Transformer", "transformer", "exact"),
        ("数据集", "dataset", "exact"),
        ("large language", "llm", "query-in-name"),
    ],
)
def test_first_result(index, query, first, kind):
    hits = index.search(query)
    assert hits[0].key == first
    assert hits[0].reasons[0].kind == kind
    assert hits[0].score == pytest.approx(sum(r.points for r in hits[0].reasons))


def test_scores_are_the_documented_formula(index):
    hit = index.search("什麼是大型語言模型")[0]
    name = hit.reasons[0]
    # 0.80 + 0.15 x len("大型語言模型") / len("什麼是大型語言模型")
    assert name.points == pytest.approx(0.80 + 0.15 * 6 / 9, abs=1e-4)
    exact = index.search("LLM")[0]
    assert exact.score > hit.score  # an exact name outranks a name inside a longer query


def test_body_text_only_match_and_no_match(index):
    hits = index.search("注意力")
    assert hits[0].key == "transformer" and [r.kind for r in hits[0].reasons] == ["text"]
    assert index.search("完全無關的字 xyzzy") == []
    assert index.search("   ") == []
