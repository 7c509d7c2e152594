"""The glossary's content: counts the issue asks for, Taiwan usage, a source per item, and every
how-to code block executed (Python, runs: true) or compiled (Python that needs a network)."""

import re

import pytest

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.records import DataFileError
from twlookup.services.glossary.data import read_all

TERMS, COMPARISONS, HOWTOS, CITATIONS, USAGE = read_all(DEFAULT_DATA)


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
    (folder / "sources.yaml").write_text("citations:\n  - {url: https://a.example, title: A title}\n", encoding="utf-8")
    (folder / "terms.yaml").write_text(
        "checked: 2026-11-23\nterms:\n  - {id: x, name_zh: 甲, name_en: X, category: nonsense, definition: 這是一段夠長的定義文字用來測試資料檔錯誤, source: https://a.example}\n",
        encoding="utf-8",
    )
    (folder / "comparisons.yaml").write_text("comparisons: []\n", encoding="utf-8")
    (folder / "howtos.yaml").write_text("howtos: []\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"record 'x'.*category"):
        read_all(tmp_path)


def _folder(tmp_path, sources: str, term_source: str, extra: str = "") -> None:
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "sources.yaml").write_text(sources, encoding="utf-8")
    (folder / "terms.yaml").write_text(
        "checked: 2026-11-23\nterms:\n  - {id: x, name_zh: 甲, name_en: X, category: basics, taiwan_usage: unverified, "
        f"definition: 這是一段夠長的定義文字用來測試資料檔錯誤, source: {term_source}{extra}}}\n",
        encoding="utf-8",
    )
    (folder / "comparisons.yaml").write_text("comparisons: []\n", encoding="utf-8")
    (folder / "howtos.yaml").write_text("howtos: []\n", encoding="utf-8")


def test_a_source_missing_from_the_registry_is_refused(tmp_path):
    _folder(tmp_path, "citations:\n  - {url: https://a.example, title: A title}\n", "https://b.example")
    with pytest.raises(DataFileError, match=r"record 'x': source 'https://b.example' is not in sources.yaml"):
        read_all(tmp_path)


def test_a_title_that_differs_from_the_registry_is_refused(tmp_path):
    _folder(
        tmp_path,
        "citations:\n  - {url: https://a.example, title: A title}\n",
        "https://a.example",
        ", source_title: Other",
    )
    with pytest.raises(DataFileError, match=r"source_title differs"):
        read_all(tmp_path)


def test_an_unused_citation_is_refused(tmp_path):
    _folder(
        tmp_path,
        "citations:\n  - {url: https://a.example, title: A title}\n  - {url: https://c.example, title: C title}\n",
        "https://a.example",
    )
    with pytest.raises(DataFileError, match=r"citations no item cites: \['https://c.example'\]"):
        read_all(tmp_path)


def test_items_take_their_title_from_the_registry(tmp_path):
    _folder(tmp_path, "citations:\n  - {url: https://a.example, title: A title}\n", "https://a.example")
    data = read_all(tmp_path)
    assert data.terms[0].source_title == "A title"
    assert data.citations[0].verified is None


# --- the citations themselves -----------------------------------------------------------------

ARXIV = re.compile(r"^https://arxiv\.org/abs/(\d{2})(\d{2})\.\d{4,5}$")


def test_every_citation_was_verified_with_evidence():
    assert len(CITATIONS) == len({t.source for t in [*TERMS, *COMPARISONS, *HOWTOS]})
    for c in CITATIONS:
        assert c.verified is not None and c.evidence, c.url


def test_arxiv_titles_carry_the_year_of_the_identifier():
    """An arXiv id starts with the year and month it was submitted (YYMM): the year in the title of
    an arXiv citation must be that year, e.g. 1706.03762 is 2017."""
    checked = 0
    for c in CITATIONS:
        m = ARXIV.match(c.url)
        if m:
            assert f"({2000 + int(m.group(1))})" in c.title, (c.url, c.title)
            assert 1 <= int(m.group(2)) <= 12
            checked += 1
    assert checked >= 50


def test_known_citations_as_published():
    by_url = {c.url: c for c in CITATIONS}
    assert by_url["https://arxiv.org/abs/1706.03762"].title.startswith(
        "Vaswani et al. (2017), Attention Is All You Need"
    )
    assert "Cache strategies" in by_url["https://huggingface.co/docs/transformers/kv_cache"].title
    assert "2025" in by_url["https://genai.owasp.org/llm-top-10/"].title
    assert "(2015)" in by_url["https://arxiv.org/abs/1508.07909"].title  # arXiv year; ACL 2016


def test_taiwan_usage_sources_show_the_names_the_glossary_uses():
    names = {"".join(n.split()) for t in TERMS for n in [t.name_zh, *t.aliases]}
    shown = {"".join(n.split()) for u in USAGE for n in u.names}
    for required in ("人工智慧", "大型語言模型", "資料集", "機器學習", "模型上下文協定", "差分隱私"):
        assert required in shown
    assert shown <= names, shown - names


def test_an_unverified_citation_is_answered_as_such():
    from twlookup.services.glossary.logic import Catalog
    from twlookup.services.glossary.operations import citation_check, term_out
    from twlookup.services.glossary.records import CitedSource

    term = TERMS[0]
    catalog = Catalog(
        terms={term.id: term},
        comparisons={},
        howtos={},
        citations={term.source: CitedSource(url=term.source, title=term.source_title or "t")},
    )
    out = term_out(term, catalog)
    assert out.citation.verified is False and out.citation.verified_on is None
    assert "尚未對照存檔副本核對" in out.citation.note
    assert citation_check("https://unregistered.example", catalog).verified is False
    assert out.name_zh_usage.checked is False  # no usage sources in this catalog
