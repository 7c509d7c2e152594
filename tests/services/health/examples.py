"""Example inputs of the health service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "check_meal_cancer_risk": {"meal": "香腸炒飯 and a beer"},
    "check_cancer_screening_eligibility": {"age": 50, "sex": "female", "smoker": "never"},
    "check_home_blood_pressure": {"readings": "128/82,135/85"},
    "check_blood_glucose": {"value": 110, "when": "fasting"},
}
PRO_CALLS = {
    "/api/pro/bp-report": {"params": {"readings": "m:135/85,e:128/82,m:138/88,e:126/80"}},
    "/api/pro/glucose-report": {"params": {"readings": "f:112,a:168,b:96,r:65"}},
    "/api/pro/export": {},
}
CROSS_PARAMETER_RULES = {
    "/api/bp-check",  # readings: pair syntax, ranges, systolic above diastolic, at most 6
    "/api/screening-check",  # pack_years only with a smoking history, quit_years only for former smokers
    "/api/pro/bp-report",  # readings: slot letters and pairs
    "/api/pro/glucose-report",  # readings: slot letters and values
}
