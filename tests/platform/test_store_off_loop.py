"""No operation reads or writes the store on the event loop.

Plain `def` operations run on the loop from memory (the `Reference` caches); one that opens a
store session itself, or calls something that does, must be declared `blocking=True` so that it
runs in a worker thread (a slow store would otherwise stall every request of the process). This
walks each such operation's code, and the code of the module-level functions it calls, for store
access."""

from __future__ import annotations

import ast
import inspect
import textwrap
import types

from twlookup.services import load_services

STORE_CALLS = ("store_engine.session", "store_engine.get_engine", "review.submit", "review.counts", "review.queue")


def _store_use(fn: types.FunctionType, seen: set[object]) -> str | None:
    """The first store access reachable from `fn` through functions of its own package, or None."""
    if fn in seen or not isinstance(fn, types.FunctionType) or not fn.__module__.startswith("twlookup"):
        return None
    seen.add(fn)
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None
    found = next((call for call in STORE_CALLS if call in source), None)
    if found:
        return f"{fn.__module__}.{fn.__name__} uses {found}"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            callee = fn.__globals__.get(node.func.id)
            if isinstance(callee, types.FunctionType) and (hit := _store_use(callee, seen)):
                return hit
    return None


def test_operations_that_touch_the_store_are_declared_blocking():
    offenders = []
    for service in load_services():
        for op in service.operations:
            if op.is_async or op.blocking:
                continue
            for fn in (op.fn, op.check):
                hit = _store_use(fn, set()) if fn is not None else None
                if hit:
                    offenders.append(f"{service.name} {op.method} {op.path}: {hit}")
    assert not offenders, "declare these blocking=True:\n" + "\n".join(offenders)


def test_the_check_finds_a_store_read_behind_a_helper(tmp_path, monkeypatch):
    """The walk follows calls into module-level helpers (so the test above can fail)."""
    (tmp_path / "twlookup_fake_ops.py").write_text(
        "from twlookup.platform.store import engine as store_engine\n\n"
        "def helper():\n    with store_engine.session() as s:\n        return s\n\n"
        "def op():\n    return helper()\n\n"
        "def pure():\n    return 1\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import twlookup_fake_ops as module

    for fn in (module.op, module.helper, module.pure):
        fn.__module__ = "twlookup.fake"  # count it as the package's own code
    assert _store_use(module.op, set()) == "twlookup.fake.helper uses store_engine.session"
    assert _store_use(module.pure, set()) is None
