"""Example inputs of the holiday service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "plan_leave_2027": {"leave": 2},
    "check_destination_crowd": {"country": "JP", "start": "2027-04-28", "end": "2027-05-06"},
    "flight_booking_timing": {"depart": "2027-04-29", "dest": "JP"},
}
PRO_CALLS = {
    "/api/pro/trip-plan": {"params": {"leave": 2, "countries": "JP,KR"}},
    "/api/pro/export": {},
}
CROSS_PARAMETER_RULES = {
    "/api/crowd",  # end >= start, at most 60 days
    "/api/flight-timing",  # departure not in the past, at most 730 days ahead
    "/api/pro/trip-plan",  # countries: list rules
}
