"""`python -m bench.requests [--moves N] [--rounds R]`: the CPU a request of each kind costs the API's
process, beside what the bare endpoints' requests cost theirs (bench/bare.py): where a move's cost over
the floor's lies.

`make bench` compares moves per second, which count everything that shares the machine's cores: the
gunicorn workers with gevent's loop and the HTTP parsing and writing, Redis, the rq worker and the load
generator. Here each app is called as gunicorn calls it, with a WSGI environ per request (built before
the clock starts, as gunicorn builds it from the socket) and the answer's body joined, in a process of its
own that does nothing else. The CPU time of that call (time.process_time_ns, the kernel's side of its
Redis round trips included; the time it waits for Redis is not CPU) is the application's own work: Flask
and the routes, the telemetry, the game, the event store and redis-py. What gunicorn and gevent add to a
request, both targets pay much alike.

Service: configured as `make run` configures it (bench/instructions.py `service_environment`), played by
bench/instructions.py's Driver: seeded 2p24 sixty-six matches between two human seats, a move being the
acting seat's GET and its POST with If-Match and an Idempotency-Key, as bench/load.py's clients send
them; the creations and claims of the matches count in the moves' cost, and a GET /livez a move shows
what every request pays before any route. Bare: GET of the last 50 entries of a stream that holds at
least 50, POST of one small entry. Redis is a fresh server of its own (tests/support/redis_proc.py).

The host's speed swings from one second to the next here, so the two targets are measured in rounds,
a run of each in turn, and every figure is the median over the rounds; the ratios are the medians of
each round's own ratio, with their range.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from statistics import median
from typing import Any

import orjson
from werkzeug.test import EnvironBuilder

from bench.load import SMALL_ENTRY
from service import wire

WARM_UP = 40
_HERE = Path(__file__).resolve()
REPO = _HERE.parents[1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.requests", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--moves", type=int, default=400, help="moves measured per round, after a warm-up (default 400)"
    )
    parser.add_argument("--rounds", type=int, default=7, help="rounds of a service run and a bare run (default 7)")
    parser.add_argument("--drive", choices=("service", "bare"), help=argparse.SUPPRESS)  # the measured process
    parser.add_argument("--redis", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.drive:
        print(json.dumps(drive(args.drive, args.moves, args.redis)))
        return
    print(report(measure(args.moves, args.rounds), args.moves))


Counts = dict[str, list[int]]  # a driver's measured requests by kind: [requests, CPU ns]


def measure(moves: int, rounds: int) -> list[dict[str, Counts]]:
    """Each round's {target: counts}: a service driver's run, then a bare driver's, on one fresh Redis."""
    from tests.support.redis_proc import RedisProcess

    server = RedisProcess().start()
    try:
        return [
            {target: _run_driver(target, moves, server.url) for target in ("service", "bare")} for _ in range(rounds)
        ]
    finally:
        server.stop()


def _run_driver(target: str, moves: int, redis_url: str) -> Counts:
    return json.loads(driver_output(_HERE, target, "--moves", str(moves), "--redis", redis_url))


def driver_output(script: Path, *args: str) -> str:
    """What `script --drive *args` prints, run in a process of its own (its request log dropped): a
    measured process does nothing but drive."""
    return subprocess.run(
        [sys.executable, str(script), "--drive", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # the request log
        check=True,
        text=True,
    ).stdout


def report(rounds: list[dict[str, Counts]], moves: int) -> str:
    def per_request(counts: Counts, kind: str) -> float:
        requests, ns = counts[kind]
        return ns / requests / 1000

    def per_move(counts: Counts, kinds: tuple[str, ...]) -> float:
        return sum(counts.get(kind, [0, 0])[1] for kind in kinds) / moves / 1000

    figures = (  # (row, the service's figure, the bare's)
        ("GET (a view / 50 entries)", lambda c: per_request(c, "view"), lambda c: per_request(c, "get")),
        ("POST (an action / an entry)", lambda c: per_request(c, "action"), lambda c: per_request(c, "post")),
        ("per move", lambda c: per_move(c, SERVICE_MOVE), lambda c: per_move(c, ("get", "post"))),
    )
    lines = [
        f"CPU per request in the app's own process (no HTTP server), medians of {len(rounds)} rounds of "
        f"{moves} moves each:",
        f"  {'request':<28} {'service':>9} {'bare':>9}  service / bare",
    ]
    for name, of_service, of_bare in figures:
        service = [of_service(r["service"]) for r in rounds]
        bare = [of_bare(r["bare"]) for r in rounds]
        ratios = [s / b for s, b in zip(service, bare)]
        lines.append(
            f"  {name:<28} {median(service):>6.0f} µs {median(bare):>6.0f} µs  {median(ratios):.2f}"
            f" ({min(ratios):.2f} .. {max(ratios):.2f})"
        )
    first = rounds[0]["service"]
    setup = ", ".join(f"{first.get(kind, [0, 0])[0] / moves:.2f} {kind}s" for kind in ("creation", "claim"))
    lines.append(f"  {'':<28} a move: the acting seat's GET and POST, and {setup} a move")
    livez = median(per_request(r["service"], "livez") for r in rounds)
    lines.append(f"  {'GET /livez (no route work)':<28} {livez:>6.0f} µs")
    return "\n".join(lines)


SERVICE_MOVE = ("view", "action", "creation", "claim")  # what a move costs the service, its matches' share included


def drive(target: str, moves: int, redis_url: str) -> Counts:
    """Plays WARM_UP + `moves` moves against the target's app in this process (on an emptied Redis
    database) and returns the measured moves' {kind: [requests, CPU ns]}."""
    return dict(play(target, moves, redis_url).counts)


def play(target: str, moves: int, redis_url: str, make_caller: Callable[[Any], Caller] | None = None) -> Caller:
    """The target's app built in this process on an emptied Redis database, played (WARM_UP + `moves`
    moves) through `make_caller(app)`, which is returned."""
    import redis

    make_caller = make_caller or Caller
    redis.Redis.from_url(redis_url).flushdb()
    if target == "bare":
        from bench.bare import create_app

        caller = make_caller(create_app(redis_url))
        play_bare(caller, moves)
        return caller
    from bench.instructions import service_environment

    os.environ.update(service_environment(redis_url))
    from service.app import create_app as create_service  # after the environment: prometheus_client reads it

    caller = make_caller(create_service())
    play_service(caller, moves)
    return caller


def play_service(caller: Caller, moves: int) -> Counts:
    """bench/instructions.py's player (its seeded matches, both seats by one client), then a GET /livez
    per move."""
    from bench.instructions import Driver

    player = Driver(caller)
    player.play(WARM_UP)
    caller.measuring = True
    player.play(moves)  # from a new match on: its creation and claims count in the moves' cost
    for _ in range(moves):
        caller("livez", "GET", "/livez")
    return dict(caller.counts)


def play_bare(caller: Caller, moves: int) -> Counts:
    """GET the last 50 entries of one stream, POST one small entry, as bench/load.py's bare clients."""
    for _ in range(50):  # a stream as long as a GET reads, as the load's streams soon are
        caller("post", "POST", "/bare/c0", SMALL_ENTRY)
    for played in range(WARM_UP + moves):
        caller.measuring = played >= WARM_UP
        caller("get", "GET", "/bare/c0")
        code, _ = caller("post", "POST", "/bare/c0", SMALL_ENTRY)
        if code != 201:
            raise RuntimeError(f"bare POST: {code}")
    return dict(caller.counts)


class Caller:
    """Calls a WSGI app as gunicorn does, timing the call's CPU under the kind of its request. Also
    a stand-in for the Flask test client that bench/instructions.py's Driver plays through (`open`)."""

    def __init__(self, app) -> None:
        self.app = app
        self.counts: Counts = defaultdict(lambda: [0, 0])
        self.measuring = False
        self.last_ns = 0  # the CPU time of the latest call

    def __call__(self, kind: str, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, bytes]:
        data = orjson.dumps(body) if body is not None else None
        environ = EnvironBuilder(
            path=path,
            method=method,
            data=data,
            headers=headers,
            content_type="application/json" if data is not None else None,
            environ_base={"REMOTE_ADDR": "127.0.0.1"},
        ).get_environ()
        status: list[str] = []

        def start_response(line, response_headers, exc_info=None):
            status.append(line)

        started = time.process_time_ns()
        content = wire.read_whole(self.app(environ, start_response))
        spent = self.last_ns = time.process_time_ns() - started
        if self.measuring:
            self.counts[kind][0] += 1
            self.counts[kind][1] += spent
        return int(status[0][:3]), content

    def open(self, path: str, method: str, json=None, headers: dict | None = None) -> Answer:
        return Answer(*self(_service_kind(method, path), method, path, json, headers))


def _service_kind(method: str, path: str) -> str:
    if method == "GET":
        return "view"
    if path.endswith("/actions"):
        return "action"
    return "claim" if path.endswith("/players") else "creation"


class Answer:
    """What the Driver reads of an answer, as of a Flask test client's."""

    def __init__(self, status_code: int, content: bytes) -> None:
        self.status_code, self.content = status_code, content

    def get_json(self):
        return orjson.loads(self.content)

    def get_data(self, as_text: bool = False):
        return self.content.decode() if as_text else self.content


if __name__ == "__main__":
    main()
