"""`python -m workers`: one non-forking rq worker with the scheduler, on REDIS_URL (workers/worker.py).

rq's default Worker forks a process per job (about 30 ms each here); a bot reply should feel instant,
so the worker runs jobs in its own process. Jobs are pure decisions plus one atomic append, and each
re-checks the game version, so a job that fails leaves nothing half-done to isolate.
"""
from __future__ import annotations

import gc
import logging
import threading
import time

import redis
from rq import Queue

from service import observability
from service.config import Settings
from workers.jobs import SWEEP_INTERVAL_S, enqueue_sweep
from workers.worker import TalonWorker

log = logging.getLogger("talon.worker")


def main() -> None:
    # Configure logging before the worker exists: rq 3 only adds its handlers where none is configured.
    # JSON lines with the job's id, game and seat; metrics of this process (service/observability.py).
    observability.init_worker()
    settings = Settings.from_env()
    connection = redis.Redis.from_url(settings.redis_url)
    queue = Queue(settings.queue_name, connection=connection)
    # The sweeper is enqueued by a timer thread, not by rq's scheduler: after a worker is killed, the
    # scheduler's lock stays with the dead worker for a minute, and repairs must not wait for it.
    # The thread has a client of its own: rq lengthens the socket timeout of the worker's connections
    # (redis-py's default, 5 s, is shorter than its blocking dequeue), but only of those made after the
    # worker exists; one the ticker made first would end every idle dequeue after 5 s with an error
    # and a pause of 1-2 s, in which a new job waited.
    ticker_queue = Queue(settings.queue_name, connection=redis.Redis.from_url(settings.redis_url))
    threading.Thread(target=_sweep_ticker, args=(ticker_queue,), name="sweep-ticker", daemon=True).start()
    # What is loaded by now lives as long as the process: the garbage collector need not walk it again
    # (deploy/gunicorn.conf.py says what a full collection of it cost).
    gc.freeze()
    work_through_outages(queue, connection)


def work_through_outages(queue: Queue, connection: redis.Redis) -> None:
    """Run the worker; when Redis goes away, wait for it and start a fresh worker (rq's own loop gives
    up on a lost connection). Returns when the worker is stopped by a signal."""
    # rq sets its loggers to INFO on import; LOG_LEVEL (the root logger's level) decides for them too.
    level = logging.getLevelName(logging.getLogger().getEffectiveLevel())
    while True:
        try:
            worker = TalonWorker([queue], connection=connection)
            worker.log_result_lifespan = False  # "result is kept for 60 seconds" after every job says nothing
            worker.work(with_scheduler=True, logging_level=level)
            return
        except (redis.ConnectionError, redis.TimeoutError) as lost:
            log.warning("Redis is unreachable (%s); waiting for it", lost)
            _wait_for_redis(connection)


def _wait_for_redis(connection: redis.Redis) -> None:
    delay = 0.5
    while True:
        time.sleep(delay)
        try:
            connection.ping()
            log.warning("Redis is back; the worker starts again")
            return
        except (redis.ConnectionError, redis.TimeoutError):
            delay = min(delay * 2, 10.0)


def _sweep_ticker(queue: Queue) -> None:
    while True:
        try:
            enqueue_sweep(queue)
        except Exception:  # noqa: BLE001 - Redis may be away for a while: try again next tick
            log.warning("could not enqueue the sweep", exc_info=True)
        time.sleep(SWEEP_INTERVAL_S)


if __name__ == "__main__":
    main()
