"""Example inputs of the models service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "get_model": {"id": "gpt-4o"},
    "find_replacement": {"q": "gpt-4-0613"},
    "retirement_calendar": {"month": "2027-01"},
    "check_code": {"text": "gpt-4o"},
}
PRO_CALLS = {
    "/api/pro/audit": {"json": {"ids": ["gpt-4-0613", "claude-2.1", "no-such-model"]}},
    "/api/pro/export": {},
}
