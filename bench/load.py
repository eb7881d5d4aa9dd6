"""Closed-loop load: N clients, each doing what a player's client does, in time slices over one or more targets.

A `service` target: each client plays its own two-human `2p24` Sixty-Six match (both seats' tokens) by
random legal actions; one step is GET the acting seat's view, POST one action (If-Match,
Idempotency-Key). A round's last move is answered with the next deal (the round's scoring and the deal
are appended with it); should an answer show that nobody may act (the workers owe the table a step),
the client long-polls with the token of the seat that leads next, and the long-poll's answer is then
that step's view (its time, mostly the wait, is not counted among the GETs' latencies; the summary
counts such waits). A finished match is followed by a new one.

A `bare` target: the same clients against bench/bare.py on the same gunicorn settings and Redis: GET the
last 50 entries of the client's stream, POST one small entry.

`interleave(targets, clients, slice_s, rounds)` is how targets are compared: the clients move from one
target to the next every `slice_s` seconds, all at once, round after round (the order reversed every other
round), each client keeping its connection and its match on every target while it plays on another.
The host's speed swings by a third over seconds here; slices of a second put every target under nearly
the same host, where runs of a few seconds each did not (a 5-s-slice comparison of the service with itself
read anything from 0.92 to 1.39 per round). Nothing restarts between slices: no fork, no new connection,
no new match, so short slices cost no dead time. With each target's stack, the CPU its processes spent is
read at every slice boundary (bench/cpu.py).

Clients are threads in a few forked processes (one Python process cannot drive 16 busy connections by
itself), each with one keep-alive connection per target at a time, renewed after RENEW_AFTER actions
(http.client: a thin client, so the load generator takes as little of the two cores as it can). Only
loopback addresses; every request has a timeout.
"""

from __future__ import annotations

import gc
import http.client
import multiprocessing
import os
import queue
import random
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import orjson

from bench.cpu import CpuUse, SliceMeter

if TYPE_CHECKING:
    from bench.stack import Stack

VARIANT = "2p24"
REQUEST_TIMEOUT_S = 15.0
WAIT_S = 5
MAX_PROCESSES = 4
# A client opens a new connection after this many actions on one, on every target alike. Connections
# kept for a whole run stay where a race at its start put them: 16 clients connecting at once were
# split 8/8 between the two API processes in some runs and 12/4 or 16/0 in others, and the busier
# process's clients wait longer (the bare floor's POST p99 read 27-34 ms with an even split, 45-48 ms
# with 12/4). Renewed, connections go to whichever process is free to accept them, as a player's
# client reconnects between sessions and after idle keep-alive timeouts.
RENEW_AFTER = 25
SMALL_ENTRY = {"type": "play", "actor": 0, "data": {"card": "TS"}}


@dataclass
class LoadStats:
    target: str
    clients: int
    seconds: float = 0.0
    actions: int = 0  # successful POSTs
    matches_finished: int = 0
    waits: int = 0  # long-polls while the workers owed the table a step
    refused: int = 0  # POSTs answered with anything but 201 (should stay 0)
    post_s: list[float] = field(default_factory=list)
    get_s: list[float] = field(default_factory=list)
    cpu: CpuUse | None = None  # the CPU the processes spent, when measured (bench/cpu.py)

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def merge(self, other: LoadStats) -> None:
        """Adds another client's (or process's) share of the same time: the seconds stay."""
        self.actions += other.actions
        self.matches_finished += other.matches_finished
        self.waits += other.waits
        self.refused += other.refused
        self.post_s += other.post_s
        self.get_s += other.get_s

    def extend(self, later: LoadStats) -> None:
        """Adds a later slice of the same target: the seconds and the CPU add up too."""
        self.merge(later)
        self.seconds += later.seconds
        if later.cpu is not None:
            self.cpu = self.cpu or CpuUse()
            self.cpu.add(later.cpu)


@dataclass(frozen=True)
class Target:
    """Where a slice's load goes. With its `stack`, the CPU of the stack's processes is measured."""

    label: str
    kind: str  # "service" or "bare"
    url: str
    stack: Stack | None = None

    @classmethod
    def of(cls, stack: Stack, kind: str = "service", label: str | None = None) -> Target:
        return cls(label or kind, kind, stack.base_url if kind == "service" else stack.bare_url, stack)


@dataclass
class TargetRun:
    """One target's share of an interleaved run: all its slices together, and each."""

    target: Target
    total: LoadStats
    slices: list[LoadStats] = field(default_factory=list)
    elsewhere_s: float = 0.0  # CPU spent on the machine outside its processes during its slices


def run(stack: Stack, kind: str, clients: int = 16, seconds: float = 20.0, seed: int = 7) -> LoadStats:
    """`clients` closed-loop clients against one target of `stack` ("service" or "bare") for `seconds`."""
    return interleave([Target.of(stack, kind)], clients, seconds, 1, seed, measure=False)[0].total


def interleave(
    targets: list[Target],
    clients: int,
    slice_s: float,
    rounds: int,
    seed: int = 7,
    measure: bool = True,
    nice: int = 0,
) -> list[TargetRun]:
    """`rounds` rounds of one `slice_s` slice per target, the order reversed every other round; the same
    clients throughout. Returns each target's run (in the order of `targets`), with the CPU of its
    stack's processes and of the load generator when `measure`. The clients' processes run at niceness
    `nice`."""
    plan = [i for r in range(rounds) for i in (range(len(targets)) if r % 2 == 0 else reversed(range(len(targets))))]
    processes = min(MAX_PROCESSES, clients)
    shares = [clients // processes + (i < clients % processes) for i in range(processes)]
    specs = [(t.kind, t.url) for t in targets]
    jobs = [(specs, share, sum(shares[:i])) for i, share in enumerate(shares)]
    parts, meter = _drive(jobs, plan, slice_s, seed, targets if measure else None, nice)
    runs = [TargetRun(t, LoadStats(t.label, clients)) for t in targets]
    for j, index in enumerate(plan):
        part = parts[j]
        part.seconds = slice_s
        if meter is not None:
            part.cpu, elsewhere_s = meter.use(j, index)
            runs[index].elsewhere_s += elsewhere_s
        runs[index].total.extend(part)
        runs[index].slices.append(part)
    return runs


def split(urls: list[str], clients: int, seconds: float, seed: int = 7) -> LoadStats:
    """The service clients spread over several API instances at once (one process per instance)."""
    shares = [clients // len(urls) + (i < clients % len(urls)) for i in range(len(urls))]
    jobs = [([("service", url)], share, sum(shares[:i])) for i, (url, share) in enumerate(zip(urls, shares))]
    parts, _ = _drive(jobs, [0], seconds, seed, None)
    parts[0].seconds = seconds
    return parts[0]


def _drive(jobs, plan: list[int], slice_s: float, seed: int, measured: list[Target] | None, nice: int = 0):
    """Forks one process per job (target specs, clients, index of its first client), runs the plan's
    slices from a common start, and returns the merged stats of each slice (and the meter, if measured)."""
    start_at = time.time() + 0.5 + 0.1 * len(jobs)  # every client starts at the same moment
    context = multiprocessing.get_context("fork")
    results, measured_all = context.Queue(), context.Event()
    procs = [
        context.Process(
            target=_process,
            args=(specs, share, first, seed, plan, start_at, slice_s, results, measured_all, nice),
            daemon=True,
        )
        for specs, share, first in jobs
    ]
    for proc in procs:
        proc.start()
    meter = SliceMeter(measured, [p.pid for p in procs]) if measured else None
    if meter is not None:
        for j in range(len(plan) + 1):  # a reading at every boundary
            time.sleep(max(0.0, start_at + j * slice_s - time.time()))
            meter.mark()
        meter.close()
    measured_all.set()  # the clients' processes may exit now
    parts = [LoadStats("", 0) for _ in plan]
    deadline = start_at + len(plan) * slice_s + 4 * REQUEST_TIMEOUT_S + 30
    for _ in procs:
        try:  # bounded: a client process that died would otherwise leave the bench waiting for ever
            merged = results.get(timeout=max(1.0, deadline - time.time()))
        except queue.Empty:
            raise RuntimeError(
                f"load generator processes gave no results: exit codes {[proc.exitcode for proc in procs]}"
            ) from None
        for j, part in enumerate(merged):
            parts[j].merge(part)
    for proc in procs:
        proc.join()
    return parts, meter


def _process(
    specs,
    clients: int,
    first: int,
    seed: int,
    plan: list[int],
    start_at: float,
    slice_s: float,
    results,
    measured_all,
    nice: int = 0,
) -> None:
    if nice:
        os.nice(nice)
    # Everything this fork inherited stays: a full collection walking it would pause every client thread
    # of the process for tens of milliseconds, which the clients would count as the server's latency.
    gc.freeze()
    stats = [[LoadStats("", 1) for _ in plan] for _ in range(clients)]
    threads = [
        threading.Thread(target=_client, args=(specs, first + i, seed, plan, start_at, slice_s, stats[i]))
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(len(plan) * slice_s + 4 * REQUEST_TIMEOUT_S)
    merged = [LoadStats("", clients) for _ in plan]
    for own in stats:
        for j, part in enumerate(own):
            merged[j].merge(part)
    results.put(merged)
    measured_all.wait(4 * REQUEST_TIMEOUT_S)  # alive for the last reading of its CPU in /proc


def _client(
    specs, index: int, seed: int, plan: list[int], start_at: float, slice_s: float, stats: list[LoadStats]
) -> None:
    players = [(ServiceClient if kind == "service" else BareClient)(url, index, seed) for kind, url in specs]
    try:
        for j, target in enumerate(plan):
            time.sleep(max(0.0, start_at + j * slice_s - time.time()))
            players[target].play_until(start_at + (j + 1) * slice_s, stats[j])
    finally:
        for player in players:
            player.close()


class Connection:
    """One keep-alive HTTP/1.1 connection, from loopback address `source` if given (each client of the
    load its own, as each player has: the per-address rate limits then count each client apart);
    reconnects once when the server closed it, and opens a new one after RENEW_AFTER actions."""

    def __init__(self, base_url: str, source: str | None = None):
        parts = urlsplit(base_url)
        assert parts.hostname in ("127.0.0.1", "localhost", "::1"), "loopback only"
        self.host, self.port = parts.hostname, parts.port
        self.source = (source, 0) if source else None
        self.conn = self._connect()
        self.actions = 0  # actions made on the current connection

    def _connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=REQUEST_TIMEOUT_S, source_address=self.source)

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
                self.conn = self._connect()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def json(self, method: str, path: str, body=None, headers: dict | None = None, ok=(200, 201)) -> dict:
        status, data = self.request(method, path, body, headers)
        if status not in ok:
            raise RuntimeError(f"{method} {path}: {status} {data[:300]!r}")
        return orjson.loads(data) if data else {}

    def acted(self) -> None:
        """Counts an accepted action; after RENEW_AFTER of them the next request goes on a new connection
        (http.client connects on its first request)."""
        self.actions += 1
        if self.actions >= RENEW_AFTER:
            self.conn.close()
            self.conn, self.actions = self._connect(), 0

    def close(self) -> None:
        self.conn.close()


def client_address(index: int) -> str:
    """The loopback address load client `index` connects from (127.0.0.0/8 is all loopback)."""
    return f"127.0.20.{index % 250 + 1}"


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class BareClient:
    """GET the last 50 entries of its own stream, POST one small entry."""

    def __init__(self, url: str, index: int, seed: int):
        self.conn, self.path = Connection(url, client_address(index)), f"/bare/c{index}"

    def play_until(self, end_at: float, stats: LoadStats) -> None:
        conn, path = self.conn, self.path
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
            conn.acted()

    def close(self) -> None:
        self.conn.close()


class ServiceClient:
    """Plays its matches one step at a time; a slice's end leaves the match where it is, for the next."""

    def __init__(self, url: str, index: int, seed: int):
        self.conn, self.rng = Connection(url, client_address(index)), random.Random(seed * 1000 + index)
        self.path: str | None = None  # the current match's URL
        self.tokens: list[str] = []
        self.seat, self.view = 0, None  # who acts next, and that seat's view when the client has it

    def play_until(self, end_at: float, stats: LoadStats) -> None:
        while time.time() < end_at:
            if self.path is None:
                self._new_match()
            self._step(stats)

    def close(self) -> None:
        self.conn.close()

    def _new_match(self) -> None:
        game_id, self.tokens, view = new_match(self.conn)
        self.path = f"/v1/games/{game_id}"
        # The last claim's answer is its seat's view after the deal: it tells who acts first.
        self.seat = view["to_act"][0] if view["to_act"] else view["seat"]
        self.view = None

    def _step(self, stats: LoadStats) -> None:
        """GET the acting seat's view (unless a long-poll just gave it), POST one of its legal actions.
        When an answer shows that nobody may act (the workers owe the table a step), the client
        long-polls from that version with the token of the seat that will lead, and that answer
        is the next step's view, as a player's client waiting for its turn gets it; only when another
        seat is to act does the client GET with that seat's token."""
        conn, path = self.conn, self.path
        if self.view is None:
            t0 = time.perf_counter()
            self.view = conn.json("GET", path, headers=bearer(self.tokens[self.seat]))
            stats.get_s.append(time.perf_counter() - t0)
        view = self.view
        if self._over(view, stats):
            return
        if not view["to_act"]:
            self._await_turn(view, stats)
            return
        if self.seat not in view["to_act"]:
            self.seat, self.view = view["to_act"][0], None
            return  # GET again with the acting seat's token
        action = self.rng.choice(view["legal_actions"])
        headers = {
            **bearer(self.tokens[self.seat]),
            "If-Match": f'"{view["version"]}"',
            "Idempotency-Key": f"{path.rsplit('/', 1)[1]}-{view['version']}",
        }
        t0 = time.perf_counter()
        status, body = conn.request("POST", f"{path}/actions", action, headers)
        elapsed = time.perf_counter() - t0
        self.view = None
        if status != 201:
            stats.refused += 1
            return
        stats.post_s.append(elapsed)
        stats.actions += 1
        conn.acted()
        after = orjson.loads(body)
        if self._over(after, stats):
            return
        if after["to_act"]:
            self.seat = after["to_act"][0]
        else:
            self._await_turn(after, stats)

    def _over(self, view: dict, stats: LoadStats) -> bool:
        if view["status"] != "finished":
            return False
        stats.matches_finished += 1
        self.path, self.view = None, None
        return True

    def _await_turn(self, view: dict, stats: LoadStats) -> None:
        """Long-polls with the next leader's token until the version moves past the view's. That seat's
        view, when it is to act, is the long-poll's answer; otherwise the next step GETs it."""
        seat = _next_leader(view, self.seat)
        stats.waits += 1
        status, body = self.conn.request(
            "GET",
            f"{self.path}?wait={WAIT_S}",
            headers={**bearer(self.tokens[seat]), "If-None-Match": f'"{view["version"]}"'},
        )
        self.seat, self.view = seat, None
        if status != 200:
            return
        answer = orjson.loads(body)
        if answer["to_act"] and answer["to_act"][0] != seat:
            self.seat = answer["to_act"][0]
        else:
            self.view = answer


def new_match(conn: Connection) -> tuple[str, list[str], dict]:
    """A two-human 2p24 match with both seats claimed by this client; the last claim's view."""
    created = conn.json(
        "POST",
        "/v1/games",
        {"game": "sixty-six", "options": {"variant": VARIANT}, "seats": [{"kind": "human"}, {"kind": "human"}]},
    )
    game_id = created["game_id"]
    claims = [conn.json("POST", f"/v1/games/{game_id}/players", {"name": name}) for name in ("north", "south")]
    return game_id, [claim["token"] for claim in claims], claims[-1]["view"]


def _next_leader(view: dict, seat: int) -> int:
    """Who leads the next deal of a 2p match: the dealer of this one (the deal alternates and the
    non-dealer leads). Only a guess to pick the long-poll's token: a wrong one costs a GET."""
    return view["round"]["dealer"] if view.get("round") else seat
