"""service/collector.py: the survivors of a full garbage collection are frozen, so that the next full
collection does not walk them again; everything frozen is handed back to the collector now and then, so
that garbage cycles among frozen objects are freed in the end."""

from __future__ import annotations

import gc
import weakref

import pytest

from service.collector import FreezeSurvivors


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()  # what a test froze goes back to the collector of the test process


def test_a_full_collection_freezes_what_survived_it_and_the_next_one_walks_only_the_new(unfrozen):
    clock = Clock()
    gc.callbacks.append(callback := FreezeSurvivors(unfreeze_every_s=60, clock=clock))
    try:
        held = [[i] for i in range(50_000)]  # lists: objects the collector tracks
        gc.collect()
        assert gc.get_freeze_count() >= len(held)
        assert len(gc.get_objects(generation=2)) < 1_000  # the next full collection walks only the new
        newer = [[i] for i in range(1_000)]
        gc.collect()
        assert gc.get_freeze_count() >= len(held) + len(newer)
    finally:
        gc.callbacks.remove(callback)


def test_young_collections_freeze_nothing(unfrozen):
    callback = FreezeSurvivors(unfreeze_every_s=60, clock=Clock())
    for generation in (0, 1):
        callback("stop", {"generation": generation, "collected": 0, "uncollectable": 0})
    assert gc.get_freeze_count() == 0


def test_frozen_garbage_cycles_are_freed_after_the_unfreeze_interval(unfrozen):
    clock = Clock()
    gc.callbacks.append(callback := FreezeSurvivors(unfreeze_every_s=60, clock=clock))
    try:

        class Node:
            pass

        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle: only the collector frees it
        cycle = weakref.ref(a)
        gc.collect()  # alive: frozen
        del a, b
        clock.now = 30
        gc.collect()
        assert cycle() is not None  # garbage now, but frozen: not walked, not freed
        clock.now = 61
        gc.collect()  # past the interval: everything goes back to the collector, not frozen again
        assert gc.get_freeze_count() == 0
        gc.collect()  # the next full collection walks it all and frees the cycle
        assert cycle() is None
    finally:
        gc.callbacks.remove(callback)
