"""Example inputs of the opinions service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "search_human_opinions": {"q": "kindle"},
    "get_topic_opinions": {"slug": "e-readers"},
    "check_ai_text": {"text": "As an AI language model, I hope this helps."},
}
PRO_CALLS = {
    "/api/pro/digest": {"params": {"q": "headphones"}},
    "/api/pro/export": {},
}
# The shipped store has no Taiwan post (none has been received from an author): get_taiwan_post
# answers 404 naming the id until one is.
TOOLS_EMPTY_BY_DESIGN = {"get_taiwan_post"}
TOOL_ARGS["get_taiwan_post"] = {"id": 1}
