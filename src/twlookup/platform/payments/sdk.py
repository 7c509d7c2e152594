"""Loading the x402 SDK without letting it change the interpreter.

`py_ecc`, imported under the SDK's Ethereum mechanisms (through eth_account), raises the
interpreter's recursion limit to 100,000 when it is first imported. With that limit, a deeply
nested JSON document (a hostile payment header, a page's JSON-LD) overflows the C stack in the
JSON decoder and the process dies with a segfault instead of raising `RecursionError`. So the
first import goes through `load()`, which puts the limit back, and `restore_recursion_limit()`
checks again wherever the SDK is used.
"""

from __future__ import annotations

import logging
import sys
import threading

from twlookup.platform.package_init import defer_init
from twlookup.startup import long_lived

log = logging.getLogger("twlookup.payments")
# The limit this process started with (this module is imported when the app is built, before
# any SDK import); a dependency may not raise it.
RECURSION_LIMIT = sys.getrecursionlimit()
_lock = threading.Lock()
_loaded = False


def restore_recursion_limit() -> None:
    """Put the recursion limit back to the process's own if a dependency has raised it."""
    if sys.getrecursionlimit() != RECURSION_LIMIT:
        log.info("recursion limit %d set back to %d", sys.getrecursionlimit(), RECURSION_LIMIT)
        sys.setrecursionlimit(RECURSION_LIMIT)


def load() -> None:
    """Import the x402 SDK and the Ethereum libraries under it once (slow: call it off the event
    loop), keeping the recursion limit this process started with."""
    global _loaded
    if _loaded:
        return
    with _lock:
        if not _loaded:
            try:
                # the EVM mechanisms' own package imports web3 for signers this process does not
                # use (about 30 MB): its modules are imported without it (platform/package_init.py)
                defer_init("x402.mechanisms.evm")
                import x402.mechanisms.evm.exact  # noqa: F401  (eth_account, py_ecc)
            finally:
                restore_recursion_limit()
            _loaded = True
            long_lived()
