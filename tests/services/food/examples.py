"""Example inputs of the food service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "draw_food_fortune": {
        "deity": "tudigong",
        "meal": "lunch",
        "budget": 200,
        "people": 2,
        "lat": 25.046,
        "lon": 121.517,
        "seed": 7,
    },
    "find_nearby_restaurants": {"lat": 25.046, "lon": 121.517, "radius": 2000},
    "list_food_categories": {"meal": "dinner"},
}
PRO_CALLS = {
    "/api/pro/week-plan": {"params": {"deity": "guanyin", "meals": "lunch,dinner", "days": 7, "seed": 1}},
    "/api/pro/pack": {},
}
# draw: lat and lon together (or neither), and a budget below every band of the meal;
# week-plan: a meal listed twice, or a budget no category of a meal reaches.
CROSS_PARAMETER_RULES = {"/api/draw", "/api/pro/week-plan"}
