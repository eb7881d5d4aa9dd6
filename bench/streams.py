"""`python -m bench.streams [--connections 10000] [--matches 1000] [--spectators 5000]`: live connections
on one node, as `make run` serves them.

Two stacks side by side (bench/stack.py: Redis, gunicorn's gevent workers as deployed, one rq worker
each): `open` holds the connections, `idle` holds none. Then:

1. **Connections.** On `open`, `--matches` matches of two humans, each with its connections: of every ten,
   two seat streams (tickets), six spectator streams and two seat long-polls (`?wait=30` with
   If-None-Match, polled again after every answer). They come from as many loopback source addresses as
   the per-address caps need (127.0.10.1, ...), as distinct users would. Reported: connections held, and
   the API processes' memory per connection (their resident size before and after, divided).
2. **Moves while they are open.** bench/load.py's closed-loop clients alternate 1-s slices between `open`
   and `idle` (the host's speed swings over seconds: only slices side by side compare), while a few moves a
   second go on in the live matches of `open`. Reported: actions per second and POST p50/p99 of each, and
   the ratios.
3. **Fan-out, 10 per match.** Moves in the live matches at `--fanout-rate` a second for `--fanout-seconds`;
   for every event of those moves and every stream of its match, the time from the moment the POST's
   answer arrived (the append is acknowledged) to the event's arrival on the stream. Long-polls' wake-ups
   likewise. Reported: p50/p99/max.
4. **Fan-out, one match.** The connections of 1-3 are closed; `--spectators` spectator streams on one match,
   and moves in it: the same figures.

Throughout, `/livez` and `/readyz` of `open` are timed every quarter second, from a process of their own,
on the API's port and on the probes' own port (`TALON_HEALTH_BIND`: answered by a thread of each API
process, not by its event loop; the deploy's probes go there: service/health.py).

The closed-loop load of 2 runs at niceness `--load-nice` (10): its 16 clients, as busy as the servers
answer, would otherwise take the two cores of the development machine from the servers, as no clients
on other machines do, and the time the servers waited for a core would be timed as their latency (the
POSTs' p99 of both stacks are timed by these clients alike). The connections, the moves of 3 and 4 and
the probes, whose timings are the figures, run at the servers' priority. `--load-nice 0` runs the load
as the servers. Everything is bounded in time, on loopback only; every process started is stopped
at the end.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import multiprocessing
import os
import random
import resource
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import orjson

from bench import figures, load
from bench.cpu import _children
from bench.load import Connection, bearer
from bench.stack import Stack
from tests.support.sse import Crowd, LongPoll, address

CAP = 50  # the default per-address caps (Settings): streams and long-polls each
STREAMS_PER_SEAT, SPECTATORS, POLLS = 1, 6, 2
MATCH = {
    "game": "sixty-six",
    "options": {"match_target": 50},  # long enough never to end in the bench
    "seats": [{"kind": "human"}, {"kind": "human"}],
}


@dataclass
class Live:
    game_id: str
    tokens: list[str]
    streams: list = field(default_factory=list)
    polls: list = field(default_factory=list)


@dataclass
class Acked:
    game_id: str
    first: int  # the versions the move appended
    last: int
    at: float  # monotonic time its answer arrived


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.streams", description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--spectators", type=int, default=5000)
    parser.add_argument("--clients", type=int, default=16, help="closed-loop load clients (default 16)")
    parser.add_argument("--rounds", type=int, default=20, help="rounds of 1-s slices on each stack (default 20)")
    parser.add_argument("--fanout-rate", type=float, default=20.0, help="moves a second in the live matches")
    parser.add_argument("--fanout-seconds", type=float, default=20.0)
    parser.add_argument(
        "--load-nice", type=int, default=10, help="niceness of the closed-loop load (default 10; 0: as the servers)"
    )
    args = parser.parse_args(argv)
    _raise_file_limit()
    started = time.monotonic()
    with Stack() as open_stack, Stack() as idle_stack:
        probe = Probe({"API port": open_stack.base_url, "health port": open_stack.health_url})
        probe.start()
        try:
            with Crowd(*_host_port(open_stack.base_url)) as crowd:
                report = run(args, open_stack, idle_stack, crowd, probe)
        finally:
            probe.stop()
    report["probes"] = probe.summary()
    print_report(args, report, time.monotonic() - started)


def run(args, open_stack: Stack, idle_stack: Stack, crowd: Crowd, probe: Probe) -> dict:
    report: dict = {}
    print(f"creating {args.matches} matches of two humans ...", flush=True)
    lives = create_matches(open_stack.base_url, args.matches)
    rss_before = api_rss(open_stack)
    per_match = max(1, args.connections // args.matches)
    print(f"opening {per_match * len(lives)} connections ({per_match} per match) ...", flush=True)
    opened_at = time.monotonic()
    probe.phase = "opening"
    open_connections(crowd, lives, per_match)
    held = wait_held(crowd, lives)
    report["held"], report["open_s"] = held, time.monotonic() - opened_at
    probe.phase = "held"
    time.sleep(3)
    report["rss_per_connection_kib"] = (api_rss(open_stack) - rss_before) / max(held, 1) / 1024
    report["rss_before_mib"] = rss_before / 2**20
    print(f"held {held}; moves while they are open: {args.rounds} rounds of 1-s slices on each stack ...", flush=True)
    probe.phase = "load"
    background = Mover(open_stack.base_url, lives, rate=5.0)
    background.start()
    targets = [load.Target.of(open_stack, label="open"), load.Target.of(idle_stack, label="idle")]
    load.interleave(targets, args.clients, 1, 2, measure=False, nice=args.load_nice)  # warm both
    runs = load.interleave(targets, args.clients, 1.0, args.rounds, nice=args.load_nice)
    background.stop()
    report["load"] = {run.target.label: run.total for run in runs}
    report["load_rounds"] = [o.per_second / max(i.per_second, 1e-9) for o, i in zip(runs[0].slices, runs[1].slices)]
    report["held_after_load"] = count_held(crowd, lives)
    report["lost"] = lost(lives)
    print(
        f"fan-out: {args.fanout_rate:g} moves a second in the live matches for {args.fanout_seconds:g} s ...",
        flush=True,
    )
    probe.phase = "fan-out"
    mover = Mover(open_stack.base_url, lives, rate=args.fanout_rate)
    mover.start()
    time.sleep(args.fanout_seconds)
    mover.stop()
    time.sleep(2)
    report["fanout"] = fanout(mover.acked, lives)
    report["fanout_polls"] = poll_wakeups(mover.acked, lives)
    print("closing them; one match with its spectators ...", flush=True)
    probe.phase = "closing them"
    crowd.close_all()
    time.sleep(6)
    report["one_match"] = one_match(open_stack.base_url, crowd, args.spectators, probe)
    return report


# -- set-up ------------------------------------------------------------------------------------------


def create_matches(base_url: str, n: int) -> list[Live]:
    """The matches, each created and joined from a loopback address of its own group (127.0.21.x): the
    stack serves with the deployed per-address limits on creating and joining, as people on their own
    machines would meet them."""

    def one(i):
        conn = Connection(base_url, source=f"127.0.21.{i % 250 + 1}")
        try:
            game_id = conn.json("POST", "/v1/games", MATCH)["game_id"]
            tokens = [
                conn.json("POST", f"/v1/games/{game_id}/players", {"name": name})["token"] for name in ("Ana", "Bo")
            ]
            for _ in range(200):
                if conn.json("GET", f"/v1/games/{game_id}")["status"] == "active":
                    return Live(game_id, tokens)
                time.sleep(0.05)
            raise RuntimeError(f"{game_id} was not dealt")
        finally:
            conn.close()

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(one, range(n)))


def open_connections(crowd: Crowd, lives: list[Live], per_match: int) -> None:
    """Seat streams (by ticket), spectator streams and seat long-polls, from addresses under the caps."""
    stream_sources = (address(i // CAP) for i in itertools.count())
    poll_sources = (address(5000 + i // CAP) for i in itertools.count())
    conn = Connection(crowd_url(crowd))
    plans = []
    for live in lives:
        kinds = (["seat"] * 2 * STREAMS_PER_SEAT + ["spectator"] * SPECTATORS + ["poll"] * POLLS) * 4
        for i, kind in enumerate(kinds[:per_match]):
            if kind == "poll":
                version = conn.json("GET", f"/v1/games/{live.game_id}")["version"]
                live.polls.append(
                    LongPoll(
                        f"/v1/games/{live.game_id}?wait=30", next(poll_sources), version, bearer(live.tokens[i % 2])
                    )
                )
                continue
            path = f"/v1/games/{live.game_id}/stream"
            if kind == "seat":
                ticket = conn.json(
                    "POST", f"/v1/games/{live.game_id}/stream-tickets", headers=bearer(live.tokens[i % 2])
                )["ticket"]
                path += f"?ticket={ticket}"
            plans.append((live, path, next(stream_sources)))
    conn.close()
    for start in range(0, len(plans), 1000):
        batch = plans[start : start + 1000]
        streams = crowd.open([(path, source) for _, path, source in batch])
        for (live, _, _), stream in zip(batch, streams):
            live.streams.append(stream)
    crowd.poll(p for live in lives for p in live.polls)


def wait_held(crowd: Crowd, lives: list[Live], timeout_s: float = 60) -> int:
    deadline = time.monotonic() + timeout_s
    expected = sum(len(live.streams) + len(live.polls) for live in lives)
    while time.monotonic() < deadline and count_held(crowd, lives) < expected:
        time.sleep(0.5)
    return count_held(crowd, lives)


def lost(lives: list[Live]) -> dict:
    """Why connections are no longer held: streams the server ended, long-polls' errors by kind."""
    ended = sum(1 for live in lives for s in live.streams if s.ended)
    errors: dict[str, int] = {}
    for live in lives:
        for poll in live.polls:
            for error in poll.errors:
                errors[error] = errors.get(error, 0) + 1
    return {"streams ended": ended, **errors}


def count_held(crowd: Crowd, lives: list[Live]) -> int:
    streams = sum(1 for live in lives for s in live.streams if s.status == 200 and not s.ended)
    polls = sum(1 for live in lives for p in live.polls if not p.errors)
    return streams + polls


# -- moves -------------------------------------------------------------------------------------------


class Mover(threading.Thread):
    """Moves in the live matches at `rate` a second (round-robin over shuffled matches), each POST's
    acknowledged versions and the time its answer arrived recorded."""

    def __init__(self, base_url: str, lives: list[Live], rate: float):
        super().__init__(daemon=True)
        self.base_url, self.lives, self.rate = base_url, list(lives), rate
        self.acked: list[Acked] = []
        self._halt = threading.Event()
        random.Random(3).shuffle(self.lives)

    def stop(self) -> None:
        self._halt.set()
        self.join(30)

    def run(self) -> None:
        conn = Connection(self.base_url)
        rng = random.Random(5)
        next_at = time.monotonic()
        for live in itertools.cycle(self.lives):
            if self._halt.is_set():
                break
            time.sleep(max(0.0, next_at - time.monotonic()))
            next_at += 1 / self.rate
            self._move(conn, live, rng)
        conn.close()

    def _move(self, conn: Connection, live: Live, rng: random.Random) -> None:
        for token in live.tokens:
            view = conn.json("GET", f"/v1/games/{live.game_id}", headers=bearer(token))
            if view["legal_actions"]:
                status, body = conn.request(
                    "POST", f"/v1/games/{live.game_id}/actions", rng.choice(view["legal_actions"]), bearer(token)
                )
                at = time.monotonic()
                if status == 201:
                    after = orjson.loads(body)["version"]
                    self.acked.append(Acked(live.game_id, view["version"] + 1, after, at))
                return


def fanout(acked: list[Acked], lives: list[Live]) -> dict:
    """For each acknowledged event and each stream of its match: arrival minus acknowledgement."""
    by_game = {live.game_id: live for live in lives}
    delays, missing = [], 0
    for move in acked:
        for stream in by_game[move.game_id].streams:
            arrivals = {v: t for v, _, t in stream.events}
            for version in range(move.first, move.last + 1):
                if version in arrivals:
                    delays.append(max(0.0, arrivals[version] - move.at))
                else:
                    missing += 1
    return {"samples": len(delays), "missing": missing, **_quantiles(delays)}


def poll_wakeups(acked: list[Acked], lives: list[Live]) -> dict:
    """For each acknowledged move and each long-poll of its match: its first answer at or past the move's
    last version, minus the acknowledgement."""
    by_game = {live.game_id: live for live in lives}
    delays = []
    for move in acked:
        for poll in by_game[move.game_id].polls:
            later = [t for v, t in poll.answers if v >= move.last]
            if later:
                delays.append(max(0.0, min(later) - move.at))
    return {"samples": len(delays), **_quantiles(delays)}


def one_match(base_url: str, crowd: Crowd, spectators: int, probe: Probe, moves: int = 20) -> dict:
    probe.phase = "one match: opening"
    live = create_matches(base_url, 1)[0]
    sources = [address(10_000 + i // CAP) for i in range(spectators)]
    opened_at = time.monotonic()
    for start in range(0, spectators, 1000):
        live.streams += crowd.open([(f"/v1/games/{live.game_id}/stream", s) for s in sources[start : start + 1000]])
    held = sum(1 for s in live.streams if s.status == 200)
    open_s = time.monotonic() - opened_at
    time.sleep(2)
    probe.phase = "one match: moves"
    mover = Mover(base_url, [live], rate=2.0)
    mover.start()
    time.sleep(moves / 2.0)
    mover.stop()
    time.sleep(3)
    return {"held": held, "open_s": open_s, **fanout(mover.acked, [live])}


# -- measuring -----------------------------------------------------------------------------------------


PROBE_PATHS = ("/livez", "/readyz")


class Probe:
    """Times GET /livez and /readyz of each of `ports` ({label: base URL}) every quarter second, from a
    process of its own.

    As an orchestrator's probes come from outside the server's host processes, these come from outside the
    bench's: in the bench's process they waited for its interpreter lock behind the thread that reads
    10,000 streams, and timed that wait as the server's. `phase` names what the bench is doing; each
    sample is counted in the phase under way when it started (CLOCK_MONOTONIC is one clock for both
    processes)."""

    def __init__(self, ports: dict[str, str]):
        context = multiprocessing.get_context("spawn")  # not a fork of a process with threads running
        self._halt = context.Event()
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(target=_probe, args=(ports, self._halt, send), daemon=True)
        self._ports = list(ports)
        self._phases: list[tuple[float, str]] = [(0.0, "set-up")]
        self._samples: list[tuple[float, str, str, float, int]] = []

    @property
    def phase(self) -> str:
        return self._phases[-1][1]

    @phase.setter
    def phase(self, name: str) -> None:
        self._phases.append((time.monotonic(), name))

    def start(self) -> None:
        self._process.start()

    def stop(self) -> None:
        self._halt.set()
        if self._receive.poll(15):
            self._samples = self._receive.recv()
        self._process.join(10)

    def summary(self) -> dict:
        """{port: {path: quantiles, "failures": n, "phases": {phase: quantiles of both paths}}}."""
        starts = [at for at, _ in self._phases]
        summary = {}
        for port in self._ports:
            samples = [s for s in self._samples if s[1] == port]
            times: dict[str, list[float]] = {path: [] for path in PROBE_PATHS}
            by_phase: dict[str, list[float]] = {}
            for started, _, path, seconds, _ in samples:
                times[path].append(seconds)
                phase = self._phases[bisect.bisect_right(starts, started) - 1][1]
                by_phase.setdefault(phase, []).append(seconds)
            summary[port] = {path: {"samples": len(t), **_quantiles(t)} for path, t in times.items()} | {
                "failures": sum(status != 200 for *_, status in samples),
                "phases": {name: _quantiles(t) for name, t in by_phase.items()},
            }
        return summary


def _probe(ports: dict[str, str], halt, send) -> None:
    """The probe process: (started, port, path, seconds, status) of every probe, sent when halted."""
    conns, samples = {port: Connection(url) for port, url in ports.items()}, []
    while not halt.wait(0.25):
        for port, conn in conns.items():
            for path in PROBE_PATHS:
                started = time.monotonic()
                try:
                    status, _ = conn.request("GET", path)
                except OSError:
                    status = 0
                samples.append((started, port, path, time.monotonic() - started, status))
    for conn in conns.values():
        conn.close()
    send.send(samples)


def api_rss(stack: Stack) -> int:
    """Resident bytes of the stack's gunicorn processes (master and workers)."""
    master = stack.procs["gunicorn"].pid
    total = 0
    for pid in [master, *_children(master)]:
        try:
            with open(f"/proc/{pid}/status") as f:
                total += next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            pass
    return total


def _quantiles(values: list[float]) -> dict:
    if not values:
        return {"p50_ms": float("nan"), "p99_ms": float("nan"), "max_ms": float("nan")}
    return {
        "p50_ms": 1000 * figures.percentile(values, 50),
        "p99_ms": 1000 * figures.percentile(values, 99),
        "max_ms": 1000 * max(values),
    }


def _host_port(base_url: str) -> tuple[str, int]:
    parts = urlsplit(base_url)
    return parts.hostname, parts.port


def crowd_url(crowd: Crowd) -> str:
    return f"http://{crowd.host}:{crowd.port}"


def _raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def print_report(args, report: dict, elapsed_s: float) -> None:
    opened, idle = report["load"]["open"], report["load"]["idle"]
    p99 = {name: 1000 * figures.percentile(stats.post_s, 99) for name, stats in report["load"].items()}
    p50 = {name: 1000 * figures.percentile(stats.post_s, 50) for name, stats in report["load"].items()}
    fan, polls, one, probes = report["fanout"], report["fanout_polls"], report["one_match"], report["probes"]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    print()
    print(
        f"Live connections, {os.cpu_count()} cores, file descriptors {soft}/{hard}, closed-loop load at niceness "
        f"{args.load_nice} (bench {elapsed_s:.0f} s)"
    )
    print(
        f"  connections held: {report['held']} of {args.connections} asked, over {args.matches} matches "
        f"(opened in {report['open_s']:.1f} s; still held after the load: {report['held_after_load']}; "
        f"lost: {report['lost'] or 'none'})"
    )
    print(
        f"  API memory: {report['rss_before_mib']:.0f} MiB before, {report['rss_per_connection_kib']:.1f} KiB "
        f"per connection"
    )
    print(
        f"  moves with them open: {opened.per_second:.0f} actions/s, POST p50/p99 {p50['open']:.1f}/"
        f"{p99['open']:.1f} ms"
    )
    print(
        f"  moves with none open: {idle.per_second:.0f} actions/s, POST p50/p99 {p50['idle']:.1f}/{p99['idle']:.1f} ms"
    )
    for name, stats in report["load"].items():
        if stats.cpu is not None:
            cost = stats.cpu.per_action_ms(stats.actions)
            print(
                f"  CPU per action, {name}: {sum(cost.values()):.2f} ms ("
                + ", ".join(f"{k} {v:.2f}" for k, v in cost.items())
                + ")"
            )
    print(
        f"  throughput open/idle: {opened.per_second / max(idle.per_second, 1e-9):.2f} (target >= 0.80; per "
        f"round {figures.spread(report['load_rounds'], '{:.2f}')}); POST p99 open/idle: "
        f"{p99['open'] / max(p99['idle'], 1e-9):.2f} (target <= 2)"
    )
    print(
        f"  fan-out to 10 streams a match: p50 {fan['p50_ms']:.1f} ms, p99 {fan['p99_ms']:.1f} ms, max "
        f"{fan['max_ms']:.1f} ms over {fan['samples']} deliveries, {fan['missing']} missing (target p99 <= 250 ms)"
    )
    print(f"  long-polls woken: p50 {polls['p50_ms']:.1f} ms, p99 {polls['p99_ms']:.1f} ms over {polls['samples']}")
    print(
        f"  one match, {one['held']} spectators (opened in {one['open_s']:.1f} s): fan-out p50 {one['p50_ms']:.0f} "
        f"ms, p99 {one['p99_ms']:.0f} ms, max {one['max_ms']:.0f} ms over {one['samples']} deliveries, "
        f"{one['missing']} missing (target p99 <= 1000 ms)"
    )
    for port, summary in probes.items():
        for path in PROBE_PATHS:
            probe = summary[path]
            print(
                f"  {path} ({port}): p50 {probe['p50_ms']:.1f} ms, p99 {probe['p99_ms']:.1f} ms, max "
                f"{probe['max_ms']:.1f} ms over {probe['samples']} probes (target <= 100 ms)"
            )
        print(
            f"  {port}: probe failures {summary['failures']}; by phase (both probes): "
            + "; ".join(
                f"{name} p99 {q['p99_ms']:.1f} max {q['max_ms']:.1f} ms" for name, q in summary["phases"].items()
            )
        )


if __name__ == "__main__":
    main()
