"""Full garbage collections that do not grow with the connections a process holds.

CPython's collector walks every tracked object of the process at a full (generation 2) collection,
which it starts whenever the objects promoted to generation 2 since the last one reach a quarter of
those it holds. An API process holding thousands of streams and long-polls holds a record, a socket
and a held table for each of them and promotes the objects of every request it serves: full
collections came every few seconds and walked 60,000-150,000 objects, pauses of 40-450 ms of every
connection of the process, health probes included (bench/streams.py, on the 2-core development machine).

So what survives a full collection is frozen (`gc.freeze`): moved to the permanent generation, which
later collections do not walk. A frozen object that stops being used is still freed as usual, by its
reference count; only garbage *cycles* of frozen objects stay, and those are what `unfreeze_every_s`
is for: every so often everything frozen is handed back to the collector, which examines it once at
the next full collection (one pause of the old length), frees the cycles, and its survivors are
frozen again."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

UNFREEZE_EVERY_S = 3600.0


class FreezeSurvivors:
    """The gc callback: after a full collection, its survivors are frozen."""

    def __init__(self, unfreeze_every_s: float = UNFREEZE_EVERY_S, clock: Callable[[], float] = time.monotonic):
        self.unfreeze_every_s, self.clock = unfreeze_every_s, clock
        self._unfrozen_at = clock()

    def __call__(self, phase: str, info: dict) -> None:
        if phase != "stop" or info["generation"] != 2:
            return
        now = self.clock()
        if now - self._unfrozen_at >= self.unfreeze_every_s:
            # Not frozen this time: the next full collection walks all of it, cycles included.
            gc.unfreeze()
            self._unfrozen_at = now
            return
        gc.freeze()


def install(unfreeze_every_s: float = UNFREEZE_EVERY_S) -> FreezeSurvivors:
    """Freezes the survivors of this process's full collections from now on (idempotent per process)."""
    for callback in gc.callbacks:
        if isinstance(callback, FreezeSurvivors):
            return callback
    callback = FreezeSurvivors(unfreeze_every_s)
    gc.callbacks.append(callback)
    return callback
