"""Issue 22, glossary: every term in every answer carries its source and check date; search finds a
term by its Taiwan, mainland and English names, abbreviations and misspellings, as whole words;
the two definitions the review found wrong (logits, token) say what the cited sources say."""

from datetime import date

import pytest
from yaml_files import load_yaml

from twlookup.cli import DEFAULT_DATA
from twlookup.services.glossary import operations
from twlookup.services.glossary.data import read_all
from twlookup.services.glossary.logic import Catalog
from twlookup.services.glossary.records import Term

G = "/glossary/api"
DATA = read_all(DEFAULT_DATA)
CATALOG = Catalog({t.id: t for t in DATA.terms}, {c.id: c for c in DATA.comparisons}, {h.id: h for h in DATA.howtos})


def _assert_sourced(brief: dict) -> None:
    src = brief["source"]
    assert src is not None, brief["id"]
    assert src["url"].startswith("http") and date.fromisoformat(src["checked"]), brief["id"]


def test_terms_lacking_a_source_in_the_data_are_counted():
    """How many term records lack a source or a check date in the data file itself (before file
    defaults): none lacks a source; the check date comes from the file's `checked` where a term
    gives none."""
    doc = load_yaml((DEFAULT_DATA / "glossary" / "terms.yaml").read_text(encoding="utf-8"))
    lacking_source = [t["id"] for t in doc["terms"] if not t.get("source")]
    own_date = [t["id"] for t in doc["terms"] if t.get("checked")]
    assert lacking_source == []
    assert doc["checked"] and len(own_date) >= 5  # the terms added or corrected on 2026-11-26


def test_a_term_without_a_source_is_answered_with_null_not_a_borrowed_one():
    bare = Term.model_construct(**{**DATA.terms[0].model_dump(), "source": ""})
    brief = operations.brief(bare, CATALOG)
    assert brief.source is None and brief.citation_verified is False


@pytest.mark.asyncio
@pytest.mark.parametrize("category", [None, "llm", "vision"])
async def test_term_lists_carry_source_and_checked_date(client, category):
    r = await client.get(f"{G}/terms", params={"category": category} if category else {})
    assert r.status_code == 200, r.text
    terms = r.json()["terms"]
    assert terms
    for t in terms:
        _assert_sourced(t)
        assert isinstance(t["citation_verified"], bool)


@pytest.mark.asyncio
async def test_details_search_and_mcp_carry_sources(client):
    body = (await client.get(f"{G}/term", params={"id": "rag"})).json()
    _assert_sourced(body["term"])
    for t in body["related"]:
        _assert_sourced(t)
    for hit in (await client.get(f"{G}/search", params={"q": "模型", "limit": 20})).json()["results"]:
        assert hit["source"]["url"].startswith("http") and hit["source"]["checked"]
    howto = (await client.get(f"{G}/howto", params={"id": "minimal-rag-pipeline"})).json()
    for t in howto["terms"]:
        _assert_sourced(t)


@pytest.mark.asyncio
async def test_mcp_list_topics_carries_sources(client):
    call = {"name": "list_topics", "arguments": {"category": "vision"}}
    r = await client.post(
        "/glossary/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call},
        headers={"Accept": "application/json, text/event-stream"},
    )
    result = r.json()["result"]
    assert result["isError"] is False
    terms = result["structuredContent"]["terms"]
    assert terms
    for t in terms:
        _assert_sourced(t)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("q", "expected", "field"),
    [
        ("自然語言處理", "natural-language-processing", "name_zh"),  # Taiwan name
        ("自然语言处理", "natural-language-processing", None),  # mainland name (folded or matched)
        ("Natural language processing", "natural-language-processing", "name_en"),
        ("NLP", "natural-language-processing", "abbreviation"),
        ("natural langauge processing", "natural-language-processing", "misspelling"),
        ("電腦視覺", "computer-vision", "name_zh"),
        ("计算机视觉", "computer-vision", "mainland"),
        ("computer vision", "computer-vision", "name_en"),
        ("computer vison", "computer-vision", "misspelling"),
        ("語音辨識", "speech-recognition", "name_zh"),
        ("语音识别", "speech-recognition", None),
        ("speech recognition", "speech-recognition", "name_en"),
        ("ASR", "speech-recognition", "abbreviation"),
        ("speach recognition", "speech-recognition", "misspelling"),
    ],
)
async def test_search_finds_by_every_kind_of_name(client, q, expected, field):
    body = (await client.get(f"{G}/search", params={"q": q, "limit": 5})).json()
    first = body["results"][0]
    assert (first["kind"], first["id"]) == ("term", expected), body["results"][:2]
    if field:
        # an English name equals the id once spaces and hyphens are dropped: either field may say so
        fields = {field, "id"} if field == "name_en" else {field}
        assert first["reasons"][0]["kind"] == "exact" and first["reasons"][0]["field"] in fields
    detail = (await client.get(f"{G}/term", params={"q": q})).json()
    assert detail["term"]["id"] == expected


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("q", "expected", "not_inside"),
    [
        # RM (reward model) is inside TransfoRMer, NoRMalization, RMSNorm as letters, not as a word
        ("RM", "reward-model", {"transformer", "normalization", "layer-normalization", "batch-normalization"}),
        # AI is inside TrAIning, GuardrAIls, JAIlbreak ("AI fairness", an alias of fairness, holds it as a word)
        ("AI", "artificial-intelligence", {"training", "guardrails", "pre-training", "jailbreak"}),
        # ViT is inside sensitiVITy (an alias of recall)
        ("ViT", "vision-transformer", {"recall"}),
    ],
)
async def test_short_aliases_match_whole_words_only(client, q, expected, not_inside):
    body = (await client.get(f"{G}/search", params={"q": q, "limit": 50})).json()
    hits = {h["id"]: h for h in body["results"] if h["kind"] == "term"}
    assert body["results"][0]["id"] == expected
    for tid in not_inside:  # the word may be in a definition (a text match), never matched inside a name
        if tid in hits:
            assert {r["kind"] for r in hits[tid]["reasons"]} == {"text"}, hits[tid]["reasons"]


def test_new_terms_have_taiwan_usage_evidence():
    for name in ["自然語言處理", "電腦視覺", "語音辨識"]:
        found = CATALOG.usage_of(name) or [u for u in DATA.usage if name in u.names]
        assert found and all(u.url.startswith("https://") and u.checked == date(2026, 11, 26) for u in found)


def test_logits_named_and_defined_as_unnormalised_scores():
    t = {t.id: t for t in DATA.terms}["logits"]
    assert "對數機率" not in t.name_zh  # log-probabilities is what they are not
    assert "未正規化" in t.name_zh and "softmax" in t.definition and "不是對數機率" in t.definition
    assert t.source == "https://www.tensorflow.org/api_docs/python/tf/raw_ops/LogSoftmax"
    assert t.checked == date(2026, 11, 26)


def test_token_characters_for_chinese_are_tokenizer_dependent():
    t = {t.id: t for t in DATA.terms}["token"]
    assert "一到兩個字一個詞元" not in t.definition  # the review's wrong claim
    assert "0.6" in t.definition and "分詞器" in t.definition
    assert t.source == "https://platform.deepseek.com/api-docs/quick_start/token_usage"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("SGD", "stochastic-gradient-descent"),  # was an alias of gradient-descent, which tied and won by id
        ("ReLU", "relu"),  # was an alias of activation-function
        ("逻辑回归", "logistic-regression"),
        ("kmeans", "k-means"),
        ("sigmod", "sigmoid-function"),
        ("dense layer", "fully-connected-layer"),
    ],
)
async def test_added_terms_are_found_first(client, q, expected):
    body = (await client.get(f"{G}/search", params={"q": q, "limit": 3})).json()
    assert body["results"][0]["id"] == expected, body["results"]


def test_name_kinds_are_recorded_apart():
    """Simplified-script names sit in `mainland` (not mixed into aliases), so an answer can say which
    kind of name matched; counts as of 2026-11-26."""
    terms = DATA.terms
    assert len(terms) >= 208
    assert sum(1 for t in terms if t.mainland) >= 100
    assert sum(1 for t in terms if t.abbreviations) >= 14
    assert sum(1 for t in terms if t.misspellings) >= 8
    from twlookup.domain.search import _S2T

    for t in terms:
        for alias in t.aliases:
            assert not any(_S2T.get(ord(ch), ch) != ch for ch in alias), (t.id, alias)
