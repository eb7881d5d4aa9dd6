"""Enqueue the jobs a table needs next, each under an id unique to (game, version[, seat]).

The id makes a duplicate enqueue harmless (rq refuses a second job with the same id), and every job
re-checks the version before it appends, so a stale or duplicated job does nothing.
"""
from __future__ import annotations

import logging
import os
from datetime import datetime, timedelta, timezone

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.scripts import save_unique_job

from games import table as tables

log = logging.getLogger("talon.dispatch")

JOB_TIMEOUT_S = 60
# A job popped or started this long ago lost its worker: bot turns and scoring take milliseconds.
STALE_STARTED_S = float(os.environ.get("TALON_STALE_JOB_S", "30"))
RESULT_TTL_S = 60  # finished jobs only guard their id briefly; every job re-checks the version anyway
FAILURE_TTL_S = 3600
JOB_FUNCTIONS = {"advance": "workers.jobs.advance", "bot": "workers.jobs.bot_turn",
                 "timeout": "workers.jobs.turn_timeout"}
# What the worker runs on its shorter path (workers/worker.py): version-checked, no callbacks,
# dependents, retries or repeats.
GAME_JOB_FUNCTIONS = frozenset(JOB_FUNCTIONS.values())


def job_id(kind: str, game_id: str, version: int, seat: int | None) -> str:
    # rq ids allow only letters, digits, '_' and '-'.
    return f"{kind}-{game_id}-{version}" + ("" if seat is None else f"-{seat}")


def job_options(jid: str) -> dict:
    """rq's options for every game job: the unique id that makes a duplicate enqueue harmless, timeouts."""
    return dict(job_id=jid, unique=True, job_timeout=JOB_TIMEOUT_S, result_ttl=RESULT_TTL_S, failure_ttl=FAILURE_TTL_S)


class GameQueue(Queue):
    """rq's Queue, with the unique enqueue of a game job in one round trip instead of two.

    rq adds the queue's name to its set of known queues (`rq:queues`, which `rq info` and Queue.all()
    read) in a round trip of its own before every enqueue, then runs its unique-enqueue script. Here
    the name is added once per Queue object, and a unique job without dependencies or rate limit (every
    game job) goes straight to rq's script, as rq's own path would after its checks: a round's last
    move, whose POST enqueues the scoring, waited for that extra trip. Anything else takes rq's path.
    Uses rq's `_prepare_for_queue` and `save_unique_job`, hence the pin to rq 3.0.x
    (tests/integration/test_workers.py checks the job against one rq enqueues itself)."""

    _registered = False

    def enqueue_job(self, job: Job, pipeline=None, at_front: bool = False, unique: bool = False) -> Job:
        if not unique or pipeline is not None or job._dependency_ids or job.has_rate_limit or not self._is_async:
            return super().enqueue_job(job, pipeline=pipeline, at_front=at_front, unique=unique)
        if not self._registered:
            self.connection.sadd(self.redis_queues_keys, self.key)
            self._registered = True
        job.origin = self.name
        self._prepare_for_queue(job)
        save_unique_job(self.connection, self.key, job, at_front=at_front)
        return job


class Dispatcher:
    def __init__(self, client: redis.Redis, queue_name: str, bot_delay_s: float = 0.0):
        self.queue = GameQueue(queue_name, connection=client)
        self.bot_delay_s = bot_delay_s

    def followups(self, table: tables.Table, repair: bool = False) -> int:
        """Enqueue every job the table waits for; returns how many were new.

        With `repair`, a job under the same id that failed or vanished is replaced (the sweeper's case).
        """
        new = 0
        for kind, seat in tables.owed_work(table):
            jid = job_id(kind, table.game_id, table.version, seat)
            if repair:
                jid = self._repair_id(jid)
                if jid is None:
                    continue
            new += self._enqueue(kind, jid, table, seat)
        return new

    def _enqueue(self, kind: str, jid: str, table: tables.Table, seat: int | None) -> int:
        args = (table.game_id, table.version) if seat is None else (table.game_id, table.version, seat)
        options = job_options(jid)
        delay = {"bot": self.bot_delay_s, "timeout": table.turn_timeout_s or 0}.get(kind, 0)
        try:
            if delay > 0:
                self.queue.enqueue_in(timedelta(seconds=delay), JOB_FUNCTIONS[kind], *args, **options)
            else:
                self.queue.enqueue(JOB_FUNCTIONS[kind], *args, **options)
        except DuplicateJobError:
            return 0
        return 1

    def _repair_id(self, jid: str) -> str | None:
        """The id under which the sweeper re-enqueues a lost job, or None while the job is alive.

        None exists: the same id. It failed or was stopped: deleted, the same id. Its worker died
        with it (popped from the queue but never started, or started long ago; bot turns and scoring
        take milliseconds): a new id beside it, since running a job twice is harmless (each one
        re-checks the version and appends with it).
        """
        try:
            job = Job.fetch(jid, connection=self.queue.connection)
        except NoSuchJobError:
            return jid
        status = job.get_status(refresh=True)
        if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
            job.delete()
            return jid
        since = {JobStatus.STARTED: job.started_at, JobStatus.QUEUED: job.enqueued_at}.get(status)
        if since is None or (status == JobStatus.QUEUED and self._waiting_in_queue(jid)):
            return None
        age_s = (datetime.now(timezone.utc) - since.replace(tzinfo=timezone.utc)).total_seconds()
        return f"{jid}-r{int(age_s)}" if age_s > STALE_STARTED_S else None

    def _waiting_in_queue(self, jid: str) -> bool:
        # A queued job a worker popped sits in rq's intermediate list until the worker starts it.
        return self.queue.connection.lpos(self.queue.key, jid) is not None
