"""`python -m bench.rqcost [--jobs N]`: what one rq job costs by itself, apart from its work.

Enqueues N no-op jobs (`os.getpid`) with the options the dispatcher uses (unique id, timeouts, result
TTL), then runs them with one SimpleWorker in burst mode, as `python -m workers` runs jobs, on a fresh
Redis on a free loopback port. Prints the CPU per job of the enqueue (in the API) and of the worker, and
the Redis commands per job: the floor under every bot turn and every round's scoring.
"""
from __future__ import annotations

import argparse
import logging
import time

import redis
from rq import Queue, SimpleWorker

from tests.support.redis_proc import RedisProcess
from workers.dispatch import job_options


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.rqcost", description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2000)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    server = RedisProcess().start()
    try:
        client = redis.Redis.from_url(server.url)
        queue = Queue("rqcost", connection=client)
        client.config_resetstat()
        started = time.process_time()
        for i in range(args.jobs):
            queue.enqueue("os.getpid", **job_options(f"noop-{i}"))
        enqueued = time.process_time()
        SimpleWorker([queue], connection=client).work(burst=True, logging_level="WARNING")
        worked = time.process_time()
        stats = client.info("commandstats")
        commands = sum(v["calls"] for v in stats.values())
        redis_us = sum(v["usec"] for v in stats.values())
    finally:
        server.stop()
    print(f"rq, per no-op job ({args.jobs} jobs): enqueue {1000 * (enqueued - started) / args.jobs:.2f} ms CPU, "
          f"worker {1000 * (worked - enqueued) / args.jobs:.2f} ms CPU, {commands / args.jobs:.0f} Redis commands "
          f"({redis_us / args.jobs:.0f} us of Redis time)")


if __name__ == "__main__":
    main()
