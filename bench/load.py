"""Closed-loop load: N clients, each doing what a player's client does, for a fixed time.

`run(stack, "service", clients, seconds)`: each client plays its own two-human `2p24` Sixty-Six match
(both seats' tokens) by random legal actions; one step is GET the acting seat's view, POST one action
(If-Match, Idempotency-Key). While the worker scores and deals, the client long-polls, as soon as an
answer shows that nobody may act, with the token of the seat that leads next: the long-poll's answer is
then that step's view (its time, which is mostly the wait, is not counted among the GETs' latencies).
A finished match is followed by a new one.

`run(stack, "bare", clients, seconds)`: the same clients against bench/bare.py on the same gunicorn
settings and Redis: GET the last 50 entries of the client's stream, POST one small entry.

Clients are threads in a few forked processes (one Python process cannot drive 16 busy connections by
itself), each with one keep-alive connection (http.client: a thin client, so the load generator takes
as little of the two cores as it can). Only loopback addresses; every request has a timeout.
"""
from __future__ import annotations

import gc
import http.client
import multiprocessing
import random
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import orjson

from bench.stack import Stack

if TYPE_CHECKING:
    from bench.cpu import CpuUse

VARIANT = "2p24"
REQUEST_TIMEOUT_S = 15.0
WAIT_S = 5
MAX_PROCESSES = 4
SMALL_ENTRY = {"type": "play", "actor": 0, "data": {"card": "TS"}}


@dataclass
class LoadStats:
    target: str
    clients: int
    seconds: float = 0.0
    actions: int = 0                  # successful POSTs
    matches_finished: int = 0
    waits: int = 0                    # long-polls while the worker scored and dealt
    refused: int = 0                  # POSTs answered with anything but 201 (should stay 0)
    post_s: list[float] = field(default_factory=list)
    get_s: list[float] = field(default_factory=list)
    cpu: "CpuUse | None" = None       # the CPU the processes spent, when measured (bench/cpu.py)

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def merge(self, other: "LoadStats") -> None:
        self.actions += other.actions
        self.matches_finished += other.matches_finished
        self.waits += other.waits
        self.refused += other.refused
        self.post_s += other.post_s
        self.get_s += other.get_s


class Connection:
    """One keep-alive HTTP/1.1 connection; reconnects once when the server closed it."""

    def __init__(self, base_url: str):
        parts = urlsplit(base_url)
        assert parts.hostname in ("127.0.0.1", "localhost", "::1"), "loopback only"
        self.host, self.port = parts.hostname, parts.port
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=REQUEST_TIMEOUT_S)

    def request(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, bytes]:
        headers = dict(headers or {})
        if body is not None:
            body = orjson.dumps(body)
            headers["Content-Type"] = "application/json"
        for attempt in (0, 1):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                return response.status, response.read()
            except (http.client.RemoteDisconnected, ConnectionError, http.client.CannotSendRequest):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=REQUEST_TIMEOUT_S)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def json(self, method: str, path: str, body=None, headers: dict | None = None, ok=(200, 201)) -> dict:
        status, data = self.request(method, path, body, headers)
        if status not in ok:
            raise RuntimeError(f"{method} {path}: {status} {data[:300]!r}")
        return orjson.loads(data) if data else {}

    def close(self) -> None:
        self.conn.close()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def run(stack: Stack, target: str, clients: int = 16, seconds: float = 20.0, seed: int = 7) -> LoadStats:
    """`clients` closed-loop clients against `target` ("service" or "bare") for `seconds`."""
    processes = min(MAX_PROCESSES, clients)
    shares = [clients // processes + (i < clients % processes) for i in range(processes)]
    start_at = time.time() + 0.5 + 0.1 * processes         # every client starts at the same moment
    jobs = [(stack.base_url, stack.bare_url, target, share, sum(shares[:i]), seed, start_at, seconds)
            for i, share in enumerate(shares)]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        parts = pool.starmap(_process, jobs)
    total = LoadStats(target, clients, seconds=seconds)
    for part in parts:
        total.merge(part)
    return total


def _process(base_url, bare_url, target, clients, first, seed, start_at, seconds) -> LoadStats:
    # Everything this fork inherited stays: a full collection walking it would pause every client thread
    # of the process for tens of milliseconds, which the clients would count as the server's latency.
    gc.freeze()
    stats = [LoadStats(target, 1) for _ in range(clients)]
    loop = _service_client if target == "service" else _bare_client
    threads = [threading.Thread(target=_guarded, args=(loop, base_url if target == "service" else bare_url,
                                                        stats[i], first + i, seed, start_at, start_at + seconds))
               for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 4 * REQUEST_TIMEOUT_S)
    total = LoadStats(target, clients)
    for part in stats:
        total.merge(part)
    return total


def _guarded(loop, url, stats, index, seed, start_at, end_at) -> None:
    time.sleep(max(0.0, start_at - time.time()))
    loop(url, stats, index, seed, end_at)


def _bare_client(url: str, stats: LoadStats, index: int, seed: int, end_at: float) -> None:
    conn, path = Connection(url), f"/bare/c{index}"
    try:
        while time.time() < end_at:
            t0 = time.perf_counter()
            conn.json("GET", path)
            t1 = time.perf_counter()
            status, _ = conn.request("POST", path, SMALL_ENTRY)
            t2 = time.perf_counter()
            stats.get_s.append(t1 - t0)
            if status != 201:
                stats.refused += 1
                continue
            stats.post_s.append(t2 - t1)
            stats.actions += 1
    finally:
        conn.close()


def _service_client(url: str, stats: LoadStats, index: int, seed: int, end_at: float) -> None:
    conn, rng = Connection(url), random.Random(seed * 1000 + index)
    try:
        while time.time() < end_at:
            game_id, tokens = new_match(conn)
            _play(conn, rng, game_id, tokens, stats, end_at)
    finally:
        conn.close()


def new_match(conn: Connection) -> tuple[str, list[str]]:
    """A two-human 2p24 match with both seats claimed by this client."""
    created = conn.json("POST", "/v1/games", {"game": "sixty-six", "options": {"variant": VARIANT},
                                              "seats": [{"kind": "human"}, {"kind": "human"}]})
    game_id = created["game_id"]
    tokens = [conn.json("POST", f"/v1/games/{game_id}/players", {"name": name})["token"]
              for name in ("north", "south")]
    return game_id, tokens


def _play(conn: Connection, rng: random.Random, game_id: str, tokens: list[str], stats: LoadStats,
          end_at: float) -> None:
    """Steps until the match ends (or the time is up). When an answer shows that nobody may act (the
    worker scores the round and deals the next), the client long-polls from that version with the token
    of the seat that will lead, and that answer is the step's view, as a player's client waiting for
    its turn gets it; only when another seat is to act does the client GET with that seat's token."""
    path, seat, view = f"/v1/games/{game_id}", 0, None
    while time.time() < end_at:
        if view is None:
            t0 = time.perf_counter()
            view = conn.json("GET", path, headers=bearer(tokens[seat]))
            stats.get_s.append(time.perf_counter() - t0)
        if view["status"] == "finished":
            stats.matches_finished += 1
            return
        if not view["to_act"]:
            seat, view = _await_turn(conn, path, tokens, _next_leader(view, seat), view["version"], stats)
            continue
        if seat not in view["to_act"]:
            seat, view = view["to_act"][0], None
            continue                          # GET again with the acting seat's token
        action = rng.choice(view["legal_actions"])
        headers = {**bearer(tokens[seat]), "If-Match": f'"{view["version"]}"',
                   "Idempotency-Key": f"{game_id}-{view['version']}"}
        t0 = time.perf_counter()
        status, body = conn.request("POST", f"{path}/actions", action, headers)
        elapsed = time.perf_counter() - t0
        view = None
        if status != 201:
            stats.refused += 1
            continue
        stats.post_s.append(elapsed)
        stats.actions += 1
        after = orjson.loads(body)
        if after["to_act"]:
            seat = after["to_act"][0]
        elif after["status"] != "finished":
            seat, view = _await_turn(conn, path, tokens, _next_leader(after, seat), after["version"], stats)


def _next_leader(view: dict, seat: int) -> int:
    """Who leads the next deal of a 2p match: the dealer of this one (the deal alternates and the
    non-dealer leads). Only a guess to pick the long-poll's token: a wrong one costs a GET."""
    return view["round"]["dealer"] if view.get("round") else seat


def _await_turn(conn: Connection, path: str, tokens: list[str], seat: int, version: int,
                stats: LoadStats) -> tuple[int, dict | None]:
    """Long-polls with `seat`'s token until the version moves past `version`. Returns the seat to act
    next and, when that is `seat`, the long-poll's answer as its view (else None: GET it)."""
    stats.waits += 1
    status, body = conn.request("GET", f"{path}?wait={WAIT_S}",
                                headers={**bearer(tokens[seat]), "If-None-Match": f'"{version}"'})
    if status != 200:
        return seat, None
    view = orjson.loads(body)
    if view["to_act"] and view["to_act"][0] != seat:
        return view["to_act"][0], None
    return seat, view
