"""Example inputs of the wellness service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "check_telehealth_eligibility": {"situation": "post-acute-care"},
    "score_mood_thermometer": {"answers": [1, 2, 0, 3, 1], "suicidal": 0},
    "score_phq9": {"answers": [1, 1, 0, 2, 0, 1, 0, 0, 0]},
    "score_gad7": {"answers": [0, 1, 1, 2, 0, 0, 1]},
    "calc_sleep_times": {"wake": "07:00"},
}
PRO_CALLS = {
    "/api/pro/export": {},
}
CROSS_PARAMETER_RULES = {
    "/api/sleep",  # exactly one of wake and bedtime
}
