"""Example inputs of the motion service for the whole-app e2e tests (see tests/service_examples.py)."""

TOOL_ARGS = {
    "generate_easing": {"name": "ease-in-out"},
    "generate_keyframes": {"preset": "fade-in", "duration": 250},
    "generate_gradient": {"colors": "#ff0000,#0000ff", "type": "linear"},
    "spring_to_css_linear": {"stiffness": 170, "damping": 26, "mass": 1},
}
PRO_CALLS = {
    "/api/pro/motion-kit": {"params": {"brand": "#e63946", "style": "calm"}},
    "/api/pro/export": {},
}
CROSS_PARAMETER_RULES = {
    "/api/easing",  # exactly one of name / x1..y2 / steps; all four control points together
    "/api/spring",  # a spring that takes over 10 s to settle is refused
}
