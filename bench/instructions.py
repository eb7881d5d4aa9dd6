"""`python -m bench.instructions [--moves N] [--base REV] [--with-redis]`: the instructions a move costs
the API's own code (and Redis), counted by valgrind: a figure the host's speed does not move.

The host's speed swings by a third from one slice to the next here: bench.versus needs a change of about
5% to see it, and two `make bench` runs differ by more than that. The same seeded matches played by the
same code run the same instructions to within about 0.3% (game ids, tokens and request ids are still
random), so a count tells a change of 1%.

What is counted: one process running the service's Flask app configured as `make run` configures it
(a request log line at INFO, metrics, the rate limits on with budgets above the load, as bench/stack.py
sets them), driven in that process through Flask's test client as bench/load.py's clients drive the
service: per move the acting seat's GET and its POST, and a share of the matches' creations and claims
(2p24 sixty-six, two human seats, a seed of its own chosen by the operator's token, so every run plays
the same moves). The count is that of WARM_UP + N moves less that of WARM_UP moves, divided by N: start-up
and the first requests' imports and caches are left out.

Not counted: gunicorn and gevent (per request the same for the bare endpoints), the kernel's side of
every system call, Redis, the workers and the clients. So the count is a share of what `make bench`
measures, the share the service's own code decides: compare counts, not the count with the bench's
milliseconds. With `--base REV`, that commit's code (a temporary git worktree, this checkout's
virtualenv) is counted the same way, after this checkout's.

With `--with-redis`, also what the same moves cost Redis: a fresh redis-server runs under valgrind (the
driver does not), from its start to its stop, once for WARM_UP + N moves and once for WARM_UP; its Lua
scripts are the counted checkout's. Redis is shared by every API process of a deployment, so its cost
per move bounds what all of them together can serve.

Needs valgrind (Debian: `apt-get install valgrind`); `make test` runs the driver without it.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WARM_UP = 40
OPERATOR_TOKEN = "bench-operator-token-0123456789abcdef"
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")
_HERE = Path(__file__).resolve()
REPO = _HERE.parents[1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200, help="moves counted, after the warm-up (default 200)")
    parser.add_argument("--base", help="also count this commit's code, to compare")
    parser.add_argument(
        "--with-redis", action="store_true", help="also count what the moves cost Redis (its server under valgrind)"
    )
    parser.add_argument("--drive", type=int, help=argparse.SUPPRESS)  # the counted process itself
    parser.add_argument("--redis", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.drive is not None:
        print(drive(args.drive, args.redis))
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench.instructions needs valgrind (Debian: apt-get install valgrind)")
    counted = {"the API's code": api_per_move, **({"Redis": redis_per_move} if args.with_redis else {})}
    print(f"instructions per move, {args.moves} moves after {WARM_UP}:")
    if not args.base:
        for part, per_move in counted.items():
            print(f"  {part:<16} {per_move(REPO, args.moves):>12,}")
        return
    from bench.checkouts import checkout_of  # not at the top: the driver runs inside an earlier commit's tree

    with checkout_of(args.base) as worktree:
        for part, per_move in counted.items():
            this, earlier = per_move(REPO, args.moves), per_move(worktree, args.moves)
            print(
                f"  {part:<16} {args.base}: {earlier:>12,}   this: {this:>12,}   this / {args.base}: {this / earlier:.4f}"
            )


def api_per_move(checkout: Path, moves: int) -> int:
    """Instructions per move of the API's code in `checkout`: WARM_UP + moves less WARM_UP, each counted once."""
    from tests.support.redis_proc import RedisProcess

    server = RedisProcess().start()
    try:
        return (_count_driver(checkout, moves, server.url) - _count_driver(checkout, 0, server.url)) // moves
    finally:
        server.stop()


def redis_per_move(checkout: Path, moves: int) -> int:
    """Instructions per move of a redis-server serving the API's code in `checkout` (the scripts are that
    code's): the server runs under valgrind, the driver does not."""
    return (_count_redis(checkout, moves) - _count_redis(checkout, 0)) // moves


def _valgrind(report: str) -> list[str]:
    return [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        f"--log-file={report}",
    ]


def _refs(report: str, what: str) -> int:
    found = _REFS.search(Path(report).read_text())
    if found is None:
        raise RuntimeError(f"valgrind gave no instruction count for {what}")
    return int(found.group(1).replace(",", ""))


def _drive_command(moves: int, redis_url: str) -> list[str]:
    return [sys.executable, str(_HERE), "--drive", str(moves), "--redis", redis_url]


def _run_driver(command: list[str], checkout: Path) -> None:
    subprocess.run(
        command,
        cwd=checkout,
        # The checkout's packages first; a fixed hash seed, so that sets and dicts iterate alike in every run.
        env={**os.environ, "PYTHONPATH": str(checkout), "PYTHONHASHSEED": "0"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # the request log: its writes' instructions count all the same
        check=True,
    )


def _count_driver(checkout: Path, moves: int, redis_url: str) -> int:
    """The instructions of one driver process (WARM_UP + `moves` moves) running the code in `checkout`."""
    with tempfile.NamedTemporaryFile(prefix="talon-cachegrind-", suffix=".log") as report:
        _run_driver([*_valgrind(report.name), *_drive_command(moves, redis_url)], checkout)
        return _refs(report.name, f"the driver in {checkout}")


def _count_redis(checkout: Path, moves: int) -> int:
    """The instructions of a fresh redis-server, from its start to its stop, serving one driver's WARM_UP +
    `moves` moves."""
    from tests.support.redis_proc import RedisProcess

    with tempfile.NamedTemporaryFile(prefix="talon-cachegrind-redis-", suffix=".log") as report:
        server = RedisProcess(wrapper=_valgrind(report.name), start_timeout_s=60).start()
        try:
            _run_driver(_drive_command(moves, server.url), checkout)
        finally:
            server.stop()  # valgrind writes its count when the server exits
        return _refs(report.name, f"Redis serving {checkout}")


def service_environment(redis_url: str) -> dict[str, str]:
    """The service's environment as `make run` sets it (a request log line at INFO, metrics, the rate
    limits on) with bench/stack.py's budgets above the load, on `redis_url`."""
    return {
        "REDIS_URL": redis_url,
        "OPERATOR_TOKEN": OPERATOR_TOKEN,
        "LOG_LEVEL": "INFO",
        "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix="talon-bench-metrics-"),
        "TALON_BOT_THINK_S": "0",
        "TALON_RATE_LIMIT_ACTIONS": "100000/second",
        "TALON_RATE_LIMIT_CREATE": "100000/minute",
        "TALON_RATE_LIMIT_JOIN": "100000/minute",
    }


def drive(moves: int, redis_url: str) -> str:
    """Plays WARM_UP + `moves` moves through the app in this process, on an emptied Redis database;
    returns a digest of every action posted and every answer's status (the same code plays the same)."""
    import redis

    os.environ.update(service_environment(redis_url))
    redis.Redis.from_url(redis_url).flushdb()
    from service.app import create_app  # after the environment: prometheus_client reads its directory at import

    return Driver(create_app().test_client()).play(WARM_UP + moves)


class Driver:
    """One client playing both seats of one match after another, as bench/load.py's do."""

    def __init__(self, client):
        self.client, self.matches = client, 0
        self.digest = hashlib.sha256()

    def play(self, moves: int) -> str:
        played, game, tokens, seat = 0, None, [], 0
        rng = random.Random(7)
        while played < moves:
            if game is None:
                game, tokens = self._new_match()
                seat = 0
            view = self._json("GET", f"/v1/games/{game}", tokens[seat])
            if view["status"] == "finished":
                game = None
                continue
            if not view["to_act"]:  # 2p24 between humans owes the workers nothing: its steps are taken in the requests
                raise RuntimeError(f"{game} waits for a worker's step, and the driver runs no worker")
            if seat not in view["to_act"]:
                seat = view["to_act"][0]  # the other seat acts: GET its view
                continue
            action = rng.choice(view["legal_actions"])
            headers = {"If-Match": f'"{view["version"]}"', "Idempotency-Key": f"{game}-{view['version']}"}
            after = self._json("POST", f"/v1/games/{game}/actions", tokens[seat], action, headers)
            self.digest.update(repr(action).encode())
            played += 1
            if after["status"] == "finished":
                game = None
            elif after["to_act"]:
                seat = after["to_act"][0]
        return f"{played} moves in {self.matches} matches: {self.digest.hexdigest()[:16]}"

    def _new_match(self) -> tuple[str, list[str]]:
        self.matches += 1
        created = self._json(
            "POST",
            "/v1/games",
            OPERATOR_TOKEN,
            {
                "game": "sixty-six",
                "options": {"variant": "2p24"},
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "seed": self.matches,
            },
        )
        game = created["game_id"]
        claims = [self._json("POST", f"/v1/games/{game}/players", None, {"name": name}) for name in ("north", "south")]
        return game, [claim["token"] for claim in claims]

    def _json(self, method: str, path: str, token: str | None, body=None, headers: dict | None = None) -> dict:
        headers = {**(headers or {}), **({"Authorization": f"Bearer {token}"} if token else {})}
        answer = self.client.open(path, method=method, json=body, headers=headers)
        if answer.status_code not in (200, 201):
            raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.get_data(as_text=True)[:300]}")
        self.digest.update(f"{method} {answer.status_code}".encode())
        return answer.get_json()


if __name__ == "__main__":
    main()
