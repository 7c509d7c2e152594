"""Example inputs of the creator service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "check_ad_claims": {"text": "這款面霜能抗過敏、燃燒脂肪", "category": "cosmetic"},
    "calc_group_buy_profit": {"price": 500, "cost": 250, "platform": "own-site", "commission": 10, "ship": 60},
    "check_tax_registration": {"monthly": 120000, "type": "goods"},
    "calc_creator_withholding": {"amount": 50000, "kind": "professional-fee"},
    "lookup_supplier_company": {"ban": "22099131"},
    "listing_checklist": {"categories": "food,cosmetic"},
}
_REVIEW = {
    "copy": "排毒又能降血壓",
    "categories": "food",
    "price": 500,
    "cost": 250,
    "monthly_sales": 120000,
    "supplier_ban": "22099131",
}
PRO_CALLS = {
    # declared twice (GET and POST): each reads its own half
    "/api/pro/campaign-review": {"params": _REVIEW, "json": _REVIEW},
    "/api/pro/export": {},
}
CROSS_PARAMETER_RULES = {
    "/api/profit",  # platform=custom needs fee_rate; all rates together below 100%
    "/api/company",  # exactly one of ban or name
    "/api/withholding",  # the minimum wage is known from 2026-01-01
    "/api/tax-check",  # thresholds are known from 2023-01-01
    "/api/pro/campaign-review",  # copy needs categories
}
