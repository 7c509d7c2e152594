"""Example inputs of the life service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "get_holidays": {"year": 2026},
    "is_holiday": {"date": "2026-10-09"},
    "get_lottery_results": {"game": "superlotto638"},
    "check_lottery": {"game": "lotto649", "numbers": "5,7,9,14,17,47"},
    "get_invoice_numbers": {"period": "114-11-12"},
    "check_invoice": {"number": "00507588", "period": "114-11-12"},
}
PRO_CALLS = {
    "/api/pro/fuel/history": {"params": {"product": "diesel"}},
    "/api/pro/invoice/check-batch": {
        "json": {"receipts": [{"number": "97023797", "period": "114-11-12"}, {"number": "12345678"}]}
    },
}
CROSS_PARAMETER_RULES = {
    "/api/holidays",  # year must be one the official calendar covers
    "/api/is-holiday",  # the date's year must be one the official calendar covers
    "/api/lottery/check",  # count, range and repeats of the picks, `second` only for superlotto638
}
