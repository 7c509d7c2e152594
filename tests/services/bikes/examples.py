"""Example inputs of the bikes service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "search_models": {"q": "yamaha"},
    "get_model_specs": {"slug": "yamaha-rd350lc-1980"},
    "find_part": {"q": "BR9ECM"},
    "get_maintenance": {"slug": "aprilia-rs250-2000"},
}
PRO_CALLS = {"/api/pro/export": {}}
# Operator routes need a token (401 without; documented). A contribution names a model that must
# exist (404) and the same contribution twice is a duplicate (409).
CROSS_PARAMETER_RULES = {"/api/review/queue", "/api/review/decide", "/api/contribute"}
