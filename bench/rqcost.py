"""`python -m bench.rqcost [--jobs N]`: what one rq job costs by itself, apart from its work.

Enqueues N no-op jobs (`os.getpid`) with the options the dispatcher uses (unique id, timeouts, result
TTL), then runs them in burst mode with one worker in this process, as `python -m workers` runs jobs, on
a fresh Redis on a free loopback port: with rq's SimpleWorker, with Talon's (workers/worker.py) on rq's
path (as it runs the sweeper), and with Talon's taking the no-op for a game job (its shorter path).
Prints the CPU per job of the enqueue (in the API) and of the worker, and the Redis commands per job: the
floor under every bot turn and every round's scoring.
"""
from __future__ import annotations

import argparse
import logging
import time

import redis
from rq import Queue, SimpleWorker

from tests.support.redis_proc import RedisProcess
from tests.support.talon import burst
from workers.dispatch import job_options
from workers.worker import TalonWorker


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.rqcost", description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2000)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    for name, worker_class in (("SimpleWorker", SimpleWorker), ("TalonWorker", TalonWorker),
                               ("TalonWorker, as a game job", NoOpAsGameJob)):
        print(f"rq, per no-op job ({args.jobs} jobs), {name}: {measure(worker_class, args.jobs)}")


class NoOpAsGameJob(TalonWorker):
    game_job_functions = frozenset({"os.getpid"})


def measure(worker_class: type[SimpleWorker], jobs: int) -> str:
    server = RedisProcess().start()
    try:
        client = redis.Redis.from_url(server.url)
        queue = Queue("rqcost", connection=client)
        client.config_resetstat()
        started = time.process_time()
        for i in range(jobs):
            queue.enqueue("os.getpid", **job_options(f"noop-{i}"))
        enqueued = time.process_time()
        burst(worker_class([queue], connection=client), logging_level="WARNING")
        worked = time.process_time()
        stats = client.info("commandstats")
        commands = sum(v["calls"] for v in stats.values())
        redis_us = sum(v["usec"] for v in stats.values())
    finally:
        server.stop()
    return (f"enqueue {1000 * (enqueued - started) / jobs:.2f} ms CPU, worker {1000 * (worked - enqueued) / jobs:.2f} "
            f"ms CPU, {commands / jobs:.0f} Redis commands ({redis_us / jobs:.0f} us of Redis time)")


if __name__ == "__main__":
    main()
