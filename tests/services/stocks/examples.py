"""Example inputs of the stocks service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "get_theme_stocks": {"theme": "cpo"},
    "get_stock": {"code": "2382"},
    "estimate_etf_dividend_2027": {"code": "0056"},
}
PRO_CALLS = {
    "/api/pro/history": {"params": {"code": "0056", "days": 30}},
    "/api/pro/income-plan": {"params": {"budget": 300000, "codes": "0056,00878,00713"}},
    "/api/pro/export": {},
}
CROSS_PARAMETER_RULES = {
    "/api/pro/income-plan",  # codes: known ETFs only, no repeats, at most 10
}
