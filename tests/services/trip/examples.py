"""Example inputs of the trip service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "convert_currency": {"amount": 10000, "cur": "JPY", "direction": "buy", "type": "cash"},
    "entry_requirements": {"country": "JP"},
    "esim_estimate": {"days": 5, "usage": "moderate"},
    "destination_info": {"id": "tokyo"},
}
PRO_CALLS = {
    "/api/pro/trip-pack": {"params": {"place": "tokyo", "days": 5, "budget_twd": 20000}},
    "/api/pro/export": {},
}
CROSS_PARAMETER_RULES = {
    "/api/fx/convert",  # type: the bank posts no cash (or spot) rate for some currencies
}
