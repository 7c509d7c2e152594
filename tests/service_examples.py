"""Each service's example inputs for the whole-app e2e tests, kept beside the service's tests.

`tests/services/<name>/examples.py` may define:
- TOOL_ARGS: {tool name: arguments} for tools that need arguments (MCP e2e test)
- PRO_CALLS: {paid path: httpx request kwargs} for every /api/pro route (x402 e2e test); a
  service gaining a paid route without an entry fails that test
- PRO_PATHS: {declared paid path with {parameters}: concrete path to request} (x402 e2e test)
- CROSS_PARAMETER_RULES: paths whose schema-valid input may still get a 422 for a rule no JSON
  schema can state (schemathesis test)
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

SERVICES = Path(__file__).resolve().parent / "services"


def load(name: str) -> ModuleType | None:
    path = SERVICES / name / "examples.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"twlookup_examples_{name}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tool_args(name: str) -> dict[str, dict]:
    module = load(name)
    return dict(getattr(module, "TOOL_ARGS", {})) if module else {}


def pro_calls(name: str) -> dict[str, dict]:
    module = load(name)
    return dict(getattr(module, "PRO_CALLS", {})) if module else {}


def pro_paths(name: str) -> dict[str, str]:
    module = load(name)
    return dict(getattr(module, "PRO_PATHS", {})) if module else {}


def cross_parameter_rules(name: str) -> set[str]:
    module = load(name)
    return set(getattr(module, "CROSS_PARAMETER_RULES", ())) if module else set()
