"""Start-up without the cyclic garbage collector.

Importing twenty services creates a few hundred thousand objects (models, schemas, routes) that
live as long as the process; while they are being created the collector would scan them over and
over, for about a sixth of the start-up's CPU time and little to free. `serve` pauses it until
the app is built (`resume_gc` at the end of `create_app`, or before uvicorn starts worker
processes), then the collector runs as usual. Nothing else changes: a paused collector only
delays freeing reference cycles.

What the start-up built is then frozen (`gc.freeze`): moved out of the collector's generations, so
no later collection scans it again. Without that, the first full collection after the start (in the
first requests, as they load reference data) walked the 200,000 objects of the app, about 0.3 s of
CPU on a 2-core machine, and freed nothing: the start-up leaves no cycles to free.
"""

from __future__ import annotations

import gc
import threading

_paused = False
app_built = threading.Event()  # set by create_app once the app is built: serve's feed refresh starts after it


def pause_gc() -> None:
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_gc() -> None:
    """Freeze what exists now and run the collector again (a no-op unless `pause_gc` paused it)."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
