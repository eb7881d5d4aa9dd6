"""Growth figures: the closed-loop load with 1,000 / 10,000 / 100,000 finished games stored, Redis memory
as they pile up, and the view GET of the longest game against one just started.

Each number of stored games gets a stack of its own (Redis, API, worker), all up at once, and the same
clients move from one stack to the next every slice (bench/load.py `interleave`), the order reversed every
other round: a slowdown of the machine falls on every size alike, as in the service/bare comparison,
instead of reading as growth. (Measured one after the other in 10-second runs, the same code gave +29%
once and -21% the next; in 4-second slices the per-round figure still ranged from -28% to +83%.)
"""

from __future__ import annotations

import statistics
import time
from contextlib import ExitStack
from dataclasses import dataclass, field

import redis

from app.matches import TABLE_FOLDING
from bench import figures, load, seeding
from bench.figures import percentile
from bench.stack import Stack
from events.repository import Repository
from events.store import EventStore

AOF_WAIT_S = 120.0
WARM_UP_S = 2.0


@dataclass
class GrowthRow:
    stored: int
    used_memory: int
    seed_s: float
    load: load.LoadStats  # all slices together
    slices: list[load.LoadStats] = field(default_factory=list)
    elsewhere_s: float = 0.0  # CPU spent outside this stack and the load generator during its slices

    def post_p50(self) -> float:
        return percentile(self.load.post_s, 50) if self.load.post_s else float("nan")


def template(store: EventStore, seed: int = 66) -> str:
    """A finished `2p24` match played in process: what the stored games are copies of."""
    return seeding.play(store, "sixty-six", {"variant": "2p24"}, 2, seed=seed).game_id


def growth(
    sizes: list[int], clients: int, seconds: float, rounds: int = 24
) -> tuple[list[GrowthRow], figures.MemoryStats]:
    """`seconds` of load per size, in `rounds` rounds of a slice per size's stack. Returns the
    rows and the Redis memory of the stored match (in the largest stack)."""
    with ExitStack() as running:
        rows, stacks = [], []
        for size in sizes:
            stack = running.enter_context(Stack())
            client = redis.Redis.from_url(stack.redis_url)
            store = EventStore(client)
            source = template(store)  # stored game number one
            seed_s = seeding.copy_finished(client, store, source, size - 1)
            stacks.append((stack, client, source))
            rows.append(GrowthRow(size, 0, seed_s, load.LoadStats("service", clients)))
        for row, (_, client, _) in zip(rows, stacks):
            _rewrite_aof(client)
            row.used_memory = client.info("memory")["used_memory"]
        targets = [load.Target.of(stack, label=f"{row.stored:,} stored") for row, (stack, _, _) in zip(rows, stacks)]
        load.interleave(targets, clients, WARM_UP_S, 1, measure=False)  # not counted: first requests, pools, scripts
        for row, run in zip(rows, load.interleave(targets, clients, seconds / rounds, rounds)):
            row.load, row.slices, row.elsewhere_s = run.total, run.slices, run.elsewhere_s
        largest, _, source = stacks[-1]
        memory = figures.memory(largest, [source])
        for _, client, _ in stacks:
            client.close()
        return rows, memory


def round_growth(rows: list[GrowthRow]) -> list[float]:
    """POST p50 growth, largest over smallest size, within each round (how much the figure moves)."""
    first, last = rows[0], rows[-1]
    return [
        percentile(b.post_s, 50) / percentile(a.post_s, 50) - 1
        for a, b in zip(first.slices, last.slices)
        if a.post_s and b.post_s
    ]


def _rewrite_aof(client: redis.Redis) -> None:
    """Rewrites the append-only file now and waits for it: a rewrite (a fork writing the whole data set)
    that Redis started by itself during the load, as the file doubles, would take a core from it."""
    deadline = time.monotonic() + AOF_WAIT_S
    _await_no_rewrite(client, deadline)
    try:
        client.bgrewriteaof()
    except redis.ResponseError:  # one is already scheduled
        pass
    time.sleep(0.2)
    _await_no_rewrite(client, deadline)


def _await_no_rewrite(client: redis.Redis, deadline: float) -> None:
    while time.monotonic() < deadline:
        persistence = client.info("persistence")
        if not (persistence.get("aof_rewrite_in_progress") or persistence.get("aof_rewrite_scheduled")):
            return
        time.sleep(0.2)


@dataclass
class ViewStats:
    label: str
    events: int
    tail: int  # events after the latest snapshot
    http_s: list[float]  # GET over HTTP (the API holds the table after the first)
    cold_s: float  # Repository.get without a held table: snapshot + tail, in process


def long_and_new(stack: Stack, repetitions: int, players: int = 8, seed: int = 56) -> list[ViewStats]:
    """An 8-player Fifty-Six match in its last round, and one just started, both by seat 0's token."""
    client = redis.Redis.from_url(stack.redis_url)
    store = EventStore(client)
    try:
        full = seeding.play(store, "fifty-six", {}, players, seed=seed)
        games = [
            (
                f"longest: {players}p fifty-six, last round",
                seeding.play(store, "fifty-six", {}, players, seed=seed, stop=_after_deal(full.deals, 16)),
            ),
            (
                f"new: {players}p fifty-six, first round",
                seeding.play(store, "fifty-six", {}, players, seed=seed, stop=_after_deal(1, 16)),
            ),
        ]
        conn = load.Connection(stack.base_url)
        timings: dict[str, list[float]] = {label: [] for label, _ in games}
        for _ in range(repetitions):  # alternating, so both see the same background
            for label, table in games:
                headers = load.bearer(seeding.token(table.game_id, 0))
                t0 = time.perf_counter()
                status, _ = conn.request("GET", f"/v1/games/{table.game_id}", headers=headers)
                timings[label].append(time.perf_counter() - t0)
                assert status == 200, status
        conn.close()
        cold = Repository(store, TABLE_FOLDING, cache_size=0)
        out = []
        for label, table in games:
            _, tail = store.load(table.game_id, TABLE_FOLDING.engine_version)
            cold_s = statistics.median(
                _time(lambda gid=table.game_id: cold.get(gid)) for _ in range(max(3, repetitions // 10))
            )
            out.append(ViewStats(label, table.version, len(tail), timings[label], cold_s))
        return out
    finally:
        client.close()


def _after_deal(deal: int, moves: int):
    """A stop condition: `moves` versions into deal number `deal`."""
    seen: dict[str, int] = {}

    def stop(table) -> bool:
        if table.deals < deal:
            return False
        start = seen.setdefault("version", table.version)
        return table.version >= start + moves

    return stop


def _time(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def p99_ms(values: list[float]) -> float:
    return percentile(values, 99) * 1000
