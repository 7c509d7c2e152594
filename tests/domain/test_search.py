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


def test_names_match_as_whole_words():
    idx = search.Index(
        [
            search.Document("storage", {"name_en": ["Object storage"]}),
            search.Document("vs", {"id": ["fine-tuning-vs-rag"]}),
            search.Document("tokenizer", {"name_en": ["Tokenizer"]}),
        ]
    )
    assert [h.key for h in idx.search("rag")] == ["vs"]  # not inside "storage"
    assert idx.search("token") == []  # not inside "tokenizer" (and too far for a typo)
    assert idx.search("object")[0].reasons[0].kind == "query-in-name"


def test_a_name_field_weight_scales_its_points():
    idx = search.Index(
        [
            search.Document("a", {"abbreviation": ["RAG"]}, weights={"abbreviation": 0.5}),
            search.Document("b", {"name_en": ["RAG"]}),
        ]
    )
    hits = idx.search("rag")
    assert [h.key for h in hits] == ["b", "a"]
    assert hits[1].reasons[0].points == pytest.approx(0.5)


def test_a_query_loads_neither_a_segmenter_nor_opencc():
    """Answering a Simplified query needs only the generated tables (issue 24: 1 s and 120 MB before)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from twlookup.domain import search\n"
        "idx = search.Index([search.Document('llm', {'name_zh': ['大型語言模型']}, '以大量文字預訓練')])\n"
        "assert idx.search('大语言模型')[0].key == 'llm'\n"
        "assert search.normalise('人工智能') == '人工智慧'\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('opencc', 'jieba')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_character_table_is_opencc_s2tw():
    import opencc

    from twlookup.domain.script_tables import CHARACTER_PAIRS

    pairs = "".join(CHARACTER_PAIRS)
    table = {pairs[i]: pairs[i + 1] for i in range(0, len(pairs), 2)}
    s2tw = opencc.OpenCC("s2tw")
    assert len(table) > 2000
    for simplified in "们这说时为发经对学习数据网络计算机软件语言模型":
        assert table.get(simplified, simplified) == s2tw.convert(simplified)


def test_every_glossary_name_is_found_by_its_simplified_spelling(db_url):
    """The phrase table covers the data: a stale table (names added without running
    `python -m twlookup.domain.script_tables_build`) fails here. Searched as the service does,
    through the seeded store's index (a third of the time of ranking every term in memory for
    each of the some 1,500 names)."""
    import opencc

    from twlookup.bundled import data_dir
    from twlookup.platform.store import engine as store_engine
    from twlookup.services.glossary.data import read_all
    from twlookup.services.glossary.logic import COLLECTIONS, TERMS, Catalog

    store_engine.configure(db_url)
    data = read_all(data_dir())
    catalog = Catalog(
        {t.id: t for t in data.terms}, {}, {}, searchers=(search.Stored(TERMS), search.Stored(*COLLECTIONS))
    )
    tw2sp = opencc.OpenCC("tw2sp")
    missed = []
    for term in data.terms:
        for name in [term.name_zh, *term.aliases]:
            found = catalog.find_term(tw2sp.convert(name))
            if found is None or found[0].id != term.id:
                missed.append((term.id, name, tw2sp.convert(name), found and found[0].id))
    assert missed == []
