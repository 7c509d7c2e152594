"""The glossary through HTTP: every route and tool, the search a user would type, and errors."""

import pytest

pytestmark = pytest.mark.asyncio
G = "/glossary/api"


@pytest.mark.parametrize(
    ("q", "first"),
    [
        ("大语言模型", "large-language-model"),  # Simplified
        ("ＬＬＭ", "large-language-model"),  # full-width
        ("LLM", "large-language-model"),
        ("人工智能", "artificial-intelligence"),
        ("transfomer", "transformer"),  # typo
        ("檢索增強生成", "rag"),
        ("RAG", "rag"),
        ("什麼是提示注入", "prompt-injection"),
        ("数据集", "dataset"),
        ("推理", "inference"),
        ("MCP", "model-context-protocol"),
        ("function calling", "tool-use"),
    ],
)
async def test_term_by_what_people_type(client, q, first):
    r = await client.get(f"{G}/term", params={"q": q})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["term"]["id"] == first
    assert body["matched"][0]["points"] > 0
    src = body["term"]["source"]
    assert src["url"].startswith("http") and src["checked"]


async def test_term_by_id_has_related_comparisons_and_howtos(client):
    r = await client.get(f"{G}/term", params={"id": "rag"})
    body = r.json()
    assert body["term"]["name_zh"] == "檢索增強生成"
    assert {"embedding", "chunking"} <= {t["id"] for t in body["related"]}
    assert "fine-tuning-vs-rag" in body["comparisons"]
    assert "minimal-rag-pipeline" in body["howtos"]


async def test_term_errors(client):
    r = await client.get(f"{G}/term")
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "q"
    r = await client.get(f"{G}/term", params={"id": "rag", "q": "RAG"})
    assert r.status_code == 422
    r = await client.get(f"{G}/term", params={"id": "no-such-term"})
    assert r.status_code == 404 and r.json()["id"] == "no-such-term"
    r = await client.get(f"{G}/term", params={"q": "zzqqxx"})
    assert r.status_code == 404
    r = await client.get(f"{G}/term", params={"q": "x" * 201})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "q"


async def test_search_covers_terms_comparisons_howtos_with_reasons(client):
    r = await client.get(f"{G}/search", params={"q": "微调", "limit": 10})
    body = r.json()
    assert body["normalised"] == "微調"
    assert body["results"][0]["id"] == "fine-tuning"
    kinds = {h["kind"] for h in body["results"]}
    assert "term" in kinds
    scores = [h["score"] for h in body["results"]]
    assert scores == sorted(scores, reverse=True)
    for h in body["results"]:
        assert h["score"] == pytest.approx(sum(x["points"] for x in h["reasons"]), abs=1e-3)
    r = await client.get(f"{G}/search", params={"q": "餘弦相似度"})
    assert {"term", "howto"} <= {h["kind"] for h in r.json()["results"]}
    r = await client.get(f"{G}/search", params={"q": "LoRA 與全參數微調"})
    assert any(h["kind"] == "comparison" and h["id"] == "lora-vs-fine-tuning" for h in r.json()["results"][:3])
    r = await client.get(f"{G}/search", params={"q": "rag", "limit": 0})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "limit"


async def test_terms_by_category_and_topics(client):
    r = await client.get(f"{G}/terms")
    body = r.json()
    assert body["count"] >= 150 and len(body["topics"]) == 13
    assert sum(t["count"] for t in body["topics"]) == body["count"]
    assert len(body["comparisons"]) >= 30 and len(body["howtos"]) >= 20
    r = await client.get(f"{G}/terms", params={"category": "agents"})
    assert all(t["category"] == "agents" for t in r.json()["terms"])
    r = await client.get(f"{G}/terms", params={"category": "cooking"})
    assert r.status_code == 422 and "agents" in r.json()["errors"][0]["allowed"]


async def test_compare_written_and_derived(client):
    r = await client.get(f"{G}/compare", params={"id": "fine-tuning-vs-rag"})
    body = r.json()
    assert body["written"] and body["a"]["id"] == "fine-tuning" and len(body["differences"]) >= 2
    assert body["source"]["url"].startswith("https://")
    r = await client.get(f"{G}/compare", params={"a": "RAG", "b": "微调"})  # the same written one, by names
    assert r.json()["id"] == "fine-tuning-vs-rag"
    r = await client.get(f"{G}/compare", params={"a": "lora", "b": "rag"})
    body = r.json()
    assert body["written"] is False and "No comparison" in body["note"] and body["source"] is None
    assert body["a"]["id"] == "lora" and body["b"]["id"] == "rag"
    assert {d["aspect"] for d in body["differences"]} >= {"定義", "類別"}


async def test_compare_errors(client):
    assert (await client.get(f"{G}/compare")).status_code == 422
    r = await client.get(f"{G}/compare", params={"a": "lora"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "b"
    r = await client.get(f"{G}/compare", params={"id": "x", "a": "lora"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "id"
    r = await client.get(f"{G}/compare", params={"a": "LLM", "b": "大型語言模型"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "b"
    assert (await client.get(f"{G}/compare", params={"id": "nope"})).status_code == 404
    r = await client.get(f"{G}/compare", params={"a": "lora", "b": "zzqqxx"})
    assert r.status_code == 404 and r.json()["id"] == "zzqqxx"


async def test_howto(client):
    r = await client.get(f"{G}/howto", params={"id": "cosine-similarity"})
    body = r.json()
    assert body["code"][0]["language"] == "python" and "def cosine" in body["code"][0]["code"]
    assert body["terms"][0]["id"] == "cosine-similarity"
    r = await client.get(f"{G}/howto", params={"id": "nope"})
    assert r.status_code == 404 and "cosine-similarity" in r.json()["detail"]


@pytest.mark.parametrize(
    ("q", "intent", "shape"),
    [
        ("什麼是大型語言模型", "informational", "definition"),
        ("RAG", "informational", "definition"),
        ("LoRA 和 QLoRA 差別", "informational", "comparison"),
        ("fine-tuning vs rag", "commercial", "comparison"),
        ("如何實作 RAG", "informational", "how-to"),
        ("how to fine-tune llama", "informational", "how-to"),
        ("CUDA out of memory error", "informational", "troubleshooting"),
        ("推薦的向量資料庫有哪些", "commercial", "list"),
        ("best vector database", "commercial", "list"),
        ("hugging face 官網", "navigational", "definition"),
        ("chatgpt login", "navigational", "definition"),
        ("下載 llama 模型", "transactional", "definition"),
        ("openai api pricing", "transactional", "definition"),
        ("prefix tuning 是什麼", "informational", "definition"),  # 'fix' inside a word is no cue
    ],
)
async def test_intent(client, q, intent, shape):
    r = await client.get(f"{G}/intent", params={"q": q})
    body = r.json()
    assert (body["intent"], body["shape"]) == (intent, shape), body
    assert body["structure"] and body["shape_reason"] and body["intent_reason"]


async def test_cross_origin(client):
    r = await client.get(f"{G}/terms", headers={"Origin": "https://example.org"})
    assert r.headers.get("access-control-allow-origin") in ("*", "https://example.org")


async def test_a_term_says_its_citation_was_verified_and_how_its_chinese_name_was_checked(client):
    body = (await client.get(f"{G}/term", params={"id": "transformer"})).json()["term"]
    assert body["source"]["url"] == "https://arxiv.org/abs/1706.03762"
    assert body["source"]["title"].startswith("Vaswani et al. (2017)")
    cit = body["citation"]
    assert cit["verified"] is True and cit["verified_on"] == "2026-11-23"
    assert "Vaswani" in cit["evidence"] and "並非逐句比對原文" in cit["note"]
    usage = (await client.get(f"{G}/term", params={"id": "large-language-model"})).json()["term"]["name_zh_usage"]
    assert usage["checked"] is True and usage["status"] == "government"  # the TAIDE model card comes first
    assert "https://huggingface.co/taide/TAIDE-LX-7B" in {s["url"] for s in usage["sources"]}
    assert all(s["checked"] and s["usage_kind"] and s["evidence"] for s in usage["sources"])
    assert usage["sources"][0]["usage_kind"] == "government"  # strongest kind first
    unchecked = (await client.get(f"{G}/term", params={"id": "kv-cache"})).json()["term"]["name_zh_usage"]
    assert unchecked == {"status": "unverified", "checked": False, "sources": [], "note": unchecked["note"]}
    assert "unverified" in unchecked["note"] and "KV 快取" in unchecked["note"]


async def test_comparisons_howtos_and_search_hits_carry_the_citation_check(client):
    comp = (await client.get(f"{G}/compare", params={"id": "fine-tuning-vs-rag"})).json()
    assert comp["citation"]["verified"] is True
    derived = (await client.get(f"{G}/compare", params={"a": "BM25", "b": "幻覺"})).json()
    assert derived["written"] is False and derived["citation"] is None
    assert derived["a"]["citation"]["verified"] is True
    howto = (await client.get(f"{G}/howto", params={"id": "cosine-similarity"})).json()
    assert howto["citation"]["verified"] is True
    hits = (await client.get(f"{G}/search", params={"q": "LoRA"})).json()["results"]
    assert hits and all(h["citation_verified"] is True for h in hits)


@pytest.mark.parametrize(
    ("q", "first"),
    [
        ("過擬合", "overfitting"),
        ("向量数据库", "vector-database"),
        ("lora微調", "lora"),
        ("提示詞工程", "prompt-engineering"),
        ("ＲＡＧ是什麼", "rag"),
        ("幻觉", "hallucination"),
        ("embeding", "embedding"),  # typo
    ],
)
async def test_more_queries_people_type(client, q, first):
    r = await client.get(f"{G}/term", params={"q": q})
    assert r.status_code == 200, r.text
    assert r.json()["term"]["id"] == first


async def test_term_listing_follows_a_change_to_the_store(client):
    """The full listing is kept between requests (built once per catalogue): a change imported
    into the store shows in the next listing, and the old name is gone from it."""
    from sqlalchemy import update

    from twlookup.platform.store.seed import ingest
    from twlookup.services.glossary.tables import TermRow

    def listed() -> dict[str, str]:
        return {t["id"]: t["name_zh"] for t in client_terms}

    client_terms = (await client.get(f"{G}/terms")).json()["terms"]
    before = listed()["rag"]
    category = next(t["category"] for t in client_terms if t["id"] == "rag")
    assert (await client.get(f"{G}/terms", params={"category": category})).status_code == 200  # kept too
    assert before == "檢索增強生成"

    def rename(session, _path, name):
        session.execute(update(TermRow).where(TermRow.id == "rag").values(name_zh=name))
        return 1

    try:
        ingest(lambda s, p: rename(s, p, "檢索強化生成"), None)
        client_terms = (await client.get(f"{G}/terms")).json()["terms"]
        assert listed()["rag"] == "檢索強化生成"
        same = (await client.get(f"{G}/terms", params={"category": category})).json()["terms"]
        assert {t["id"]: t["name_zh"] for t in same}["rag"] == "檢索強化生成"
    finally:
        ingest(lambda s, p: rename(s, p, before), None)
    client_terms = (await client.get(f"{G}/terms")).json()["terms"]
    assert listed()["rag"] == before
