"""Tables loaded from a snapshot plus later events equal tables replayed from the first event."""

from __future__ import annotations

from dataclasses import replace

from app.matches import TABLE_FOLDING
from events.repository import Repository
from events.store import EventStore
from games import table as tables
from tests.support.talon import matches_on, run_jobs


def replay_from_scratch(store: EventStore, game_id: str) -> tables.Table:
    table = None
    for event in store.read(game_id):
        table = tables.evolve(table, {"type": event.type, "actor": event.actor, "data": event.data})
    return table


def test_snapshot_plus_tail_equals_full_replay(r, redis_url):
    talon = matches_on(r)
    created = talon.create_match("sixty-six", {}, [{"kind": "bot"}, {"kind": "bot", "level": "random"}], seed=11)
    run_jobs(redis_url)
    store = talon.store
    snapshot, tail = store.load(created.game_id, TABLE_FOLDING.engine_version)
    assert snapshot is not None and snapshot.version > 1  # taken at a deal
    assert len(tail) < store.version(created.game_id)
    loaded = talon.table(created.game_id)
    assert tables.dump(loaded) == tables.dump(replay_from_scratch(store, created.game_id))
    assert loaded.status == "finished"


def test_snapshot_from_other_engine_code_is_ignored(r, redis_url):
    talon = matches_on(r)
    created = talon.create_match("sixty-six", {}, [{"kind": "bot"}, {"kind": "bot"}], seed=5)
    run_jobs(redis_url)
    other_code = Repository(talon.store, replace(TABLE_FOLDING, engine_version="some-older-engine"))
    snapshot, events = talon.store.load(created.game_id, "some-older-engine")
    assert snapshot is None and len(events) == talon.store.version(created.game_id)
    assert tables.dump(other_code.get(created.game_id)) == tables.dump(talon.table(created.game_id))


def test_the_same_seed_deals_the_same_match(r, redis_url):
    talon = matches_on(r)
    seats = [{"kind": "bot"}, {"kind": "bot", "level": "random"}]
    first = talon.create_match("sixty-six", {"first_dealer": 1}, seats, seed=42)
    second = talon.create_match("sixty-six", {"first_dealer": 1}, seats, seed=42)
    run_jobs(redis_url)

    def strip(events):
        return [(e.type, e.actor, e.data) for e in events if e.type != "match_created"]

    assert strip(talon.store.read(first.game_id)) == strip(talon.store.read(second.game_id))
