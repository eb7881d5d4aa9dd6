"""The service as `make run` starts it, for the bench: Redis, gunicorn and one rq worker, each its own process.

Redis runs append-only with `noeviction` (as in scripts/run) on a free loopback port, in a temporary
directory that is removed afterwards. With `bare=True`, a second gunicorn on the same settings and the
same Redis serves the floor endpoints of bench/bare.py. Everything is stopped when the `Stack` context ends.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import urllib.request
from pathlib import Path

import redis

from tests.support.processes import (
    START_TIMEOUT_S,
    WORKER_COMMAND,
    Proc,
    gunicorn_command,
    spawn,
    stop_process,
    wait_until,
)
from tests.support.redis_proc import free_port, redis_binary

BENCH_OPERATOR_TOKEN = "bench-operator-token-0123456789abcdef"  # 32+ characters: served as in production


class Processes:
    """Named processes started in one directory (tests/support/processes.py's `spawn`, a log each);
    `wait_until` polls a probe while they start and fails at once if one of them has exited; `stop`
    ends them in the reverse order of their start."""

    def __init__(self, directory: Path):
        self.dir = directory
        self.started: dict[str, Proc] = {}

    @property
    def procs(self) -> dict[str, subprocess.Popen]:
        return {name: proc.popen for name, proc in self.started.items()}

    def spawn(self, name: str, args: list[str], env: dict | None = None) -> None:
        self.started[name] = spawn(name, args, env, self.dir)

    def gunicorn(self, name: str, port: int, app: str, env: dict) -> None:
        """gunicorn with the deployed settings (deploy/gunicorn.conf.py) serving `app` on a loopback port."""
        self.spawn(name, gunicorn_command(port, app), env)

    def wait_until(self, probe, what: str) -> None:
        wait_until(probe, self.started.values(), what, START_TIMEOUT_S)

    def log(self, name: str) -> str:
        proc = self.started.get(name)
        return proc.log() if proc is not None else ""

    def stop(self) -> None:
        for proc in reversed(list(self.started.values())):
            stop_process(proc.popen)


def answers(url: str) -> bool:
    return urllib.request.urlopen(url, timeout=1).status == 200


class Running:
    """A set of processes as a context: `_start` on entry (everything started so far is stopped if it
    fails), `stop` on exit."""

    def __enter__(self):
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError


class Stack(Running):
    def __init__(self, operator_token: str = BENCH_OPERATOR_TOKEN, web_concurrency: int = 2, bare: bool = False):
        self.operator_token = operator_token
        self.web_concurrency = web_concurrency
        self.bare = bare
        self.dir = Path(tempfile.mkdtemp(prefix="talon-bench-"))
        self.redis_port, self.api_port, self.bare_port = free_port(), free_port(), free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.base_url = f"http://127.0.0.1:{self.api_port}"
        self.bare_url = f"http://127.0.0.1:{self.bare_port}"
        self.health_port = free_port()  # the API's probes' own listener (service/health.py), as make run has it
        self.health_url = f"http://127.0.0.1:{self.health_port}"
        self.processes = Processes(self.dir)

    def _start(self) -> None:
        spawn, wait_until = self.processes.spawn, self.processes.wait_until
        spawn(
            "redis",
            [
                redis_binary(),
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.dir),
                "--appendonly",
                "yes",
                "--maxmemory-policy",
                "noeviction",
                "--save",
                "",
            ],
        )
        wait_until(lambda: redis.Redis.from_url(self.redis_url).ping(), "redis")
        # As `make run` serves it: a JSON log line per request, metrics in Prometheus' multiprocess mode,
        # the rate limits on (the load's clients each come from an address of their own: bench/load.py).
        env = {
            **os.environ,
            "TALON_BOT_THINK_S": "0",
            "REDIS_URL": self.redis_url,
            "OPERATOR_TOKEN": self.operator_token,
            "WEB_CONCURRENCY": str(self.web_concurrency),
            "LOG_LEVEL": "INFO",
            "PROMETHEUS_MULTIPROC_DIR": str(self.dir / "metrics"),
            # Limits on, as deployed, with the budgets raised above the load: a closed-loop client acts
            # for both seats of its match as fast as the service answers (on a fast host over 20 actions
            # a second a seat) and finishes a match every second or two, which no person does; at a
            # person's budgets the bench met 429s, as many as the host was fast. Their cost is paid all
            # the same: the seat's throttle runs in every move's APPEND script, the address's GCRA call
            # on every create and join.
            "TALON_RATE_LIMIT_ACTIONS": "100000/second",
            "TALON_RATE_LIMIT_CREATE": "100000/minute",
            "TALON_RATE_LIMIT_JOIN": "100000/minute",
        }
        (self.dir / "metrics").mkdir()
        api_env = {**env, "TALON_HEALTH_BIND": f"127.0.0.1:{self.health_port}"}
        self.processes.gunicorn("gunicorn", self.api_port, "service.wsgi:app", api_env)
        spawn("worker", WORKER_COMMAND, env)
        if self.bare:
            self.processes.gunicorn("bare", self.bare_port, "bench.bare:app", env)
            wait_until(lambda: answers(self.bare_url + "/bare/probe"), "the bare endpoints")
        wait_until(lambda: answers(self.base_url + "/readyz"), "the API")

    @property
    def procs(self) -> dict[str, subprocess.Popen]:
        return self.processes.procs

    def log(self, name: str) -> str:
        return self.processes.log(name)

    def stop(self) -> None:
        """The worker and the APIs first (they need Redis to stop cleanly), Redis last."""
        self.processes.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
