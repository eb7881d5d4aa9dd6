"""Engine figures, in process: replaying a match's events, from the first and from the latest snapshot,
and legal-action computations per second. The matches are played by bench.seeding.play into Redis."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from app.matches import TABLE_FOLDING
from events.repository import Repository
from events.store import EventStore
from games import replay
from games import table as tables

# (label, game, options, seats) of the matches measured: each game's longest usual form.
GAMES = [
    ("sixty-six 2p24", "sixty-six", {"variant": "2p24"}, 2),
    ("fifty-six 8p", "fifty-six", {}, 8),
    ("smear 4p", "smear", {}, 4),
]


@dataclass
class EngineStats:
    label: str
    events: int
    deals: int
    read_s: float  # XRANGE + decode of every event
    fold_s: float  # games.table.evolve over every event
    snapshot_s: float  # Repository.get without a held state: LOAD (snapshot + tail), decode, fold
    tail: int  # events after the latest snapshot
    legal_per_s: float
    legal_states: int


def median_time(fn, repetitions: int) -> float:
    times = []
    for _ in range(repetitions):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure(store: EventStore, label: str, game_id: str, repetitions: int, legal_budget: int = 3000) -> EngineStats:
    stored = store.read(game_id)
    events = [{"type": e.type, "actor": e.actor, "data": e.data} for e in stored]

    final = replay.fold(events)
    cold = Repository(store, TABLE_FOLDING, cache_size=0)
    assert tables.dump(cold.get(game_id)) == tables.dump(final), "snapshot + tail differs from a full replay"
    snapshot, tail = store.load(game_id, TABLE_FOLDING.engine_version)
    return EngineStats(
        label,
        len(events),
        final.deals,
        read_s=median_time(lambda: store.read(game_id), repetitions),
        fold_s=median_time(lambda: replay.fold(events), repetitions),
        snapshot_s=median_time(lambda: cold.get(game_id), repetitions),
        tail=len(tail),
        **_legal_rate(events, legal_budget),
    )


def _legal_rate(events: list[dict], budget: int) -> dict:
    """legal_actions for each seat to act, over the match's states (at most `budget` of them)."""
    asks, table = [], None
    for event in events:
        table = tables.evolve(table, event)
        if table.status == "active":
            asks += [(table.rules, table.state, seat) for seat in table.rules.to_act(table.state)]
    step = max(1, len(asks) // budget)
    asks = asks[::step]
    t0 = time.perf_counter()
    for rules, state, seat in asks:
        rules.legal_actions(state, seat)
    elapsed = time.perf_counter() - t0
    return {"legal_per_s": len(asks) / elapsed if elapsed else 0.0, "legal_states": len(asks)}
