"""Issue 22, glossary depth: at least 400 terms; every term carries its source and check date and
the evidence status of its Taiwan name in lists, details, search and MCP; the status values are the
ones docs/services/glossary.md lists and agree with the usage sources; searches by Taiwan, mainland
and English names, abbreviations, aliases and misspellings find a hand-picked sample of new terms."""

import re
from datetime import date
from pathlib import Path
from typing import get_args

import pytest
from yaml_files import load_yaml

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.records import DataFileError
from twlookup.services.glossary.data import read_all
from twlookup.services.glossary.records import USAGE_KINDS, TaiwanUsage

G = "/glossary/api"
DATA = read_all(DEFAULT_DATA)
TERMS = {t.id: t for t in DATA.terms}
STATUSES = set(get_args(TaiwanUsage))
DOC = (Path(__file__).parents[3] / "docs" / "services" / "glossary.md").read_text(encoding="utf-8")


def test_at_least_400_terms_in_every_category():
    assert len(DATA.terms) >= 400
    per_category: dict[str, int] = {}
    for t in DATA.terms:
        per_category[t.category] = per_category.get(t.category, 0) + 1
    assert len(per_category) == 13 and min(per_category.values()) >= 14, per_category


def test_the_documented_status_values_are_the_records():
    start = DOC.index("`taiwan_usage` values:")
    listed = DOC[start : DOC.index("`unverified`", start) + len("`unverified`")]
    assert set(re.findall(r"`([a-z-]+)`", listed)) - {"taiwan_usage"} == STATUSES
    assert set(USAGE_KINDS) | {"unverified"} == STATUSES


def test_every_status_agrees_with_the_usage_sources():
    for t in DATA.terms:
        kinds = {
            u.usage_kind for u in DATA.usage if "".join(t.name_zh.split()) in {"".join(n.split()) for n in u.names}
        }
        strongest = next((k for k in USAGE_KINDS if k in kinds), "unverified")
        assert t.taiwan_usage == strongest, t.id
    attested = [t for t in DATA.terms if t.taiwan_usage != "unverified"]
    assert len(attested) >= 60  # as read on 2026-11-26; the rest say unverified
    for u in DATA.usage:
        assert u.url.startswith("http") and u.checked <= date(2026, 11, 26) and len(u.evidence) >= 10


def _copy(tmp_path: Path, edit) -> Path:
    folder = tmp_path / "glossary"
    folder.mkdir()
    for name in ("terms.yaml", "sources.yaml", "comparisons.yaml", "howtos.yaml"):
        text = (DEFAULT_DATA / "glossary" / name).read_text(encoding="utf-8")
        (folder / name).write_text(edit(name, text), encoding="utf-8")
    return tmp_path


def test_a_status_the_sources_do_not_bear_out_is_refused(tmp_path):
    """kv-cache (KV 快取) has no Taiwan source: claiming one fails the seed, naming the term."""

    def claim(name: str, text: str) -> str:
        if name != "terms.yaml":
            return text
        start = text.index("  - id: kv-cache\n")
        end = text.index("\n  - id: ", start + 5)
        return (
            text[:start] + text[start:end].replace("taiwan_usage: unverified", "taiwan_usage: government") + text[end:]
        )

    with pytest.raises(DataFileError, match=r"record 'kv-cache': taiwan_usage is 'government'.*'unverified'"):
        read_all(_copy(tmp_path, claim))


def test_a_usage_source_naming_no_glossary_name_is_refused(tmp_path):
    def stray(name: str, text: str) -> str:
        return (
            text.replace("names: [模型上下文協定, AI 代理, 檢索增強生成]", "names: [模型上下文協定, 萬能轉接頭]")
            if name == "sources.yaml"
            else text
        )

    with pytest.raises(DataFileError, match=r"names \['萬能轉接頭'\] are no term's name or alias"):
        read_all(_copy(tmp_path, stray))


def _sourced(item: dict) -> None:
    src = item["source"]
    assert src and src["url"].startswith("http") and date.fromisoformat(src["checked"]), item["id"]


async def test_every_term_in_the_list_and_its_detail(client):
    body = (await client.get(f"{G}/terms")).json()
    assert body["count"] == len(DATA.terms) >= 400
    for item in body["terms"]:
        _sourced(item)
        assert item["taiwan_usage"] == TERMS[item["id"]].taiwan_usage in STATUSES
    for t in DATA.terms:
        term = (await client.get(f"{G}/term", params={"id": t.id})).json()["term"]
        _sourced(term)
        usage = term["name_zh_usage"]
        assert usage["status"] == t.taiwan_usage and usage["checked"] == (t.taiwan_usage != "unverified"), t.id
        if usage["checked"]:
            assert usage["sources"][0]["usage_kind"] == t.taiwan_usage
            assert all(s["url"].startswith("http") and date.fromisoformat(s["checked"]) for s in usage["sources"])


async def test_every_term_found_by_its_english_name_carries_source_and_status(client):
    for t in DATA.terms:
        body = (await client.get(f"{G}/search", params={"q": t.name_en, "limit": 10})).json()
        hit = next((h for h in body["results"] if h["kind"] == "term" and h["id"] == t.id), None)
        assert hit is not None, t.id
        _sourced(hit)
        assert hit["taiwan_usage"] == t.taiwan_usage
    body = (await client.get(f"{G}/search", params={"q": "RAG 與微調", "limit": 20})).json()
    assert all(h["taiwan_usage"] is None for h in body["results"] if h["kind"] != "term")


async def _mcp(client, name: str, arguments: dict) -> dict:
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    r = await client.post("/glossary/mcp", json=call, headers={"Accept": "application/json, text/event-stream"})
    result = r.json()["result"]
    assert result["isError"] is False, result
    return result["structuredContent"]


async def test_mcp_lists_every_term_with_source_and_status(client):
    listed = (await _mcp(client, "list_topics", {}))["terms"]
    assert {t["id"] for t in listed} == set(TERMS)
    for item in listed:
        _sourced(item)
        assert item["taiwan_usage"] in STATUSES
    for tid in ("support-vector-machine", "model-context-protocol", "differential-privacy", "kv-cache"):
        term = (await _mcp(client, "explain_term", {"id": tid}))["term"]
        _sourced(term)
        assert term["name_zh_usage"]["status"] == TERMS[tid].taiwan_usage
    hits = (await _mcp(client, "search_glossary", {"q": "GQA"}))["results"]
    assert hits[0]["id"] == "grouped-query-attention" and hits[0]["source"]["checked"]


@pytest.mark.parametrize(
    ("q", "expected", "field"),
    [
        ("支援向量機", "support-vector-machine", "name_zh"),  # Taiwan names
        ("單純貝氏分類器", "naive-bayes", "name_zh"),
        ("模型上下文協定", "model-context-protocol", "name_zh"),
        ("知識截止", "knowledge-cutoff", "name_zh"),
        ("支持向量机", "support-vector-machine", "mainland"),  # mainland names
        ("朴素贝叶斯", "naive-bayes", "mainland"),
        ("数据挖掘", "data-mining", "name_zh"),  # folded to the Taiwan spelling first
        ("显存", "vram", "mainland"),
        ("Proximal policy optimization", "ppo", "name_en"),  # English names
        ("Named entity recognition", "named-entity-recognition", "name_en"),
        ("PPO", "ppo", "id"),  # abbreviations (this one is also the id)
        ("NER", "named-entity-recognition", "abbreviation"),
        ("IoU", "intersection-over-union", "abbreviation"),
        ("MRR", "mean-reciprocal-rank", "abbreviation"),
        ("模型剪枝", "pruning", "alias"),  # aliases, including names renamed after Taiwan evidence
        ("知識截止日期", "knowledge-cutoff", "alias"),
        ("巨量資料", "big-data", "name_zh"),
        ("大數據", "big-data", "mainland"),  # an alias that is also the mainland name, folded alike
        ("support vecter machine", "support-vector-machine", "misspelling"),  # misspellings
        ("k nearest neighbour", "k-nearest-neighbors", "misspelling"),
    ],
)
async def test_search_finds_new_terms_by_every_kind_of_name(client, q, expected, field):
    body = (await client.get(f"{G}/search", params={"q": q, "limit": 5})).json()
    first = body["results"][0]
    assert (first["kind"], first["id"]) == ("term", expected), body["results"][:3]
    kinds = {(r["kind"], r["field"]) for r in first["reasons"]}
    fields = {field, "id"} if field == "name_en" else {field}
    assert any(kind == "exact" and f in fields for kind, f in kinds), first["reasons"]


def test_no_new_name_is_another_terms_name():
    """A new term's names find only it: the aliases they replaced left the older terms."""
    seen: dict[str, str] = {}
    for t in DATA.terms:
        for name in [t.name_zh, t.name_en, *t.aliases, *t.abbreviations, *t.misspellings]:
            key = "".join(name.lower().split())
            assert seen.setdefault(key, t.id) == t.id, (name, seen[key], t.id)


def test_data_file_says_unverified_where_nothing_was_found():
    doc = load_yaml((DEFAULT_DATA / "glossary" / "terms.yaml").read_text(encoding="utf-8"))
    assert all(t.get("taiwan_usage") for t in doc["terms"])  # stated in the file for every term
    assert sum(t["taiwan_usage"] == "unverified" for t in doc["terms"]) > 0
