"""`python -m bench.breakdown [--moves N]`: where a move's CPU goes inside the service's own process,
block by block, and what a move costs by the events it appends.

bench/requests.py gives a request's whole cost; this splits it. The service is configured as `make run`
configures it and played by bench/instructions.py's Driver through bench/requests.py's Caller (a WSGI
environ per request, no HTTP server), on a Redis server of its own. Around each of a few functions of
the request's path (BLOCKS) a timer adds up the CPU time of its calls (time.process_time_ns: the
kernel's side of a Redis round trip included, the wait for Redis not); the blocks nest (an append holds
its Redis command), so they are not to be summed. The timers themselves cost about half a microsecond
a call.

The second table sorts the moves' POSTs by what their append wrote: a plain move appends one or two
events; the end of a deal appends the round's scoring, the reveal of the deal just played, the next
deal's commitment and the deal itself, with a snapshot of the state.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

import orjson

from bench.requests import Caller, driver_output

WARM_UP = 200
_HERE = Path(__file__).resolve()

# (module, attribute): the functions timed, outermost first.
BLOCKS = (
    ("service.observability", "RequestTelemetry.__call__"),
    ("service.observability", "_record"),
    ("app.matches", "Matches.act"),
    ("games.table", "act"),
    ("games.table", "settle"),
    ("events.repository", "Repository.save"),
    ("events.store", "EventStore.append"),
    ("events.codec", "Codec.encode"),
    ("events.repository", "Repository.get"),
    ("events.store", "EventStore.load_since"),
    ("redis.client", "Redis.execute_command"),
    ("games.table", "seat_view"),
    ("service.http", "json_response"),
    ("app.matches", "Matches.claim_seat"),
    ("app.matches", "Matches.create_match"),
    ("service.limits", "Limiter.retry_after"),
)


@dataclass
class Timers:
    on: bool = False
    blocks: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))  # [calls, ns]
    appended: list[tuple[int, bool]] = field(default_factory=list)  # (events, snapshot) of the request's appends

    def wrap(self, module: str, attribute: str) -> None:
        owner = importlib.import_module(module)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        timed, label = getattr(owner, name), f"{module}.{attribute}"

        def timer(*args, **kwargs):
            started = time.process_time_ns()
            try:
                return timed(*args, **kwargs)
            finally:
                if self.on:
                    block = self.blocks[label]
                    block[0] += 1
                    block[1] += time.process_time_ns() - started

        setattr(owner, name, timer)

    def note_appends(self) -> None:
        """Each append's events and snapshot, for the POSTs' table."""
        from events.store import EventStore

        append = EventStore.append

        def noted(store, game_id, events, *args, **kwargs):
            self.appended.append((len(events), kwargs.get("snapshot") is not None))
            return append(store, game_id, events, *args, **kwargs)

        EventStore.append = noted  # type: ignore[method-assign]


class SortingCaller(Caller):
    """bench/requests.py's Caller, that also sorts each measured POST's CPU time by what its append wrote."""

    def __init__(self, app, timers: Timers) -> None:
        super().__init__(app)
        self.timers = timers
        self.posts: dict[str, list[int]] = defaultdict(list)  # "N events[ + snapshot]" -> CPU ns of each

    def __call__(self, kind: str, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, bytes]:
        self.timers.appended.clear()
        answer = super().__call__(kind, method, path, body, headers)
        if self.measuring and kind == "action" and len(self.timers.appended) == 1:
            events, snapshot = self.timers.appended[0]
            written = f"{events} event{'s' if events > 1 else ''}{' + snapshot' if snapshot else ''}"
            self.posts[written].append(self.last_ns)
        return answer


def drive(moves: int, redis_url: str) -> dict:
    """Plays WARM_UP + `moves` moves with the timers in place (this process only) and returns the
    measured moves' blocks and POSTs."""
    import redis

    from bench.instructions import Driver, service_environment

    os.environ.update(service_environment(redis_url))
    redis.Redis.from_url(redis_url).flushdb()
    timers = Timers()
    timers.note_appends()
    for module, attribute in BLOCKS:
        timers.wrap(module, attribute)
    from service.app import create_app  # after the environment, and after the timers: routes import by name

    caller = SortingCaller(create_app(), timers)
    player = Driver(caller)
    player.play(WARM_UP)
    timers.on = caller.measuring = True
    started = time.process_time_ns()
    player.play(moves)
    spent = time.process_time_ns() - started
    return {
        "moves": moves,
        "move_ns": spent / moves,
        "requests": dict(caller.counts),
        "blocks": dict(timers.blocks),
        "posts": dict(caller.posts),
    }


def measure(moves: int) -> dict:
    from tests.support.redis_proc import RedisProcess

    server = RedisProcess().start()
    try:
        return orjson.loads(driver_output(_HERE, "--moves", str(moves), "--redis", server.url))
    finally:
        server.stop()


def report(figures: dict) -> str:
    moves = figures["moves"]
    lines = [
        f"CPU in the service's process, {moves} moves after {WARM_UP} (the driver's own work included in the"
        f" whole): {figures['move_ns'] / 1000:.0f} µs a move",
        f"  {'request':<44} {'a move':>6} {'each':>9} {'a move':>9}",
    ]
    for heading, timed in (("", figures["requests"]), ("block (they nest: not to be summed)", figures["blocks"])):
        if heading:
            lines.append(f"  {heading:<44}")
        for label, (count, ns) in sorted(timed.items(), key=lambda kv: -kv[1][1]):
            lines.append(
                f"  {label:<44} {count / moves:>6.2f} {ns / count / 1000:>6.1f} µs {ns / moves / 1000:>6.1f} µs"
            )
    posts = figures["posts"]
    total = sum(len(times) for times in posts.values())
    lines.append(f"  {'POSTs by what their append wrote':<44} {'share':>6} {'median':>9}")
    for written, times in sorted(posts.items(), key=lambda kv: (int(kv[0].split()[0]), kv[0])):
        lines.append(f"  {written:<44} {len(times) / total:>6.1%} {median(times) / 1000:>6.0f} µs")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.breakdown", description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=3000, help="moves measured, after a warm-up (default 3000)")
    parser.add_argument("--drive", action="store_true", help=argparse.SUPPRESS)  # the measured process
    parser.add_argument("--redis", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.drive:
        sys.stdout.write(orjson.dumps(drive(args.moves, args.redis)).decode())
        return
    print(report(measure(args.moves)))


if __name__ == "__main__":
    main()
