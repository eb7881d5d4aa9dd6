"""Scale-out figures: actions per second through one and through two API instances, with the event
store on a 3-primary Redis Cluster and the queues on a standalone Redis; then how many keys landed
on each primary. For comparison, the same load through one instance with everything on one Redis.

    .venv/bin/python -m bench.cluster [--clients 16] [--seconds 15]

Each API instance is one gunicorn process (WEB_CONCURRENCY=1, 16 threads); two rq workers deal and
score. The clients are bench/load.py's closed-loop players (two-human 2p24 Sixty-Six, GET the view,
POST one action), spread evenly over the instances in use. On this 2-core machine every process
shares the same cores, so two instances show the cost of the split, not a speed-up. Bounded: each
slice runs `--seconds`, start-up waits are bounded, every process is stopped at the end.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

import redis

from bench import load
from bench.stack import BENCH_OPERATOR_TOKEN, Processes, Running, answers
from tests.support.cluster import Cluster
from tests.support.processes import WORKER_COMMAND
from tests.support.redis_proc import RedisProcess, free_port


class ScaledStack(Running):
    """A Cluster for events (or none: one Redis for all), a Redis for queues, N gunicorns, 2 workers."""

    def __init__(self, instances: int, cluster: bool = True):
        self.dir = Path(tempfile.mkdtemp(prefix="talon-bench-cluster-"))
        self.cluster = Cluster(self.dir) if cluster else None
        self.queues = RedisProcess(appendonly=True, workdir=str(self.dir))
        self.ports = [free_port() for _ in range(instances)]
        self.processes = Processes(self.dir)

    @property
    def apis(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    def _start(self) -> None:
        if self.cluster:
            self.cluster.start()
        self.queues.start()
        env = {
            **os.environ,
            "TALON_BOT_THINK_S": "0",
            "REDIS_URL": self.queues.url,
            "OPERATOR_TOKEN": BENCH_OPERATOR_TOKEN,
            "WEB_CONCURRENCY": "1",
            "LOG_LEVEL": "INFO",
            "TALON_RATE_LIMITS": "off",
        }
        if self.cluster:
            env["EVENTS_REDIS_URL"] = self.cluster.url
        for i, port in enumerate(self.ports):
            self.processes.gunicorn(f"api{i}", port, "service.wsgi:app", env)
        for i in range(2):
            self.processes.spawn(f"worker{i}", WORKER_COMMAND, env)
        for i, api in enumerate(self.apis):
            self.processes.wait_until(lambda api=api: answers(api + "/readyz"), f"API instance {i}")

    def keys_per_primary(self) -> dict[str, int]:
        if not self.cluster:
            return {"single": redis.Redis.from_url(self.queues.url).dbsize()}
        return {f"127.0.0.1:{port}": redis.Redis(port=port).dbsize() for port in self.cluster.ports}

    def stop(self) -> None:
        self.processes.stop()
        self.queues.stop()
        if self.cluster:
            self.cluster.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def drive(apis: list[str], clients: int, seconds: float, seed: int = 7) -> load.LoadStats:
    """bench/load.py's service clients, one process per instance, the clients split evenly."""
    return load.split(apis, clients, seconds, seed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args(argv)
    rows = []
    with ScaledStack(instances=1, cluster=False) as single:
        rows.append(("one Redis, 1 API instance", drive(single.apis, args.clients, args.seconds)))
    with ScaledStack(instances=2) as scaled:
        rows.append(("Cluster, 1 API instance", drive(scaled.apis[:1], args.clients, args.seconds)))
        rows.append(("Cluster, 2 API instances", drive(scaled.apis, args.clients, args.seconds)))
        keys = scaled.keys_per_primary()
    print(f"{args.clients} closed-loop clients, {args.seconds:.0f} s per slice, 2 rq workers, 2 cores shared")
    print(f"{'layout':28} {'actions/s':>10} {'POST p50 ms':>12} {'POST p95 ms':>12} {'refused':>8}")
    for name, stats in rows:
        posts = sorted(stats.post_s) or [0.0]
        p50, p95 = posts[len(posts) // 2] * 1000, posts[int(len(posts) * 0.95)] * 1000
        print(f"{name:28} {stats.per_second:10.0f} {p50:12.1f} {p95:12.1f} {stats.refused:8d}")
    print(
        "keys per primary after the Cluster slices: "
        + ", ".join(f"{node} {n}" for node, n in keys.items())
        + f" (total {sum(keys.values())})"
    )


if __name__ == "__main__":
    main()
