"""The feed and lobby written after the commit (the Redis Cluster layout), here on one real Redis.

A process that dies between the commit and its follow-up writes is played by a CrossSlotWrites whose
`complete` raises: the events are committed, the feed and lobby are not, the intent stays; the
sweeper's repair writes them from the stored entries.
"""

from __future__ import annotations

import time

import pytest
import redis
from redis.crc import key_slot

from events.audit import verify_chain
from events.connection import _cluster_nodes, connect, is_cluster
from events.crossslot import REPAIR_GRACE_S, CrossSlotWrites, Intent, unique
from events.store import EventStore, VersionConflict


def ev(event_type="played", actor=0, **data):
    return {"type": event_type, "actor": actor, "data": data}


class Died(Exception):
    pass


class DiesAfterCommit(CrossSlotWrites):
    def complete(self, *args, **kwargs):
        raise Died()


def writes_of(store: EventStore) -> CrossSlotWrites:
    return CrossSlotWrites(store.client, store.keys, store.raw_entries, store.meta)


@pytest.fixture
def store(r):
    return EventStore(r, split_cross_slot=True)


def later_ms() -> int:
    return int(time.time() * 1000) + (REPAIR_GRACE_S + 1) * 1000


def test_split_append_writes_feed_and_lobby_after_the_commit_and_leaves_no_intent(store, r):
    store.append("g1", [ev("match_created"), ev("seat_claimed")], 0, meta={"status": "waiting"})
    store.append("g1", [ev("dealt")], 2, meta={"status": "active"}, idempotency_key="k")
    assert store.append("g1", [ev("dealt")], 2, idempotency_key="k").replayed
    with pytest.raises(VersionConflict):
        store.append("g1", [ev()], 1)
    assert [(f.game_id, f.version, f.type) for f in store.feed()] == [
        ("g1", 1, "match_created"),
        ("g1", 2, "seat_claimed"),
        ("g1", 3, "dealt"),
    ]
    assert store.lobby("active", 0, 10) == (["g1"], 1)
    assert store.lobby("waiting", 0, 10) == ([], 0)
    assert store.cross_slot.pending() == 0
    assert verify_chain("g1", store.iter_raw_entries("g1"), store.head("g1")).ok


def test_the_script_touches_only_the_games_slot(store, r):
    store.append("g1", [ev()], 0, meta={"status": "waiting"})
    # Every key the script may write shares the game's hash tag; the rest came after it.
    assert {k.decode() for k in r.keys("*")} == {
        "talon:{g:g1}:events",
        "talon:{g:g1}:meta",
        "talon:{g:g1}:head",
        "talon:feed",
        "talon:lobby:waiting",
    }
    # The intent and the feed share one slot, so the feed entries and the intent's removal are one MULTI.
    assert key_slot(store.cross_slot.pending_key.encode()) == key_slot(b"talon:feed")


def test_a_death_between_commit_and_feed_is_repaired_by_the_sweeper(store, r):
    store.append("g1", [ev("match_created")], 0, meta={"status": "waiting"})
    store.cross_slot = DiesAfterCommit(store.client, store.keys, store.raw_entries, store.meta)
    with pytest.raises(Died):
        store.append("g1", [ev("seat_claimed"), ev("dealt")], 1, meta={"status": "active"})
    store.cross_slot = writes_of(store)
    assert store.version("g1") == 3  # committed
    assert [f.version for f in store.feed()] == [1]  # but not in the feed yet
    assert store.lobby("waiting", 0, 10) == (["g1"], 1)  # nor moved in the lobby
    assert store.repair_cross_slot_writes() == 0  # too young: its writer may still be at work
    assert store.repair_cross_slot_writes(now_ms=later_ms()) == 1
    assert [(f.version, f.type) for f in store.feed()] == [(1, "match_created"), (2, "seat_claimed"), (3, "dealt")]
    assert store.lobby("active", 0, 10) == (["g1"], 1)
    assert store.lobby("waiting", 0, 10) == ([], 0)
    assert store.cross_slot.pending() == 0


def test_a_repeat_written_by_a_repair_is_dropped_by_readers(store, r):
    store.append("g1", [ev()], 0)
    store.append("g2", [ev()], 0)
    # A writer that stalled past the grace period finishes after the sweeper repaired its intent.
    intent = store.cross_slot.intend("g1", 0, 1)
    store.cross_slot.complete(intent, ["played"])
    store.cross_slot.complete(store.cross_slot.intend("g1", 0, 1), ["played"])
    assert r.xlen("talon:feed") == 4
    assert [(f.game_id, f.version) for f in store.feed()] == [("g1", 1), ("g2", 1)]
    seen: set = set()
    pages = [unique(store.feed(count=2), seen), unique(store.feed(after=store.feed(count=2)[-1].id), seen)]
    assert [(f.game_id, f.version) for page in pages for f in page] == [("g1", 1), ("g2", 1)]


def test_an_intent_whose_append_never_happened_is_just_removed(store, r):
    store.cross_slot.intend("g9", 0, 2)
    assert store.repair_cross_slot_writes(now_ms=later_ms()) == 1
    assert store.feed() == [] and store.lobby("waiting", 0, 10) == ([], 0)
    assert store.cross_slot.pending() == 0


def test_delete_and_import_in_the_split_layout(store, r):
    store.append("g1", [ev(), ev()], 0, meta={"status": "finished"})
    entries = store.raw_entries("g1")
    meta = store.meta("g1")
    store.delete("g1")
    assert store.lobby("finished", 0, 10) == ([], 0) and not store.exists("g1")
    store.import_entries("g1", entries, meta)
    assert store.lobby("finished", 0, 10) == (["g1"], 1)
    assert verify_chain("g1", store.iter_raw_entries("g1"), store.head("g1")).ok


def test_one_primary_keeps_the_atomic_script(r):
    store = EventStore(r)
    assert store.cross_slot is None and store.repair_cross_slot_writes() == 0
    store.append("g1", [ev()], 0, meta={"status": "waiting"})
    assert not r.keys("*pending*")


def test_cluster_urls():
    nodes, password, _ = _cluster_nodes("redis+cluster://:s3cret@127.0.0.1:7000,127.0.0.1:7001")
    assert [(n.host, n.port) for n in nodes] == [("127.0.0.1", 7000), ("127.0.0.1", 7001)]
    assert password == "s3cret"
    assert [(n.host, n.port) for n in _cluster_nodes("127.0.0.1:7000,127.0.0.1:7002")[0]] == [
        ("127.0.0.1", 7000),
        ("127.0.0.1", 7002),
    ]
    with pytest.raises(ValueError):
        _cluster_nodes("redis+cluster://127.0.0.1:7000/1")
    with pytest.raises(ValueError):
        _cluster_nodes("redis+cluster://127.0.0.1")
    assert not is_cluster(connect("redis://127.0.0.1:1/0"))


def test_a_late_lobby_follow_up_writes_the_stored_status_not_its_own(store, r):
    store.append("g1", [ev("match_created")], 0, meta={"status": "waiting"})
    store.cross_slot = DiesAfterCommit(store.client, store.keys, store.raw_entries, store.meta)
    with pytest.raises(Died):
        store.append("g1", [ev("dealt")], 1, meta={"status": "active"})
    store.cross_slot = writes_of(store)
    store.append("g1", [ev("match_ended")], 2, meta={"status": "finished"})
    # The first append's follow-up runs last, carrying "active": the game stays where it is now.
    late = Intent.parse(r.zrange(store.cross_slot.pending_key, 0, 0)[0])
    store.cross_slot.complete(late, ["dealt"], "active", store.meta("g1")["created_ms"])
    assert store.lobby("finished", 0, 10) == (["g1"], 1)
    assert store.lobby("active", 0, 10) == ([], 0)


class RedisGoneAfterCommit(CrossSlotWrites):
    def complete(self, *args, **kwargs):
        raise redis.ConnectionError("the feed's primary is unreachable")


def test_a_failed_follow_up_does_not_fail_the_committed_append(store, r):
    store.cross_slot = RedisGoneAfterCommit(store.client, store.keys, store.raw_entries, store.meta)
    result = store.append("g1", [ev()], 0, meta={"status": "waiting"})
    assert result.last_version == 1 and store.version("g1") == 1
    store.cross_slot = writes_of(store)
    assert store.cross_slot.pending() == 1  # the sweeper's to complete
    assert store.repair_cross_slot_writes(now_ms=later_ms()) == 1
    assert [(f.game_id, f.version) for f in store.feed()] == [("g1", 1)]
    assert store.lobby("waiting", 0, 10) == (["g1"], 1)
