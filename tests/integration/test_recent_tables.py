"""A repository's held states: it folds only the events after the state it holds, and never serves a
state whose history is no longer the stored one."""

from __future__ import annotations

from events.repository import Folding, Repository
from events.store import EventStore

# A minimal aggregate: (version, types of its events so far).
LOG = Folding(
    evolve=lambda s, e: (s[0] + 1, s[1] + (e["type"],)) if s else (1, (e["type"],)),
    dump=lambda s: {"v": s[0], "t": list(s[1])},
    load=lambda d: (d["v"], tuple(d["t"])),
    version_of=lambda s: s[0],
    is_snapshot_point=lambda e: e["type"] == "dealt",
    engine_version="e1",
)


def ev(kind: str) -> dict:
    return {"type": kind, "actor": None, "data": {}}


def test_a_repository_sees_what_another_one_appended(r):
    store = EventStore(r)
    a, b = Repository(store, LOG), Repository(store, LOG)
    state, _ = a.save("g1", None, [ev("created")])
    assert b.get("g1") == state == (1, ("created",))
    later, _ = b.save("g1", b.get("g1"), [ev("dealt"), ev("played")])
    assert a.get("g1") == later == (3, ("created", "dealt", "played"))
    assert Repository(store, LOG, cache_size=0).get("g1") == later


def test_a_held_state_is_not_served_once_the_history_changed(r):
    store = EventStore(r)
    a = Repository(store, LOG)
    a.save("g1", None, [ev("created"), ev("dealt"), ev("played")])
    store.delete("g1")
    store.append("g1", [ev("other")], 0)
    assert a.get("g1") == (1, ("other",))
    store.delete("g1")
    store.append("g1", [ev("x"), ev("y"), ev("z"), ev("w")], 0)  # longer, same version 3 in it
    assert a.get("g1") == (4, ("x", "y", "z", "w"))


def test_the_store_sends_only_what_follows_a_known_entry(r):
    store = EventStore(r)
    result = store.append("g1", [ev("created"), ev("dealt")], 0)
    store.save_snapshot("g1", 2, "e1", {"v": 2, "t": ["created", "dealt"]})
    known = store.load_since("g1", "e1", (2, result.head_hash))
    assert known.known and known.events == [] and known.head == (2, result.head_hash)
    store.append("g1", [ev("played")], 2)
    known = store.load_since("g1", "e1", (2, result.head_hash))
    assert known.known and [e.type for e in known.events] == ["played"]
    stranger = store.load_since("g1", "e1", (2, "0" * 40))
    assert not stranger.known and stranger.snapshot.version == 2 and [e.type for e in stranger.events] == ["played"]


def test_events_read_elsewhere_are_folded_onto_the_held_state_when_they_chain_onto_it(r):
    store = EventStore(r)
    a, b = Repository(store, LOG), Repository(store, LOG)
    _, first = a.save("g1", None, [ev("created"), ev("dealt")])
    b.save("g1", b.get("g1"), [ev("played"), ev("played")])
    read = store.read("g1", after=2)  # what the API's hub reads
    a.extend("g1", read, first.head_hash)
    assert a.held("g1") == (4, ("created", "dealt", "played", "played")) == b.get("g1")
    b.save("g1", b.get("g1"), [ev("taken")])
    assert a.get("g1") == (5, ("created", "dealt", "played", "played", "taken"))  # on from the held state


def test_events_that_do_not_follow_the_held_state_are_not_folded(r):
    store = EventStore(r)
    a, b = Repository(store, LOG), Repository(store, LOG)
    _, first = a.save("g1", None, [ev("created"), ev("dealt")])
    b.save("g1", b.get("g1"), [ev("played"), ev("played")])
    a.extend("g1", store.read("g1", after=3), first.head_hash)  # a gap: version 3 is missing
    a.extend("g1", store.read("g1", after=2), None)  # unchecked
    a.extend("g1", store.read("g1", after=2), "0" * 40)  # another history
    assert a.held("g1") == (2, ("created", "dealt"))
    Repository(store, LOG).extend("g1", store.read("g1", after=2), first.head_hash)  # holds nothing: no-op
