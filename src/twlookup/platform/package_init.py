"""Importing modules of a package without running the package's `__init__` until one of its own
names is asked for.

Two dependencies load much more than twlookup uses when any one of their modules is imported,
because the package's `__init__` imports everything beside it:

- the x402 SDK's `x402.mechanisms.evm` imports its wallet and RPC signers, and with them web3
  (about 30 MB and half a second), which the exact scheme's verify and settle and the local
  facilitator (its signer is the store's ledger) never use;
- the `holidays` package's `holidays.countries` imports all of its 250 country modules (about
  8 MB) when one country's calendar is asked for.

`defer_init(name)` registers the package in `sys.modules` as the import system would (its path,
spec and loader), without running its `__init__`: its modules then import as usual. The first
time a name the package itself defines is looked up (PEP 562 `__getattr__`), the `__init__` runs
in that same module object, so code that does use the package's names still gets all of them.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
from typing import Any

_lock = threading.Lock()


def defer_init(name: str) -> bool:
    """Register package `name` with its `__init__` deferred; False (nothing done) when it is
    already imported or is not a package. Its parent packages are imported as usual."""
    with _lock:
        if name in sys.modules:
            return False
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return False
        module = importlib.util.module_from_spec(spec)
        init_lock = threading.RLock()  # the __init__ runs once; a thread that asks meanwhile waits
        ran = False

        def __getattr__(attr: str) -> Any:
            nonlocal ran
            if attr.startswith("__"):
                raise AttributeError(f"module {name!r} has no attribute {attr!r}")
            if importlib.util.find_spec(f"{name}.{attr}") is not None:  # a module of the package
                return importlib.import_module(f"{name}.{attr}")
            with init_lock:
                if not ran:
                    ran = True
                    spec.loader.exec_module(module)  # type: ignore[union-attr]
            if attr in module.__dict__:
                return module.__dict__[attr]
            raise AttributeError(f"module {name!r} has no attribute {attr!r}")

        module.__getattr__ = __getattr__  # type: ignore[method-assign]
        sys.modules[name] = module
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, module)
        return True
