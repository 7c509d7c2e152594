"""Example inputs of the price service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "search_products": {"q": "甘藍"},
    "get_product_price": {"id": "LA1"},
    "list_price_drops": {"cat": "vegetables"},
}
# Both paid routes have a path parameter: PRO_PATHS gives the concrete path to request for each
# declared one (the e2e x402 test requests the declared path as it is; see the service's report).
PRO_CALLS = {
    "/api/pro/history/{id}": {},
    "/api/pro/export/{slug}": {},
}
PRO_PATHS = {
    "/api/pro/history/{id}": "/api/pro/history/LA1",
    "/api/pro/export/{slug}": "/api/pro/export/vegetables",
}
