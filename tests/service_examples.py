"""Each service's example inputs for the whole-app e2e tests, kept beside the service's tests.

`tests/services/<name>/examples.py` may define:
- TOOL_ARGS: {tool name: arguments} for tools that need arguments (MCP e2e test)
- PRO_CALLS: {paid path: httpx request kwargs} for every /api/pro route (x402 e2e test); a
  service gaining a paid route without an entry fails that test
- PRO_PATHS: {declared paid path with {parameters}: concrete path to request} (x402 e2e test)
- MOCKS: a context manager factory mocking the upstreams the service's tools and paid routes
  reach (respx, with loopback passed through), entered around that service's e2e calls
- CROSS_PARAMETER_RULES: paths whose schema-valid input may still get a 422 for a rule no JSON
  schema can state (schemathesis test)
- TOOLS_EMPTY_BY_DESIGN: tools that look up one record of a kind the shipped store holds none of
  (e.g. opinions' Taiwan posts, published only when real authors send them): a 404 is the right
  answer there (MCP e2e test)
- UPSTREAM_PATHS: paths that call an upstream (a knowledge base): with no network in tests they
  answer their documented 503 for inputs nothing has cached (schemathesis test)
- PREPARE: `async def PREPARE() -> None`, run before a test calls the service's tools or paid
  routes, e.g. to cache the upstream's answers (in its real format, via respx) for the example
  inputs, so that those answer without a network (MCP and x402 e2e tests)
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


def mocks(name: str):
    """The service's MOCKS() context, or a context that does nothing."""
    from contextlib import nullcontext

    module = load(name)
    factory = getattr(module, "MOCKS", None) if module else None
    return factory() if factory else nullcontext()


def tools_empty_by_design(name: str) -> set[str]:
    module = load(name)
    return set(getattr(module, "TOOLS_EMPTY_BY_DESIGN", ())) if module else set()


def upstream_paths(name: str) -> set[str]:
    module = load(name)
    return set(getattr(module, "UPSTREAM_PATHS", ())) if module else set()


async def prepare(name: str) -> None:
    module = load(name)
    hook = getattr(module, "PREPARE", None) if module else None
    if hook is not None:
        await hook()
