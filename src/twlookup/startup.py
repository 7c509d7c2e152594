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

What a serving process builds later and keeps for good (each service's reference data when first
asked for, its OpenAPI document, its MCP tool list, an SDK imported on first use) is frozen the same
way when it has been built (`long_lived`). Left in the collector's generations it made every full
collection walk it again: about 120,000 objects once every part was loaded, a 15-55 ms pause in
whichever request the collection fell on. Only a process that serves freezes (`resume_gc` ran);
one that builds apps over and over, as the tests do, keeps its collector as it is. Each freeze
collects first, so that what the build left as cyclic garbage is freed rather than kept: a full
collection of what was made since the last freeze, a few milliseconds in the request that built
the part (its first use), where the pauses were tens of milliseconds in any request. A frozen
object that is dropped later (reference data replaced by a reload) is still freed by its reference
count; only a reference cycle among frozen objects stays in memory until the process ends.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_paused = False
_serving = False  # set by resume_gc: this process serves, so what it builds for good is frozen
app_built = threading.Event()  # set by create_app once the app is built: serve's feed refresh starts after it


def pause_gc() -> None:
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_gc() -> None:
    """Freeze what exists now and run the collector again (a no-op unless `pause_gc` paused it)."""
    global _paused, _serving
    if _paused:
        _paused = False
        _serving = True
        gc.freeze()
        gc.enable()


def long_lived() -> None:
    """Freeze what exists now (call right after building something the process keeps for good);
    a no-op outside a serving process."""
    if _serving and gc.isenabled():
        gc.collect()  # what the build left as cyclic garbage is freed first, not kept for good
        gc.freeze()


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off while a batch runs whose objects are dropped when it ends (a seed: some
    hundred thousand rows, records and statements, scanned again and again by the collector for
    about a quarter of the seed's CPU time, and freed by their reference counts anyway), then as
    it was before."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
