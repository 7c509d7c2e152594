"""Example inputs of the glossary service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "explain_term": {"q": "大语言模型"},
    "search_glossary": {"q": "transfomer"},
    "compare_concepts": {"a": "lora", "b": "rag"},
    "get_howto": {"id": "cosine-similarity"},
    "classify_search_intent": {"q": "LoRA 和 QLoRA 差別"},
}
PRO_CALLS = {
    "/api/pro/explain-batch": {"json": {"terms": ["LLM", "RAG", "no-such-term"]}},
    "/api/pro/export": {},
}
# term needs id or q; compare needs id, or a and b: rules no JSON schema states
CROSS_PARAMETER_RULES = {"/api/term", "/api/compare"}
