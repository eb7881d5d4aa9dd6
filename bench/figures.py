"""The measurements. Each function takes the running Stack and returns plain numbers for the table.

- `play_matches`: N seeded `2p24` matches, a human choosing random legal actions against a `basic` bot,
  played over HTTP to the end; the operator log of each gives the events per match and per deal.
- `memory`: MEMORY USAGE of each finished match's keys (events, meta, snap, idempotency records).
- `replay`: rebuilding a finished match from its events (EventStore.read + games.table.evolve, no
  snapshot), and through Repository.get (latest snapshot + the events after it).
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

import redis
import requests

from app.matches import TABLE_FOLDING
from bench.stack import Stack
from events.repository import Repository
from events.store import EventStore
from games import table as tables

VARIANT = "2p24"
MATCH_TIMEOUT_S = 60.0
WAIT_S = 5  # ?wait= long-poll while the bot or the worker moves


def may_start(index: int, budget_end: float) -> bool:
    """Whether the per-game benches start their `index`-th match of a kind: the first one whatever the
    budget (a slow host may spend a small budget on the stack's start alone), a later one only before
    `budget_end` (time.monotonic)."""
    return index == 0 or time.monotonic() <= budget_end


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def summary(values, fmt: str = "g") -> str:
    """ "median M, min A, max B" of the values, each formatted with `fmt`; "-" when there are none."""
    if not values:
        return "-"
    return f"median {statistics.median(values):{fmt}}, min {min(values):{fmt}}, max {max(values):{fmt}}"


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def spread(values: list[float], fmt: str) -> str:
    """Per-round values: all of them when few, else their quartiles (how much the host moved a figure)."""
    if len(values) <= 8:
        return ", ".join(fmt.format(v) for v in values)
    q1, median, q3 = statistics.quantiles(values, n=4)
    return (
        f"median {fmt.format(median)}, middle half {fmt.format(q1)} .. {fmt.format(q3)}, "
        f"range {fmt.format(min(values))} .. {fmt.format(max(values))} over {len(values)} rounds"
    )


class Client:
    """A thin HTTP client for one match, as a careful player writes it (If-Match, Idempotency-Key)."""

    def __init__(self, stack: Stack, session: requests.Session):
        self.stack, self.http = stack, session

    def url(self, path: str) -> str:
        return self.stack.base_url + path

    def create(self, seats: list[dict], seed: int | None = None) -> str:
        body = {"game": "sixty-six", "options": {"variant": VARIANT}, "seats": seats}
        headers = {}
        if seed is not None:
            body["seed"] = seed
            headers = bearer(self.stack.operator_token)
        response = self.http.post(self.url("/v1/games"), json=body, headers=headers, timeout=10)
        response.raise_for_status()
        return response.json()["game_id"]

    def claim(self, game_id: str, name: str) -> str:
        response = self.http.post(self.url(f"/v1/games/{game_id}/players"), json={"name": name}, timeout=10)
        response.raise_for_status()
        return response.json()["token"]

    def view(self, game_id: str, token: str | None, after_version: int | None = None) -> dict | None:
        """The seat's view (a spectator's without a token); with `after_version`, long-polls until the game
        moves past it (None: it did not)."""
        params, headers = {}, bearer(token) if token else {}
        if after_version is not None:
            params["wait"] = WAIT_S
            headers["If-None-Match"] = f'"{after_version}"'
        response = self.http.get(self.url(f"/v1/games/{game_id}"), params=params, headers=headers, timeout=WAIT_S + 10)
        if response.status_code == 304:
            return None
        response.raise_for_status()
        return response.json()

    def act(self, game_id: str, token: str, view: dict, action: dict, key: str) -> dict:
        response = self.http.post(
            self.url(f"/v1/games/{game_id}/actions"),
            json=action,
            timeout=10,
            headers={**bearer(token), "If-Match": f'"{view["version"]}"', "Idempotency-Key": key},
        )
        if response.status_code != 201:
            raise RuntimeError(f"POST {action} -> {response.status_code} {response.text}")
        return response.json()

    def operator_log(self, game_id: str) -> list[dict]:
        events, cursor = [], None
        for _ in range(1000):
            params = {"limit": 500, **({"cursor": cursor} if cursor else {})}
            response = self.http.get(
                self.url(f"/v1/ops/games/{game_id}/events"),
                params=params,
                headers=bearer(self.stack.operator_token),
                timeout=10,
            )
            response.raise_for_status()
            page = response.json()
            events += page["events"]
            cursor = page["next_cursor"]
            if not page["has_more"]:
                return events
        raise RuntimeError("operator log did not end")


# ---------------------------------------------------------------------------------------------------
# 1. Events in a typical match


@dataclass
class MatchStats:
    kind: str
    game_ids: list[str] = field(default_factory=list)
    events_per_match: list[int] = field(default_factory=list)
    deals_per_match: list[int] = field(default_factory=list)
    events_per_deal: list[int] = field(default_factory=list)  # from `dealt` to `round_scored`, inclusive
    human_actions: list[int] = field(default_factory=list)
    types: Counter = field(default_factory=Counter)
    seconds: float = 0.0


MATCH_KINDS = {
    "random human vs basic bot": "human",
    "basic bot vs basic bot": "bots",
}


def play_matches(stack: Stack, n: int, kind: str) -> MatchStats:
    """N seeded matches of one kind (MATCH_KINDS), played to the end one after the other."""
    stats = MatchStats(kind)
    started = time.perf_counter()
    with requests.Session() as session:
        client = Client(stack, session)
        for i in range(n):
            if MATCH_KINDS[kind] == "human":
                game_id, actions = _play_one(client, seed=1000 + i, rng=random.Random(i))
            else:
                game_id, actions = _watch_bots(client, seed=2000 + i), 0
            log = client.operator_log(game_id)
            assert [e["version"] for e in log] == list(range(1, len(log) + 1))
            stats.game_ids.append(game_id)
            stats.events_per_match.append(len(log))
            stats.human_actions.append(actions)
            stats.types.update(e["type"] for e in log)
            deal_sizes = _deal_sizes(log)
            stats.deals_per_match.append(len(deal_sizes))
            stats.events_per_deal += deal_sizes
    stats.seconds = time.perf_counter() - started
    return stats


def _play_one(client: Client, seed: int, rng: random.Random) -> tuple[str, int]:
    """Seat 0 picks a random legal action whenever it may act; it long-polls while the bot plays."""
    game_id = client.create([{"kind": "human"}, {"kind": "bot", "level": "basic"}], seed=seed)
    token = client.claim(game_id, "bench")
    view, actions = client.view(game_id, token), 0
    deadline = time.monotonic() + MATCH_TIMEOUT_S
    while view["status"] != "finished":
        if time.monotonic() > deadline:
            raise RuntimeError(f"match {game_id} did not finish within {MATCH_TIMEOUT_S} s")
        if view["legal_actions"]:
            view = client.act(game_id, token, view, rng.choice(view["legal_actions"]), key=f"a{actions}")
            actions += 1
        else:
            view = client.view(game_id, token, after_version=view["version"]) or view
    return game_id, actions


def _watch_bots(client: Client, seed: int) -> str:
    """Two basic bots play; a spectator long-polls until the match is over."""
    game_id = client.create([{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "basic"}], seed=seed)
    view = client.view(game_id, None)
    deadline = time.monotonic() + MATCH_TIMEOUT_S
    while view["status"] != "finished":
        if time.monotonic() > deadline:
            raise RuntimeError(f"match {game_id} did not finish within {MATCH_TIMEOUT_S} s")
        view = client.view(game_id, None, after_version=view["version"]) or view
    return game_id


def _deal_sizes(log: list[dict]) -> list[int]:
    sizes, start = [], None
    for i, event in enumerate(log):
        if event["type"] == "dealt":
            start = i
        elif event["type"] == "round_scored" and start is not None:
            sizes.append(i - start + 1)
            start = None
    return sizes


# ---------------------------------------------------------------------------------------------------
# 2. Redis memory per finished match


@dataclass
class MemoryStats:
    per_match: list[int] = field(default_factory=list)  # events + meta + snap + idempotency records
    by_part: dict[str, list[int]] = field(default_factory=dict)
    idem_records: list[int] = field(default_factory=list)
    rq_jobs: list[int] = field(default_factory=list)  # rq job hashes still held (result_ttl)
    feed_bytes: int = 0
    feed_entries: int = 0


def memory(stack: Stack, game_ids: list[str], prefix: str = "talon") -> MemoryStats:
    client = redis.Redis.from_url(stack.redis_url)
    stats = MemoryStats(by_part={"events": [], "meta": [], "snap": [], "idem": []})
    try:
        for game_id in game_ids:
            parts = dict.fromkeys(stats.by_part, 0)
            keys = list(client.scan_iter(match=f"{prefix}:{{g:{game_id}}}:*", count=1000))
            idem = 0
            for key in keys:
                part = key.decode().rsplit("}:", 1)[1]
                kind = "idem" if part.startswith("idem:") else part
                idem += kind == "idem"
                parts[kind] = parts.get(kind, 0) + (client.memory_usage(key, samples=0) or 0)
            for kind, used in parts.items():
                stats.by_part.setdefault(kind, []).append(used)
            stats.per_match.append(sum(parts.values()))
            stats.idem_records.append(idem)
            jobs = list(client.scan_iter(match=f"rq:job:*-{game_id}-*", count=1000))
            stats.rq_jobs.append(sum(client.memory_usage(key, samples=0) or 0 for key in jobs))
        stats.feed_bytes = client.memory_usage(f"{prefix}:feed", samples=0) or 0
        stats.feed_entries = client.xlen(f"{prefix}:feed")
    finally:
        client.close()
    return stats


# ---------------------------------------------------------------------------------------------------
# 3. Replaying a finished match


@dataclass
class ReplayStats:
    events: list[int] = field(default_factory=list)
    read_s: list[float] = field(default_factory=list)  # per match: median of EventStore.read
    fold_s: list[float] = field(default_factory=list)  # per match: median of folding with table.evolve
    full_s: list[float] = field(default_factory=list)  # per match: median of read + fold
    repo_s: list[float] = field(default_factory=list)  # per match: median of Repository.get
    tail: list[int] = field(default_factory=list)  # events after the snapshot


def replay(stack: Stack, game_ids: list[str], repetitions: int) -> ReplayStats:
    client = redis.Redis.from_url(stack.redis_url)
    store = EventStore(client)
    repository = Repository(store, TABLE_FOLDING)
    stats = ReplayStats()
    try:
        for game_id in game_ids:
            reads, folds, fulls, repos = [], [], [], []
            for _ in range(repetitions):
                t0 = time.perf_counter()
                stored = store.read(game_id)
                t1 = time.perf_counter()
                table = None
                for event in stored:
                    table = tables.evolve(table, {"type": event.type, "actor": event.actor, "data": event.data})
                t2 = time.perf_counter()
                reads.append(t1 - t0)
                folds.append(t2 - t1)
                fulls.append(t2 - t0)
                t3 = time.perf_counter()
                again = repository.get(game_id)
                repos.append(time.perf_counter() - t3)
            assert table.finished and again.version == table.version == len(stored)
            assert tables.dump(again) == tables.dump(table), "snapshot + tail differs from a full replay"
            snapshot, tail = store.load(game_id, TABLE_FOLDING.engine_version)
            stats.events.append(len(stored))
            stats.tail.append(len(tail))
            stats.read_s.append(statistics.median(reads))
            stats.fold_s.append(statistics.median(folds))
            stats.full_s.append(statistics.median(fulls))
            stats.repo_s.append(statistics.median(repos))
    finally:
        client.close()
    return stats
