"""`python -m workers`: one rq worker with the scheduler, on REDIS_URL: rq's SimpleWorker as it is.

rq's default Worker forks a process per job (about 30 ms each here); a bot reply should feel instant,
so the worker runs jobs in its own process. Jobs are pure decisions plus one atomic append, and each
re-checks the game version, so a job that fails leaves nothing half-done to isolate.

It stops on SIGTERM within STOP_S whatever Redis is doing: while rq works, rq's own warm shutdown
(the job in hand finishes); while Redis is away (rq's loop gives up on a lost connection and this module
waits for Redis to come back), at once; and when the signal finds rq retrying a lost Redis, whose warm
shutdown then fails to reach Redis, at once too (`StoppableWorker` records the request).
"""

from __future__ import annotations

import gc
import logging
import signal
import threading
import time

import redis
from rq import Queue, SimpleWorker, get_current_job

from adapters.rq_queue import background_queue_name
from app import bootstrap, logformat, telemetry
from app.projections import Projections
from app.settings import Settings
from workers.jobs import enqueue_catch_up, enqueue_sweep

log = logging.getLogger("talon.worker")

STOP_S = 10  # documented in deploy/README.md: a worker's stop takes at most this long
MAX_RETRY_S = 5.0  # the longest wait between two tries to reach Redis
CATCH_UP_INTERVAL_S = 1.0  # how soon the projections record the end of a match without a job of its own


def main() -> None:
    settings = Settings.from_env()
    # Logging before the worker exists: rq 3 only adds its handlers where none is configured.
    logformat.add_context(job_context)
    telemetry.configure_logging(settings)
    telemetry.install_metrics()
    if settings.worker_metrics_port:
        from prometheus_client import start_http_server

        start_http_server(settings.worker_metrics_port, addr=settings.worker_metrics_addr)
    stopping = threading.Event()
    connection = redis.Redis.from_url(settings.redis_url)
    # The human matches' queue first: rq takes a job from the first queue holding one, so a bot-only
    # match's job (its own queue) waits while a human match's job does.
    queues = [
        Queue(settings.queue_name, connection=connection),
        Queue(background_queue_name(settings.queue_name), connection=connection),
    ]
    # The sweeper and the projections' catch-up are enqueued by a timer thread, not by rq's scheduler:
    # after a worker is killed, the scheduler's lock stays with the dead worker for a minute, and repairs
    # must not wait for it. The thread has a client of its own: rq lengthens the socket timeout of the
    # worker's connections (redis-py's default, 5 s, is shorter than its blocking dequeue), but only of
    # those made after the worker exists.
    ticker = Ticker(Queue(settings.queue_name, connection=redis.Redis.from_url(settings.redis_url)), settings)
    threading.Thread(target=ticker.run, args=(stopping,), name="ticker", daemon=True).start()
    # What is loaded by now lives as long as the process: the garbage collector need not walk it again.
    gc.freeze()
    work_through_outages(queues, connection, settings, stopping)


def job_context() -> dict:
    """The rq job being run: its id, and the game and seat of its arguments, for every log line."""
    job = get_current_job()  # None outside a job
    if job is None:
        return {}
    context = {"job_id": job.id}
    args = job.args or ()
    if args and isinstance(args[0], str):
        context["game_id"] = args[0]
    if len(args) >= 3 and isinstance(args[2], int):
        context["seat"] = args[2]
    return context


def work_through_outages(
    queues: list[Queue], connection: redis.Redis, settings: Settings, stopping: threading.Event
) -> None:
    """Runs the worker; when Redis goes away (rq's own loop gives up on a lost connection), waits for
    it and starts a fresh worker. Returns when asked to stop (SIGTERM, SIGINT) in either state."""
    while not stopping.is_set():
        try:
            worker = StoppableWorker(queues, connection=connection)
            worker.stopping = stopping
            worker.log_result_lifespan = False  # "result is kept for 60 seconds" after every job says nothing
            worker.work(with_scheduler=True, logging_level=settings.log_level)
            return  # rq stopped on a signal (its warm shutdown)
        except (redis.ConnectionError, redis.TimeoutError) as lost:
            _on_signals(stopping)  # rq's handlers point at the worker that gave up
            if stopping.is_set():
                # The signal came while rq was retrying a lost Redis: rq's warm shutdown then fails to
                # say goodbye to Redis (its teardown raises); that is no outage to wait out.
                log.warning("stopped while Redis is unreachable (%s)", lost)
                return
            log.warning("Redis is unreachable (%s); waiting for it", lost)
            _wait_for_redis(connection, stopping)


class StoppableWorker(SimpleWorker):
    """rq's SimpleWorker that also records a stop request in `stopping`, so that a stop asked for during
    an outage is not taken for the outage once rq's loop gives up."""

    stopping: threading.Event

    def request_stop(self, signum, frame):
        self.stopping.set()
        super().request_stop(signum, frame)


def _on_signals(stopping: threading.Event) -> None:
    def stop(signum, _frame) -> None:
        log.warning("stopping on signal %s", signum)
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


def _wait_for_redis(connection: redis.Redis, stopping: threading.Event) -> None:
    delay = 0.5
    while not stopping.wait(delay):
        try:
            connection.ping()
            log.warning("Redis is back; the worker starts again")
            return
        except (redis.ConnectionError, redis.TimeoutError):
            delay = min(delay * 2, MAX_RETRY_S)


class Ticker:
    """Each second, a catch-up of the projections while the feed is ahead of their cursor (the ends of
    matches nobody registered plays enqueue no job of their own: app/matches.py); each
    TALON_SWEEP_INTERVAL_S, a sweep. Each job's id names its time slot, so several workers enqueue it
    once."""

    def __init__(self, queue: Queue, settings: Settings, projections: Projections | None = None):
        """`projections`: unless given, built at the first tick that needs them, on the queue's
        connection: building them may reach Redis (a Cluster's client reads its slots at once), and a
        worker started while Redis is away waits for it instead of failing."""
        self.queue, self.settings, self.projections = queue, settings, projections
        self.next_sweep = 0.0  # time.monotonic() of the next sweep
        self.failing: set[str] = set()  # the steps whose last try failed (each logged once per outage)

    def run(self, stopping: threading.Event) -> None:
        while not stopping.is_set():
            self.tick()
            stopping.wait(CATCH_UP_INTERVAL_S)

    def tick(self) -> None:
        now = time.monotonic()
        if now >= self.next_sweep and self._try("enqueue the sweep", self._sweep):
            self.next_sweep = now + self.settings.sweep_interval_s
        self._try("enqueue the projections' catch-up", self._catch_up)

    def _sweep(self) -> None:
        enqueue_sweep(self.queue, self.settings.sweep_interval_s)

    def _catch_up(self) -> None:
        if self.projections is None:
            self.projections = bootstrap.build(self.settings, client=self.queue.connection).projections
        if self.projections.behind():
            enqueue_catch_up(self.queue, CATCH_UP_INTERVAL_S)

    def _try(self, what: str, step) -> bool:
        """Runs `step`; while Redis is away, logs its first failure only and tries again next tick. Each
        step counts apart: the sweep's queue may answer while the events' Cluster does not."""
        try:
            step()
        except Exception:  # noqa: BLE001 - Redis may be away for a while
            if what not in self.failing:
                log.warning("could not %s; trying again each tick", what, exc_info=True)
            self.failing.add(what)
            return False
        self.failing.discard(what)
        return True


if __name__ == "__main__":
    main()
