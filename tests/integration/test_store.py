"""The event store against a real Redis: the life of a game's log, then its guarantees under races."""

from __future__ import annotations

import threading
import time

import orjson
import pytest
import redis

from events.codec import Codec, StoredEvent
from events.store import (
    AppendResult,
    EventStore,
    HistoryChanged,
    IdempotencyMismatch,
    Snapshot,
    Throttle,
    Throttled,
    VersionConflict,
)

AT = "2026-11-30T03:04:05.123Z"


def ev(kind: str = "play", actor: int | None = 0, **data) -> dict:
    return {"type": kind, "actor": actor, "data": data}


@pytest.fixture
def store(r) -> EventStore:
    return EventStore(r)


def game_keys(r: redis.Redis, game_id: str) -> list[bytes]:
    return sorted(r.scan_iter(match=f"talon:{{g:{game_id}}}:*"))


# Appending and reading back.


def test_first_append_numbers_events_from_one(store):
    result = store.append("g1", [ev("match_created", None), ev("seat_claimed", 0)], 0, at=AT)
    assert result == AppendResult(1, 2, replayed=False)
    assert store.version("g1") == 2
    assert store.exists("g1")
    assert store.read("g1") == [
        StoredEvent(1, "match_created", None, {}, AT),
        StoredEvent(2, "seat_claimed", 0, {}, AT),
    ]


def test_unknown_game_is_empty(store):
    assert store.version("nope") == 0
    assert not store.exists("nope")
    assert store.read("nope") == []
    assert store.load("nope", "e1") == (None, [])
    assert store.meta("nope") == {}


def test_stream_entry_id_is_the_version(store, r):
    store.append("g1", [ev(), ev(), ev()], 0)
    ids = [entry_id for entry_id, _ in r.xrange("talon:{g:g1}:events")]
    assert ids == [b"1-0", b"2-0", b"3-0"]


def test_read_after_and_limit(store):
    store.append("g1", [ev(n=i) for i in range(1, 11)], 0)
    assert [e.version for e in store.read("g1", after=7)] == [8, 9, 10]
    assert [e.version for e in store.read("g1", after=2, limit=3)] == [3, 4, 5]
    assert store.read("g1", after=10) == []
    assert [e.data["n"] for e in store.read("g1", limit=2)] == [1, 2]


def test_to_dict_has_the_api_shape(store):
    store.append("g1", [ev("play", 2, card="TS")], 0, at=AT)
    assert store.read("g1")[0].to_dict() == {"version": 1, "type": "play", "at": AT, "actor": 2, "data": {"card": "TS"}}


def test_default_at_is_utc_with_milliseconds(store):
    store.append("g1", [ev()], 0)
    at = store.read("g1")[0].at
    assert len(at) == 24 and at.endswith("Z") and at[19] == "."


def test_a_client_that_decodes_responses_is_refused(r, redis_url):
    """Hashes and snapshots are stored as bytes, which a decoding client cannot read."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        with pytest.raises(ValueError, match="without decode_responses"):
            EventStore(client)
    finally:
        client.close()


def test_snapshots_are_stored_compressed(store, r):
    state = {"hands": [["AS", "KS", "QS"] * 20, ["9H"] * 60]}
    store.append("g1", [ev()], 0)
    store.save_snapshot("g1", 1, "e1", state)
    stored = r.hget("talon:{g:g1}:snap", "state")
    assert stored.startswith(b"z") and len(stored) < len(orjson.dumps(state)) / 3
    assert store.load("g1", "e1")[0] == Snapshot(1, "e1", state)


# Optimistic concurrency.


def test_stale_expected_version_conflicts_and_writes_nothing(store, r):
    store.append("g1", [ev(), ev()], 0, meta={"status": "waiting", "players": "1"})
    before = (r.xlen("talon:{g:g1}:events"), r.xlen("talon:feed"), store.meta("g1"))
    with pytest.raises(VersionConflict) as conflict:
        store.append("g1", [ev()], 1, meta={"status": "active", "players": "2"})
    assert conflict.value.current_version == 2
    assert (r.xlen("talon:{g:g1}:events"), r.xlen("talon:feed"), store.meta("g1")) == before
    assert store.lobby("active", 0, 10) == ([], 0)


def test_expected_version_ahead_of_the_log_conflicts(store):
    with pytest.raises(VersionConflict) as conflict:
        store.append("g1", [ev()], 3)
    assert conflict.value.current_version == 0
    assert not store.exists("g1")


def test_race_on_one_expected_version_has_exactly_one_winner(store):
    store.append("g1", [ev(), ev(), ev()], 0)
    barrier = threading.Barrier(20)
    outcomes: list = []

    def contender(n: int) -> None:
        barrier.wait()
        try:
            outcomes.append(store.append("g1", [ev(n=n), ev(n=n)], 3))
        except VersionConflict as conflict:
            outcomes.append(conflict)

    threads = [threading.Thread(target=contender, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [o for o in outcomes if isinstance(o, AppendResult)]
    losers = [o for o in outcomes if isinstance(o, VersionConflict)]
    assert winners == [AppendResult(4, 5, replayed=False)]
    assert len(losers) == 19 and {c.current_version for c in losers} == {5}
    assert store.version("g1") == 5
    tail = store.read("g1", after=3)
    assert tail[0].data == tail[1].data  # both events of the one winner


def test_mixed_concurrent_appends_leave_no_gaps(store, r):
    """Writers retry on conflict, as the service does: every event lands once, numbered 1..n."""
    per_writer, writers = 15, 6

    def writer(w: int) -> None:
        for i in range(per_writer):
            batch = [ev(w=w, i=i, k=k) for k in range(1 + i % 3)]
            while True:
                try:
                    store.append("g1", batch, store.version("g1"))
                    break
                except VersionConflict:
                    pass

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    log = store.read("g1")
    expected_total = writers * sum(1 + i % 3 for i in range(per_writer))
    assert [e.version for e in log] == list(range(1, expected_total + 1))
    # Batches stay together and in order: each (w, i) occupies consecutive versions.
    seen = [(e.data["w"], e.data["i"], e.data["k"]) for e in log]
    assert len(set(seen)) == expected_total
    for before, after in zip(seen, seen[1:]):
        if after[2] != 0:
            assert after == (before[0], before[1], before[2] + 1)
    feed = store.feed(count=expected_total + 1)
    assert [(f.game_id, f.version) for f in feed] == [("g1", v) for v in range(1, expected_total + 1)]
    assert r.xlen("talon:feed") == expected_total


# Idempotency.


def test_idempotent_retry_returns_the_first_result_even_when_stale(store, r):
    first = store.append("g1", [ev(card="TS")], 0, idempotency_key="k1", fingerprint="fp-a", meta={"status": "waiting"})
    store.append("g1", [ev(), ev()], 1)
    before = (r.xlen("talon:{g:g1}:events"), r.xlen("talon:feed"), store.meta("g1"))
    retry = store.append("g1", [ev(card="TS")], 0, idempotency_key="k1", fingerprint="fp-a", meta={"status": "active"})
    assert first == AppendResult(1, 1, replayed=False)
    assert retry == AppendResult(1, 1, replayed=True)
    assert (r.xlen("talon:{g:g1}:events"), r.xlen("talon:feed"), store.meta("g1")) == before
    assert store.lobby("waiting", 0, 10) == (["g1"], 1)


def test_idempotency_key_with_another_fingerprint_is_a_mismatch(store, r):
    store.append("g1", [ev(card="TS")], 0, idempotency_key="k1", fingerprint="fp-a")
    with pytest.raises(IdempotencyMismatch):
        store.append("g1", [ev(card="AS")], 1, idempotency_key="k1", fingerprint="fp-b", meta={"status": "active"})
    assert store.version("g1") == 1
    assert r.xlen("talon:feed") == 1
    assert store.meta("g1") == {"created": store.read("g1")[0].at, "created_ms": store.meta("g1")["created_ms"]}
    assert store.lobby("active", 0, 10) == ([], 0)


def test_default_fingerprint_is_the_events(store):
    store.append("g1", [ev(card="TS")], 0, idempotency_key="k1")
    assert store.append("g1", [ev(card="TS")], 0, idempotency_key="k1").replayed
    with pytest.raises(IdempotencyMismatch):
        store.append("g1", [ev(card="AS")], 1, idempotency_key="k1")


def test_idempotency_record_expires_after_a_day(store, r):
    store.append("g1", [ev()], 0, idempotency_key="k1", fingerprint="f")
    assert 24 * 3600 - 5 < r.ttl("talon:{g:g1}:idem:k1") <= 24 * 3600


def test_idempotency_keys_are_per_game(store):
    store.append("g1", [ev()], 0, idempotency_key="k1", fingerprint="f")
    assert store.append("g2", [ev()], 0, idempotency_key="k1", fingerprint="f").replayed is False


def test_concurrent_retries_of_one_request_write_once(store):
    barrier = threading.Barrier(10)
    results: list[AppendResult] = []

    def retry() -> None:
        barrier.wait()
        results.append(store.append("g1", [ev()], 0, idempotency_key="k", fingerprint="f"))

    threads = [threading.Thread(target=retry) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(result.replayed for result in results) == [False] + [True] * 9
    assert {(res.first_version, res.last_version) for res in results} == {(1, 1)}
    assert store.version("g1") == 1


# Waiting for events.


def test_wait_returns_events_already_there_at_once(store):
    store.append("g1", [ev(), ev()], 0)
    assert [e.version for e in store.wait("g1", 0, 5)] == [1, 2]


def test_wait_returns_new_events_when_they_arrive(store):
    store.append("g1", [ev()], 0)
    timer = threading.Timer(0.2, lambda: store.append("g1", [ev(card="AS")], 1))
    timer.start()
    started = time.monotonic()
    events = store.wait("g1", 1, 5)
    timer.join()
    assert [(e.version, e.data) for e in events] == [(2, {"card": "AS"})]
    assert time.monotonic() - started < 2


def test_a_wait_checks_that_the_events_chain_onto_the_hash_the_caller_holds(store):
    first = store.append("g1", [{"type": "a"}], 0)
    store.append("g1", [{"type": "b"}], 1)
    assert [e.type for e in store.wait("g1", 1, 1, after_hash=first.head_hash)] == ["b"]
    with pytest.raises(HistoryChanged):
        store.wait("g1", 1, 1, after_hash="0" * 40)


def test_wait_times_out_with_nothing(store):
    store.append("g1", [ev()], 0)
    started = time.monotonic()
    assert store.wait("g1", 1, 0.3) == []
    assert 0.25 < time.monotonic() - started < 1.5
    assert store.wait("g1", 1, 0) == []


def test_a_wait_longer_than_the_socket_timeout_neither_fails_nor_misses_events(r, redis_url):
    # redis-py 8 clients have a 5 s socket timeout by default: one XREAD BLOCK longer than it fails.
    store = EventStore(redis.Redis.from_url(redis_url, socket_timeout=0.5))
    store.append("g1", [ev()], 0)
    started = time.monotonic()
    assert store.wait("g1", 1, 1.3) == []
    assert 1.2 < time.monotonic() - started < 2.5
    timer = threading.Timer(1.1, lambda: store.append("g1", [ev(card="AS")], 1))
    timer.start()
    events = store.wait("g1", 1, 5)
    timer.join()
    assert [(e.version, e.data) for e in events] == [(2, {"card": "AS"})]


def test_a_wait_ends_early_when_told_to_stop(r, redis_url):
    """The API process ends its waits when it stops (service/shutdown.py): `until` is asked between
    the XREAD slices, here 0.25 s long (a 0.5 s socket timeout)."""
    store = EventStore(redis.Redis.from_url(redis_url, socket_timeout=0.5))
    store.append("g1", [ev()], 0)
    stop = threading.Event()
    threading.Timer(0.6, stop.set).start()
    started = time.monotonic()
    assert store.wait("g1", 1, 30, until=stop.is_set) == []
    assert 0.5 < time.monotonic() - started < 3  # not the 30 s asked for
    assert [e.version for e in store.wait("g1", 0, 30, until=stop.is_set)] == [1]  # events still come at once


def test_waits_do_not_block_other_calls(store):
    """Blocking reads each take their own pool connection: appends and reads go on meanwhile."""
    results: list = []
    waiters = [threading.Thread(target=lambda: results.append(store.wait("g1", 0, 3))) for _ in range(3)]
    for waiter in waiters:
        waiter.start()
    time.sleep(0.1)
    started = time.monotonic()
    store.append("g1", [ev()], 0)
    assert store.version("g1") == 1
    assert time.monotonic() - started < 0.5
    for waiter in waiters:
        waiter.join()
    assert [[e.version for e in events] for events in results] == [[1], [1], [1]]


# Snapshots.


def test_load_without_snapshot_replays_everything(store):
    store.append("g1", [ev(n=1), ev(n=2)], 0)
    assert store.load("g1", "e1") == (None, store.read("g1"))


def test_load_with_snapshot_returns_only_later_events(store):
    store.append("g1", [ev(n=i) for i in range(1, 6)], 0)
    store.save_snapshot("g1", 3, "e1", {"round": 2, "hands": [["AS"], []]})
    snapshot, events = store.load("g1", "e1")
    assert snapshot == Snapshot(3, "e1", {"round": 2, "hands": [["AS"], []]})
    assert [e.version for e in events] == [4, 5]


def test_snapshot_of_another_engine_is_ignored(store):
    store.append("g1", [ev(), ev(), ev()], 0)
    store.save_snapshot("g1", 2, "e1", {"x": 1})
    snapshot, events = store.load("g1", "e2")
    assert snapshot is None
    assert [e.version for e in events] == [1, 2, 3]


def test_older_snapshot_never_overwrites_a_newer_one(store):
    store.append("g1", [ev() for _ in range(6)], 0)
    store.save_snapshot("g1", 5, "e1", {"at": 5})
    store.save_snapshot("g1", 3, "e1", {"at": 3})
    assert store.load("g1", "e1")[0] == Snapshot(5, "e1", {"at": 5})
    store.save_snapshot("g1", 6, "e1", {"at": 6})
    assert store.load("g1", "e1") == (Snapshot(6, "e1", {"at": 6}), [])


def test_an_append_keeps_the_snapshot_of_the_state_after_its_events(store):
    store.append("g1", [ev(n=1)], 0)
    result = store.append("g1", [ev(n=2), ev(n=3)], 1, snapshot=("e1", {"after": 3}))
    assert result.last_version == 3
    assert store.load("g1", "e1") == (Snapshot(3, "e1", {"after": 3}), [])
    store.append("g1", [ev(n=4)], 3)
    assert store.load("g1", "e1") == (Snapshot(3, "e1", {"after": 3}), store.read("g1", after=3))


def test_a_refused_or_replayed_append_writes_no_snapshot(store):
    store.append("g1", [ev()], 0, idempotency_key="k1", snapshot=("e1", {"first": True}))
    with pytest.raises(VersionConflict):
        store.append("g1", [ev()], 0, snapshot=("e1", {"stale": True}))
    replay = store.append("g1", [ev()], 0, idempotency_key="k1", snapshot=("e1", {"replay": True}))
    assert replay.replayed
    assert store.load("g1", "e1")[0] == Snapshot(1, "e1", {"first": True})


def test_snapshot_beyond_the_log_is_refused(store):
    store.append("g1", [ev()], 0)
    with pytest.raises(ValueError):
        store.save_snapshot("g1", 2, "e1", {})
    assert store.load("g1", "e1")[0] is None


# Meta and the lobby.


def test_first_append_records_creation_time(store):
    store.append("g1", [ev()], 0, at=AT, meta={"game": "smear"})
    store.append("g1", [ev()], 1, at="2026-12-01T00:00:00.000Z")
    assert store.meta("g1") == {"game": "smear", "created": AT, "created_ms": "1796007845123"}


def test_metas_are_read_in_one_pipeline(store):
    store.append("g1", [ev()], 0, meta={"game": "smear"})
    store.append("g2", [ev()], 0, meta={"game": "sixty-six"})
    metas = store.metas(["g2", "missing", "g1"])
    assert [m.get("game") for m in metas] == ["sixty-six", None, "smear"]
    assert store.metas([]) == []


def test_lobby_moves_games_between_statuses(store):
    for n, game_id in enumerate(["a", "b", "c"]):
        store.append(game_id, [ev()], 0, at=f"2026-11-30T03:00:0{n}.000Z", meta={"status": "waiting"})
    assert store.lobby("waiting", 0, 10) == (["c", "b", "a"], 3)
    store.append("b", [ev()], 1, meta={"status": "active"})
    store.append("a", [ev()], 1, meta={"status": "active"})
    assert store.lobby("waiting", 0, 10) == (["c"], 1)
    assert store.lobby("active", 0, 10) == (["b", "a"], 2)  # by creation, not by activation
    store.append("b", [ev()], 2, meta={"status": "finished"})
    assert store.lobby("active", 0, 10) == (["a"], 1)
    assert store.lobby("finished", 0, 10) == (["b"], 1)
    store.append("a", [ev()], 2, meta={"players": "4"})  # no status: stays where it is
    assert store.lobby("active", 0, 10) == (["a"], 1)


def test_a_finished_game_is_stored_at_the_size_of_its_entries(store, r):
    events_key = "talon:{g:g1}:events"
    store.append("g1", [ev(n=i) for i in range(20)], 0, meta={"status": "active"})
    entries = r.xrange(events_key)
    # An exact copy (under a name as long: MEMORY USAGE counts the name), the size the entries need:
    # Redis gave the stream's one node room for 4 KB.
    exact = "talon:{g:g1}:copied"
    r.copy(events_key, exact)
    assert r.memory_usage(events_key, samples=0) > r.memory_usage(exact, samples=0) + 2000
    store.append("g1", [ev("match_ended", None)], 20, meta={"status": "finished"})
    r.copy(events_key, exact, replace=True)
    assert r.memory_usage(events_key, samples=0) == r.memory_usage(exact, samples=0)
    r.delete(exact)
    assert r.xrange(events_key)[:20] == entries and store.version("g1") == 21
    assert store.load_since("g1", "e1").events[-1].type == "match_ended"
    assert game_keys(r, "g1") == [b"talon:{g:g1}:events", b"talon:{g:g1}:head", b"talon:{g:g1}:meta"]
    store.append("g1", [ev("note", None)], 21)  # still a stream the chain goes on in
    assert store.version("g1") == 22


def test_lobby_pages(store):
    for n in range(7):
        store.append(f"g{n}", [ev()], 0, at=f"2026-11-30T03:00:0{n}.000Z", meta={"status": "waiting"})
    assert store.lobby("waiting", 0, 3) == (["g6", "g5", "g4"], 7)
    assert store.lobby("waiting", 6, 3) == (["g0"], 7)
    assert store.lobby("waiting", 9, 3) == ([], 7)
    with pytest.raises(ValueError):
        store.lobby("lost", 0, 3)


@pytest.mark.parametrize(
    "meta", [{"status": "paused"}, {"status": "waiting", "created_ms": "soon"}, {"players": 2.5}, {"players": None}]
)
def test_bad_meta_is_rejected_before_writing(store, r, meta):
    with pytest.raises(ValueError):
        store.append("g1", [ev()], 0, meta=meta)
    assert r.dbsize() == 0


def test_at_is_stored_as_utc(store):
    store.append("g1", [ev()], 0, at="2026-11-30T05:04:05.123+02:00")
    assert store.read("g1")[0].at == AT
    assert store.meta("g1")["created"] == AT


# The global feed.


def test_feed_lists_events_of_all_games_in_order(store):
    store.append("g1", [ev("match_created"), ev("seat_claimed")], 0)
    store.append("g2", [ev("match_created")], 0)
    store.append("g1", [ev("deal")], 2)
    feed = store.feed()
    assert [(f.game_id, f.version, f.type) for f in feed] == [
        ("g1", 1, "match_created"),
        ("g1", 2, "seat_claimed"),
        ("g2", 1, "match_created"),
        ("g1", 3, "deal"),
    ]
    assert [(f.game_id, f.version) for f in store.feed(after=feed[1].id, count=1)] == [("g2", 1)]
    assert store.feed(after=feed[-1].id) == []
    with pytest.raises(ValueError):
        store.feed(after="+")


# Deleting.


def test_delete_removes_every_key_of_the_game(store, r):
    store.append("g1", [ev(), ev()], 0, idempotency_key="k1", fingerprint="f", meta={"status": "active"})
    store.save_snapshot("g1", 2, "e1", {})
    store.append("g2", [ev()], 0, meta={"status": "active"})
    assert len(game_keys(r, "g1")) == 5  # events, meta, snap, head, idem
    store.delete("g1")
    assert game_keys(r, "g1") == []
    assert store.lobby("active", 0, 10) == (["g2"], 1)
    assert store.version("g2") == 1
    store.delete("g1")  # deleting twice is harmless


# Validation.


@pytest.mark.parametrize("game_id", ["", "a" * 65, "a:b", "a}b", "g 1", "a*", "é", None, 7])
def test_bad_game_ids_are_rejected(store, r, game_id):
    with pytest.raises(ValueError):
        store.append(game_id, [ev()], 0)
    with pytest.raises(ValueError):
        store.read(game_id)
    assert r.dbsize() == 0


@pytest.mark.parametrize(
    "events", [[], [{"actor": 0, "data": {}}], [{"type": "x", "data": []}], [{"type": "x", "actor": 1.5}], ["play"]]
)
def test_malformed_events_are_rejected(store, r, events):
    with pytest.raises(ValueError):
        store.append("g1", events, 0)
    assert r.dbsize() == 0


@pytest.mark.parametrize("key", ["", "a b", "x" * 256, "ключ"])
def test_bad_idempotency_keys_are_rejected(store, r, key):
    with pytest.raises(ValueError):
        store.append("g1", [ev()], 0, idempotency_key=key, fingerprint="f")
    assert r.dbsize() == 0


def test_bad_prefix_is_rejected(r):
    with pytest.raises(ValueError):
        EventStore(r, prefix="a{b}")


def test_prefixes_keep_stores_apart(r):
    EventStore(r, prefix="one").append("g1", [ev()], 0)
    assert EventStore(r, prefix="two").version("g1") == 0
    assert r.exists("one:{g:g1}:events")


# The codec through the store.


def test_codec_round_trip_keeps_every_json_shape(store):
    data = {
        "hand": ["AS", "TD"],
        "n": 3,
        "ok": True,
        "none": None,
        "f": 1.5,
        "deep": {"x": [1, {}]},
        "text": 'ünï "quoted"',
    }
    store.append("g1", [ev("deal", None, **data), ev("claim", "operator")], 0, at=AT)
    assert [e.to_dict() for e in store.read("g1")] == [
        {"version": 1, "type": "deal", "at": AT, "actor": None, "data": data},
        {"version": 2, "type": "claim", "at": AT, "actor": "operator", "data": {}},
    ]


def test_old_events_are_upcast_on_read(r):
    EventStore(r).append("g1", [ev("bid", 1, value=30, trump="H"), ev("pass", 2)], 0)
    codec = Codec()
    codec.register_upcaster(
        "bid", 1, lambda e: {**e, "data": {"value": e["data"]["value"], "suit": e["data"]["trump"]}}
    )
    store = EventStore(r, codec=codec)
    store.append("g1", [ev("bid", 3, value=32, suit="S")], 2)
    assert [(e.type, e.data) for e in store.read("g1")] == [
        ("bid", {"value": 30, "suit": "H"}),
        ("pass", {}),
        ("bid", {"value": 32, "suit": "S"}),
    ]
    assert store.load("g1", "e1")[1] == store.read("g1")


def test_a_throttled_append_writes_nothing_and_a_retry_is_not_a_new_write(store):
    seat = Throttle("seat:1", 2, 60)
    store.append("g1", [ev("a", None)], 0, throttle=seat)
    store.append("g1", [ev("b", None)], 1, throttle=seat, idempotency_key="k2")
    with pytest.raises(Throttled) as refused:
        store.append("g1", [ev("c", None)], 2, throttle=seat)
    assert 0 < refused.value.retry_after_s <= 30
    assert store.version("g1") == 2
    assert store.append("g1", [ev("b", None)], 1, throttle=seat, idempotency_key="k2").replayed  # answered
    store.append("g1", [ev("c", None)], 2, throttle=Throttle("seat:0", 2, 60))  # another seat's own budget
    assert store.version("g1") == 3
