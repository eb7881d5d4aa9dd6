"""One contract suite per port (app/ports.py), run against both of its implementations: the event store
on a real Redis (events/store.py) and in memory (events/memory.py), the job queue on rq
(adapters/rq_queue.py) and in memory (adapters/memory_queue.py).

The unit tests of the use cases run on the in-memory ones (tests/unit/test_matches.py); this suite is
what makes them stand for Redis and rq: whatever the use cases rely on is checked here on both.
"""

from __future__ import annotations

import socket

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rq.job import Job as RqJob
from rq.job import JobStatus
from rq.registry import FailedJobRegistry

from adapters.memory_queue import InMemoryJobQueue
from adapters.rq_queue import RqJobQueue, job_id
from app import audit
from app.matches import Matches
from app.ports import Job
from events.chain import entry_hash, genesis_hash
from events.codec import StoredEvent, normalize_at
from events.memory import InMemoryEventStore
from events.store import (
    AppendResult,
    EventStore,
    GameExists,
    IdempotencyMismatch,
    Loaded,
    RawEntry,
    Snapshot,
    Throttle,
    Throttled,
    VersionConflict,
)

AT = "2026-11-30T03:04:05.123Z"
AT_MS = normalize_at(AT)[1]


def ev(kind: str = "play", actor: int | None = 0, **data) -> dict:
    return {"type": kind, "actor": actor, "data": data}


@pytest.fixture(params=["redis", "memory"])
def store(request):
    if request.param == "redis":
        return EventStore(request.getfixturevalue("r"))
    return InMemoryEventStore()


# Appending and reading.


def test_appends_number_events_from_one_and_read_back(store):
    assert store.append("g1", [ev("match_created", None, a=1), ev("seat_claimed", 0)], 0, at=AT) == AppendResult(
        1, 2, replayed=False
    )
    assert store.append("g1", [ev("bid", 1, n=60)], 2, at=AT) == AppendResult(3, 3, replayed=False)
    assert store.read("g1") == [
        StoredEvent(1, "match_created", None, {"a": 1}, AT),
        StoredEvent(2, "seat_claimed", 0, {}, AT),
        StoredEvent(3, "bid", 1, {"n": 60}, AT),
    ]
    assert store.version("g1") == 3 and store.exists("g1")


def test_read_after_and_limit(store):
    store.append("g1", [ev(n=i) for i in range(1, 11)], 0)
    assert [e.version for e in store.read("g1", after=7)] == [8, 9, 10]
    assert [e.version for e in store.read("g1", after=2, limit=3)] == [3, 4, 5]
    assert store.read("g1", after=10) == []


def test_an_unknown_game_is_empty(store):
    assert store.read("nope") == [] and store.version("nope") == 0 and not store.exists("nope")
    assert store.load_since("nope", "e1") == Loaded(None, [], known=False, head=None)
    assert store.meta("nope") == {} and store.metas(["nope"]) == [{}]
    assert store.idempotent_result("nope", "k") is None


@pytest.mark.parametrize("bad_id", ["", "a b", "x" * 65, "g:1", "{g}"])
def test_a_game_id_outside_the_key_alphabet_is_refused(store, bad_id):
    # Matches.table turns this ValueError into UnknownGame.
    with pytest.raises(ValueError):
        store.append(bad_id, [ev()], 0)
    with pytest.raises(ValueError):
        store.load_since(bad_id, "e1")
    with pytest.raises(ValueError):
        store.read(bad_id)


@pytest.mark.parametrize(
    "events, expected",
    [([], 0), ([ev()], -1), ([ev()], True), ([ev()], "0"), ([{"type": ""}], 0), ([{"type": "x", "data": []}], 0)],
)
def test_bad_appends_are_refused_before_anything_is_written(store, events, expected):
    with pytest.raises(ValueError):
        store.append("g1", events, expected)
    assert not store.exists("g1")


# Optimistic concurrency.


def test_a_stale_expected_version_conflicts_and_writes_nothing(store):
    store.append("g1", [ev(), ev()], 0)
    with pytest.raises(VersionConflict) as conflict:
        store.append("g1", [ev()], 1)
    assert conflict.value.current_version == 2
    with pytest.raises(VersionConflict) as ahead:
        store.append("g1", [ev()], 5)
    assert ahead.value.current_version == 2
    assert store.version("g1") == 2


def test_a_new_game_is_at_version_zero(store):
    with pytest.raises(VersionConflict) as conflict:
        store.append("g1", [ev()], 1)
    assert conflict.value.current_version == 0
    assert not store.exists("g1")


# Idempotency.


def test_a_retry_with_its_key_is_answered_from_its_record(store):
    store.append("g1", [ev()], 0)
    first = store.append("g1", [ev(n=1), ev(n=2)], 1, idempotency_key="k-1", fingerprint="f")
    assert first == AppendResult(2, 3, replayed=False)
    # The retry's expected version is stale by now: its own first success moved the game on.
    assert store.append("g1", [ev(n=1), ev(n=2)], 1, idempotency_key="k-1", fingerprint="f") == AppendResult(
        2, 3, replayed=True
    )
    assert store.version("g1") == 3
    record = store.idempotent_result("g1", "k-1")
    assert (record.result, record.fingerprint) == (AppendResult(2, 3, replayed=True), "f")
    assert store.idempotent_result("g1", "k-2") is None


def test_a_key_reused_for_another_request_is_refused(store):
    store.append("g1", [ev()], 0, idempotency_key="k", fingerprint="f1")
    with pytest.raises(IdempotencyMismatch):
        store.append("g1", [ev()], 1, idempotency_key="k", fingerprint="f2")
    assert store.version("g1") == 1


def test_without_a_fingerprint_the_events_are_it(store):
    store.append("g1", [ev(n=1)], 0, idempotency_key="k")
    assert store.append("g1", [ev(n=1)], 0, idempotency_key="k").replayed
    with pytest.raises(IdempotencyMismatch):
        store.append("g1", [ev(n=2)], 0, idempotency_key="k")


def test_keys_are_per_game(store):
    store.append("g1", [ev()], 0, idempotency_key="k")
    assert not store.append("g2", [ev()], 0, idempotency_key="k").replayed


@pytest.mark.parametrize("key", ["", "with space", "x" * 256, "é"])
def test_an_idempotency_key_outside_printable_ascii_is_refused(store, key):
    with pytest.raises(ValueError):
        store.append("g1", [ev()], 0, idempotency_key=key)
    with pytest.raises(ValueError):
        store.idempotent_result("g1", key)


# The throttle: a writer's rate, checked in the append.


def test_the_throttle_refuses_a_write_beyond_its_rate_and_writes_nothing(store):
    seat = Throttle("seat:0", 2, 3600)
    store.append("g1", [ev()], 0, throttle=seat)
    store.append("g1", [ev()], 1, throttle=seat)
    with pytest.raises(Throttled) as throttled:
        store.append("g1", [ev()], 2, throttle=seat)
    assert 0 < throttled.value.retry_after_s <= 1800
    assert store.version("g1") == 2
    store.append("g1", [ev()], 2, throttle=Throttle("seat:1", 2, 3600))  # another writer's own rate
    store.append("g2", [ev()], 0, throttle=seat)  # and another game's


def test_a_retry_is_answered_before_the_throttle(store):
    seat = Throttle("seat:0", 1, 3600)
    store.append("g1", [ev()], 0, idempotency_key="k", throttle=seat)
    assert store.append("g1", [ev()], 0, idempotency_key="k", throttle=seat).replayed


def test_an_append_that_conflicts_still_uses_up_its_rate(store):
    # The script checks the rate before the version and keeps what it counted.
    seat = Throttle("seat:0", 1, 3600)
    store.append("g1", [ev()], 0)
    with pytest.raises(VersionConflict):
        store.append("g1", [ev()], 0, throttle=seat)
    with pytest.raises(Throttled):
        store.append("g1", [ev()], 1, throttle=seat)


# The hash chain and loading.


def test_each_entry_chains_onto_the_one_before(store):
    first = store.append("g1", [ev(n=1), ev(n=2)], 0, at=AT)
    second = store.append("g1", [ev(n=3)], 2, at=AT)
    events = store.read("g1")
    digest = genesis_hash("g1")
    for entry in store.raw_entries("g1"):
        digest = entry_hash(digest, entry.version, entry.payload)
        assert entry.hash == digest == events[entry.version - 1].hash
    assert first.head_hash == events[1].hash and second.head_hash == events[2].hash
    assert store.head("g1") == (3, second.head_hash)
    assert store.load_since("g1", "e1").head == (3, second.head_hash)


def test_a_load_starts_from_the_snapshot_of_its_engine_version(store):
    store.append("g1", [ev(n=1), ev(n=2)], 0, at=AT)
    store.append("g1", [ev(n=3)], 2, at=AT, snapshot=("e1", {"score": [1, 2]}))
    store.append("g1", [ev(n=4)], 3, at=AT)
    loaded = store.load_since("g1", "e1")
    assert loaded.snapshot == Snapshot(3, "e1", {"score": [1, 2]}) and not loaded.known
    assert [e.version for e in loaded.events] == [4]
    loaded.snapshot.state["score"].append(3)  # the caller's copy
    assert store.load_since("g1", "e1").snapshot.state == {"score": [1, 2]}
    other = store.load_since("g1", "e2")  # a snapshot of other code is ignored
    assert other.snapshot is None and [e.version for e in other.events] == [1, 2, 3, 4]


def test_a_load_from_a_known_entry_brings_only_what_follows_it(store):
    store.append("g1", [ev(n=1), ev(n=2)], 0, snapshot=("e1", {"s": 2}))
    second = store.read("g1")[1]
    head = store.append("g1", [ev(n=3)], 2).head_hash
    after = store.load_since("g1", "e1", (2, second.hash))
    assert after.known and [e.version for e in after.events] == [3] and after.head == (3, head)
    at_head = store.load_since("g1", "e1", (3, head))
    assert at_head.known and at_head.events == []
    stranger = store.load_since("g1", "e1", (2, "0" * 40))  # not this history: from the snapshot
    assert not stranger.known and stranger.snapshot.version == 2 and [e.version for e in stranger.events] == [3]


# Meta and the lobby.


def test_the_first_append_records_the_creation_time_and_meta_fields_follow(store):
    store.append("g1", [ev()], 0, at=AT, meta={"status": "waiting", "game": "smear", "players": "4"})
    assert store.meta("g1") == {
        "created": AT,
        "created_ms": str(AT_MS),
        "status": "waiting",
        "game": "smear",
        "players": "4",
    }
    store.append("g1", [ev()], 1, at="2026-12-01T00:00:00Z", meta={"status": "active"})
    store.append("g1", [ev()], 2)
    assert store.meta("g1")["created"] == AT and store.meta("g1")["status"] == "active"
    store.append("g2", [ev()], 0, at=AT)
    assert store.metas(["g2", "g1"]) == [{"created": AT, "created_ms": str(AT_MS)}, store.meta("g1")]


@pytest.mark.parametrize("meta", [{"status": "lost"}, {"created_ms": "soon"}, {"n": 1.5}, {"n": True}])
def test_bad_meta_is_refused_before_anything_is_written(store, meta):
    with pytest.raises(ValueError):
        store.append("g1", [ev()], 0, meta=meta)
    assert not store.exists("g1")


def test_a_game_is_in_the_lobby_of_its_status_only(store):
    store.append("g1", [ev()], 0, meta={"status": "waiting"})
    store.append("g2", [ev()], 0, meta={"status": "waiting"})
    assert sorted(store.lobby("waiting", 0, 10)[0]) == ["g1", "g2"]
    store.append("g1", [ev()], 1, meta={"status": "active"})
    assert store.lobby("waiting", 0, 10) == (["g2"], 1)
    assert store.lobby("active", 0, 10) == (["g1"], 1)
    store.append("g1", [ev()], 2, meta={"status": "finished"})
    assert store.lobby("active", 0, 10) == ([], 0) and store.lobby("finished", 0, 10) == (["g1"], 1)
    store.append("g3", [ev()], 0)  # no status: in no lobby
    assert sum(store.lobby(status, 0, 10)[1] for status in ("waiting", "active", "finished")) == 2


def _lobby_of(store, rows: list[tuple[str, int]]) -> None:
    for game_id, created_ms in rows:
        store.append(game_id, [ev()], 0, meta={"status": "waiting", "created_ms": str(created_ms)})


def test_lobby_pages_are_newest_first_ties_by_greater_id(store):
    _lobby_of(store, [("a", 1000), ("b", 3000), ("c", 2000), ("d", 2000), ("e", 500)])
    assert store.lobby("waiting", 0, 2) == (["b", "d"], 5)
    assert store.lobby("waiting", 2, 2) == (["c", "a"], 5)
    assert store.lobby("waiting", 4, 2) == (["e"], 5)
    assert store.lobby("waiting", 5, 2) == ([], 5)


def test_lobby_after_pages_through_ties_without_losing_any(store):
    _lobby_of(store, [("a", 1000), ("b", 2000), ("c", 2000), ("d", 2000), ("e", 3000)])
    assert store.lobby_after("waiting", None, 2) == [("e", 3000), ("d", 2000)]
    assert store.lobby_after("waiting", (2000, "d"), 2) == [("c", 2000), ("b", 2000)]
    assert store.lobby_after("waiting", (2000, "b"), 2) == [("a", 1000)]
    assert store.lobby_after("waiting", (1000, "a"), 2) == []
    assert store.lobby_after("active", None, 5) == []


def test_lobby_arguments_are_checked(store):
    for call in (
        lambda: store.lobby("lost", 0, 1),
        lambda: store.lobby("waiting", -1, 1),
        lambda: store.lobby("waiting", 0, 0),
        lambda: store.lobby_after("lost", None, 1),
    ):
        with pytest.raises(ValueError):
            call()


# The operators' feed.


def test_the_feed_lists_every_appended_event_in_order(store):
    store.append("g1", [ev("match_created", None), ev("seat_claimed")], 0)
    store.append("g2", [ev("match_created", None)], 0)
    store.append("g1", [ev("bid")], 2)
    feed = store.feed()
    assert [(e.game_id, e.version, e.type) for e in feed] == [
        ("g1", 1, "match_created"),
        ("g1", 2, "seat_claimed"),
        ("g2", 1, "match_created"),
        ("g1", 3, "bid"),
    ]
    assert [(e.game_id, e.version) for e in store.feed(after=feed[1].id, count=1)] == [("g2", 1)]
    assert store.feed(after=feed[-1].id) == []
    with pytest.raises(ValueError):
        store.feed(after="latest")


# The audit, the export and the import (app/audit.py).


def _played_match(store) -> str:
    """A Smear match of bots, played to its end through the use cases on this store."""
    jobs = InMemoryJobQueue()
    matches = Matches(store, jobs)
    game_id = matches.create_match("smear", {}, [{"kind": "bot"}] * 4, seed=11).game_id
    jobs.run_all(
        lambda job: (
            matches.advance(job.game_id, job.version)
            if job.kind == "advance"
            else matches.bot_turn(job.game_id, job.version, job.seat)
        )
    )
    return game_id


def test_a_match_played_on_the_store_audits_clean(store):
    game_id = _played_match(store)
    report = audit.audit_game(store, game_id)
    assert report["ok"] and report["checks"]["replay"]["match_result"] == "reproduced"
    assert report["events"] == store.version(game_id) and report["head"]["version"] == store.version(game_id)
    with pytest.raises(audit.NotFound):
        audit.audit_game(store, "nope")


def test_an_export_imports_as_it_was_and_only_once(store):
    game_id = _played_match(store)
    lines = list(audit.export_lines(store, game_id))
    entries, head, meta = store.raw_entries(game_id), store.head(game_id), store.meta(game_id)
    with pytest.raises(GameExists):
        audit.import_lines(store, lines)
    store.delete(game_id)
    assert not store.exists(game_id) and store.lobby("finished", 0, 10) == ([], 0)
    assert audit.import_lines(store, lines) == (game_id, len(entries))
    assert store.raw_entries(game_id) == entries and store.head(game_id) == head and store.meta(game_id) == meta
    assert store.lobby("finished", 0, 10) == ([game_id], 1)
    assert audit.audit_game(store, game_id)["ok"]


@pytest.mark.parametrize(
    "entries",
    [
        [],
        [RawEntry(0, "{}", None, "0" * 40)],
        [RawEntry(1, "{}", None, "xyz")],
        [RawEntry(2, "{}", None, "0" * 40), RawEntry(1, "{}", None, "0" * 40)],
    ],
)
def test_an_import_of_entries_out_of_shape_is_refused(store, entries):
    with pytest.raises(ValueError):
        store.import_entries("g1", entries)
    assert not store.exists("g1")


# Both stores, the same operations: the same answers (hypothesis draws the operations).

GAMES = ["g1", "g2"]
SEAT = Throttle("seat:0", 1, 3600)  # one write an hour: the second within the test is refused
appends = st.tuples(
    st.just("append"),
    st.sampled_from(GAMES),
    st.lists(st.tuples(st.sampled_from(["play", "bid", "dealt"]), st.integers(0, 3)), min_size=1, max_size=3),
    st.sampled_from([0, 0, 0, 0, -1, 1, -9]),
    st.sampled_from([None, "k1", "k2"]),
    st.sampled_from([None, "f1", "f2"]),
    st.sampled_from([None, "waiting", "active", "finished"]),
    st.sampled_from([AT, "2026-11-30T03:04:06Z"]),
    st.booleans(),
    st.sampled_from([None, SEAT]),
)
reads = st.one_of(
    st.tuples(st.just("read"), st.sampled_from(GAMES), st.integers(0, 7), st.sampled_from([None, 1, 3])),
    st.tuples(st.just("load_since"), st.sampled_from(GAMES), st.sampled_from([None, 1, 2, 5]), st.booleans()),
    st.tuples(st.just("idempotent_result"), st.sampled_from(GAMES), st.sampled_from(["k1", "k2"])),
    st.tuples(
        st.just("lobby"), st.sampled_from(["waiting", "active", "finished"]), st.integers(0, 3), st.integers(1, 3)
    ),
    st.tuples(
        st.just("lobby_after"),
        st.sampled_from(["waiting", "active", "finished"]),
        st.sampled_from([None, (AT_MS, "g2"), (AT_MS, "g9"), (AT_MS + 1000, "g1")]),
        st.integers(1, 3),
    ),
)


def _observe(store, op) -> object:
    """What a store answers to one operation, or which refusal (with its version, if it has one)."""
    try:
        return _answer(store, op)
    except (ValueError, VersionConflict, IdempotencyMismatch, Throttled) as refused:
        return type(refused).__name__, getattr(refused, "current_version", None)


def _answer(store, op) -> object:
    kind, *args = op
    if kind == "append":
        # Mostly the current version, sometimes a stale one, one ahead, or a negative one (refused).
        game_id, events, offset, key, fingerprint, status, at, snapshot, throttle = args
        expected = store.version(game_id) + offset
        return store.append(
            game_id,
            [ev(t, 0, n=n) for t, n in events],
            expected,
            idempotency_key=key,
            fingerprint=fingerprint if key else None,
            at=at,
            throttle=throttle,
            meta={"status": status} if status else None,
            snapshot=("e1", {"events": len(events)}) if snapshot else None,
        )
    if kind == "read":
        return [(e, e.hash) for e in store.read(args[0], after=args[1], limit=args[2])]
    if kind == "load_since":
        game_id, version, known = args
        stored = {e.version: e.hash for e in store.read(game_id)}
        position = None if version is None else (version, stored.get(version, "0" * 40) if known else "0" * 40)
        return store.load_since(game_id, "e1", position)
    if kind == "idempotent_result":
        return store.idempotent_result(*args)
    return getattr(store, kind)(*args)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(st.one_of(appends, appends, reads), min_size=10, max_size=40))
def test_both_stores_answer_every_sequence_of_operations_alike(r, ops):
    r.flushall()
    stores = (EventStore(r), InMemoryEventStore())
    for op in ops:
        on_redis, in_memory = (_observe(store, op) for store in stores)
        assert on_redis == in_memory, op
    for game_id in GAMES:
        redis_store, memory_store = stores
        assert redis_store.raw_entries(game_id) == memory_store.raw_entries(game_id)
        assert redis_store.head(game_id) == memory_store.head(game_id)
        assert redis_store.meta(game_id) == memory_store.meta(game_id)
    feeds = [[(e.game_id, e.version, e.type) for e in store.feed(count=1000)] for store in stores]
    assert feeds[0] == feeds[1]


# The job queue.


class RqHarness:
    def __init__(self, r: redis.Redis):
        self.r = r
        self.queue = RqJobQueue(r, "contract")

    def fail(self, job: Job) -> None:
        """As rq records a job whose function raised: out of the queue, failed, in the failed registry."""
        failed = RqJob.fetch(job_id(job), connection=self.r)
        self.queue.queue.remove(failed)
        failed.set_status(JobStatus.FAILED)
        FailedJobRegistry(queue=self.queue.queue).add(failed, exc_string="ZeroDivisionError")

    def unreachable(self) -> RqJobQueue:
        with socket.socket() as s:  # a loopback port nobody listens on
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        return RqJobQueue(redis.Redis(host="127.0.0.1", port=port, retry=None), "contract")


class MemoryHarness:
    def __init__(self) -> None:
        self.queue = InMemoryJobQueue()

    def fail(self, job: Job) -> None:
        self.queue.fail(job)

    def unreachable(self) -> InMemoryJobQueue:
        queue = InMemoryJobQueue()
        queue.reachable = False
        return queue


@pytest.fixture(params=["rq", "memory"])
def harness(request):
    if request.param == "rq":
        return RqHarness(request.getfixturevalue("r"))
    return MemoryHarness()


BOT = Job("bot", "g1", 3, 1)
ADVANCE = Job("advance", "g1", 3)


def test_a_job_is_queued_once_per_kind_game_version_and_seat(harness):
    queue = harness.queue
    assert queue.enqueue([BOT, ADVANCE]) == 2
    assert queue.enqueue([BOT]) == 0
    assert queue.enqueue([Job("bot", "g1", 3, 1, delay_s=5.0)]) == 0  # the delay is not part of it
    assert (
        queue.enqueue(
            [Job("bot", "g1", 3, 2), Job("bot", "g1", 4, 1), Job("bot", "g2", 3, 1), Job("timeout", "g1", 3, 1)]
        )
        == 4
    )
    assert queue.depths() == {"queued": 6, "started": 0, "scheduled": 0, "deferred": 0, "failed": 0}


def test_a_delayed_job_is_scheduled_not_queued(harness):
    queue = harness.queue
    assert queue.enqueue([Job("timeout", "g1", 3, 0, delay_s=60.0), ADVANCE]) == 2
    assert queue.depths() == {"queued": 1, "started": 0, "scheduled": 1, "deferred": 0, "failed": 0}


def test_repair_queues_a_missing_job_and_leaves_a_waiting_one(harness):
    queue = harness.queue
    queue.enqueue([BOT])
    assert queue.repair([BOT, ADVANCE]) == 1
    assert queue.repair([BOT, ADVANCE]) == 0
    assert queue.depths()["queued"] == 2


def test_repair_queues_a_failed_job_again(harness):
    queue = harness.queue
    queue.enqueue([BOT])
    harness.fail(BOT)
    assert queue.depths() == {"queued": 0, "started": 0, "scheduled": 0, "deferred": 0, "failed": 1}
    assert queue.enqueue([BOT]) == 0  # a failed job still holds its id against a plain enqueue
    assert queue.repair([BOT]) == 1
    assert queue.depths() == {"queued": 1, "started": 0, "scheduled": 0, "deferred": 0, "failed": 0}
    assert queue.repair([BOT]) == 0


def test_an_unreachable_queue_raises_the_builtin_connection_error(harness):
    with pytest.raises(ConnectionError):
        harness.unreachable().enqueue([BOT])
