"""`python -m bench.lines [--moves N] [--top K]`: the lines of Python a move runs inside each app's WSGI
call, the service's beside the bare floor's, file by file: where the service's work over the floor's
lies, in a count that does not move with the host.

bench/requests.py's CPU times and `make bench`'s throughput swing by a third with this shared host's load
from one run to the next; the lines a move runs are the same whenever it is run (the service is played by
bench/instructions.py's seeded Driver, the floor by bench/requests.py's bare player, each in a process of
its own through bench/requests.py's Caller, on a Redis of its own). `sys.settrace` counts every line event
of the app's call, from the outer middleware to the answer's body read and closed (a move's enqueues run
at the close), and nothing of the driver's (its requests' environs are built outside the call). A line is not a fixed cost (one may call into C for a
hash, another only test a flag), so the count says where the work is, not what it costs; tracing makes the
calls many times slower, so no time is reported.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

import orjson

from bench import requests
from bench.requests import REPO, Caller, driver_output

_HERE = Path(__file__).resolve()
CALLER_FILE = requests.__file__
SERVICE_KINDS = ("view", "action", "claim", "creation")  # a move's requests (not bench/requests.py's livez)


def file_label(filename: str) -> str:
    """A file as the report names it: a library's by its path in the library (werkzeug/local.py), the
    repository's by its path in it, the standard library's by its path in it (logging/__init__.py)."""
    if "/site-packages/" in filename:
        return filename.split("/site-packages/", 1)[1]
    path = Path(filename)
    if path.is_relative_to(REPO):
        return str(path.relative_to(REPO))
    stdlib = Path(os.__file__).parent
    return f"stdlib/{path.relative_to(stdlib)}" if path.is_relative_to(stdlib) else filename


class CountingCaller(Caller):
    """bench/requests.py's Caller, counting the lines each measured request of `kinds` runs in the app."""

    def __init__(self, app, kinds: tuple[str, ...]) -> None:
        super().__init__(app)
        self.kinds = kinds
        self.lines: Counter[str] = Counter()
        self._counting = False
        self.app = self._counted(app)

    def __call__(self, kind: str, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, bytes]:
        self._counting = self.measuring and kind in self.kinds
        return super().__call__(kind, method, path, body, headers)

    def _counted(self, app):
        lines = self.lines

        def line(frame, event, arg):
            if event == "line":
                lines[frame.f_code.co_filename] += 1
            return line

        def call(frame, event, arg):
            # The answer's start_response is the server's (the Caller's), not the app's.
            return None if frame.f_code.co_filename == CALLER_FILE else line

        def counted(environ, start_response):
            if not self._counting:
                return app(environ, start_response)
            # The body is read and closed here, under the count: a response's close runs the work it
            # leaves for after the answer (a move's enqueues).
            sys.settrace(call)
            try:
                body = app(environ, start_response)
                try:
                    return [b"".join(body)]
                finally:
                    close = getattr(body, "close", None)
                    if close is not None:
                        close()
            finally:
                sys.settrace(None)

        return counted


def drive(target: str, moves: int, redis_url: str) -> dict[str, int]:
    """Plays the target's warm-up and `moves` measured moves in this process (bench/requests.py `play`)
    and returns the lines they ran, by file label."""
    kinds = ("get", "post") if target == "bare" else SERVICE_KINDS
    caller = requests.play(target, moves, redis_url, lambda app: CountingCaller(app, kinds))
    counted: Counter[str] = Counter()
    for filename, count in caller.lines.items():
        counted[file_label(filename)] += count
    return dict(counted)


def measure(moves: int) -> dict[str, dict[str, int]]:
    """{target: {file: lines}} of `moves` moves of each target, each driven in a process of its own."""
    from tests.support.redis_proc import RedisProcess

    server = RedisProcess().start()
    try:
        return {
            target: orjson.loads(driver_output(_HERE, target, "--moves", str(moves), "--redis", server.url))
            for target in ("service", "bare")
        }
    finally:
        server.stop()


def report(counted: dict[str, dict[str, int]], moves: int, top: int) -> str:
    service, bare = counted["service"], counted["bare"]
    total_service, total_bare = sum(service.values()), sum(bare.values())
    heading = "file (the service's largest excess over the floor's first)"
    lines = [
        f"lines of Python a move runs inside the app's WSGI call, {moves} moves: service {total_service / moves:,.0f},"
        f" floor {total_bare / moves:,.0f} ({total_service / total_bare:.2f}x)",
        f"  {heading:<60} {'service':>8} {'floor':>8} {'excess':>8}",
    ]
    files = sorted(set(service) | set(bare), key=lambda f: bare.get(f, 0) - service.get(f, 0))
    for name in files[:top]:
        s, b = service.get(name, 0) / moves, bare.get(name, 0) / moves
        lines.append(f"  {name:<60} {s:>8.0f} {b:>8.0f} {s - b:>+8.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.lines", description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="moves counted, after a warm-up (default 300)")
    parser.add_argument("--top", type=int, default=30, help="files listed (default 30)")
    parser.add_argument("--drive", choices=("service", "bare"), help=argparse.SUPPRESS)  # the measured process
    parser.add_argument("--redis", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.drive:
        sys.stdout.write(orjson.dumps(drive(args.drive, args.moves, args.redis)).decode())
        return
    print(report(measure(args.moves), args.moves, args.top))


if __name__ == "__main__":
    main()
