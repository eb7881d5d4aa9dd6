"""The job queue on rq (app/ports.py JobQueue): each job under an id unique to (kind, game, version[, seat]).

The id makes a duplicate enqueue harmless (rq refuses a second job with the same id, `unique=True`), and
every job re-checks the version before it appends, so a stale or duplicated job does nothing. Only rq's
public API: `Queue.enqueue` and `enqueue_in` (a delayed bot or a turn timer; the worker runs rq's
scheduler), `Job.fetch` and the registries for the sweeper and the metrics. Game jobs are ordinary rq
jobs: operators see them in rq's registries and in rq-dashboard like any other.

Two queues: TALON_QUEUE ("talon") for the matches a human plays, and "<TALON_QUEUE>-bots" for the jobs
of those the bots play alone: no human seat, or every one open or taken over (`Job.background`). A worker listens to both in that order, and rq takes a job
from the first queue that holds one: a bot-only match's job runs only when no human match's job waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job as RqJob
from rq.job import JobStatus
from rq.registry import DeferredJobRegistry, FailedJobRegistry, ScheduledJobRegistry, StartedJobRegistry

if TYPE_CHECKING:
    from app.ports import Job  # the port this adapter implements (app/ports.py JobQueue)

JOB_TIMEOUT_S = 60
RESULT_TTL_S = 60  # finished jobs only guard their id briefly; every job re-checks the version anyway
FAILURE_TTL_S = 3600
# The functions the worker runs (workers/jobs.py), named, not imported: the queue is not the worker.
BACKGROUND_SUFFIX = "-bots"
FUNCTIONS = {
    "advance": "workers.jobs.advance",
    "bot": "workers.jobs.bot_turn",
    "timeout": "workers.jobs.turn_timeout",
    "project": "workers.jobs.project",
}


def background_queue_name(queue_name: str) -> str:
    """The queue of the bot-only matches' jobs beside `queue_name`."""
    return queue_name + BACKGROUND_SUFFIX


def main_queue_name(queue_name: str) -> str:
    """The main queue's name, given the name of either of the two queues."""
    return queue_name.removesuffix(BACKGROUND_SUFFIX)


def job_id(job: Job) -> str:
    # rq ids allow only letters, digits, '_' and '-'.
    return f"{job.kind}-{job.game_id}-{job.version}" + ("" if job.seat is None else f"-{job.seat}")


class RqJobQueue:
    def __init__(self, connection: redis.Redis, queue_name: str, stale_job_s: float = 30.0):
        """`stale_job_s`: a job popped or started this long ago lost its worker (game jobs take
        milliseconds); the sweeper queues it again."""
        self.queue = Queue(queue_name, connection=connection)
        self.background = Queue(background_queue_name(queue_name), connection=connection)
        self.stale_job_s = stale_job_s

    def enqueue(self, jobs: Sequence[Job]) -> int:
        try:
            return sum(self._enqueue(job, job_id(job)) for job in jobs)
        except redis.RedisError as exc:
            raise ConnectionError(f"the job queue is unreachable: {exc}") from exc

    def repair(self, jobs: Sequence[Job]) -> int:
        new = 0
        for job in jobs:
            jid = self._repair_id(job_id(job), self._queue_of(job))
            if jid is not None:
                new += self._enqueue(job, jid)
        return new

    def depths(self) -> dict[str, int]:
        """Both queues' jobs together."""
        counts: dict[str, int] = {}
        for queue in (self.queue, self.background):
            for state, count in {
                "queued": queue.count,
                "started": StartedJobRegistry(queue=queue).count,
                "scheduled": ScheduledJobRegistry(queue=queue).count,
                "deferred": DeferredJobRegistry(queue=queue).count,
                "failed": FailedJobRegistry(queue=queue).count,
            }.items():
                counts[state] = counts.get(state, 0) + count
        return counts

    def _queue_of(self, job: Job) -> Queue:
        return self.background if job.background else self.queue

    def _enqueue(self, job: Job, jid: str) -> int:
        args = (job.game_id, job.version) if job.seat is None else (job.game_id, job.version, job.seat)
        options = dict(
            job_id=jid, unique=True, job_timeout=JOB_TIMEOUT_S, result_ttl=RESULT_TTL_S, failure_ttl=FAILURE_TTL_S
        )
        queue = self._queue_of(job)
        try:
            if job.delay_s > 0:
                queue.enqueue_in(timedelta(seconds=job.delay_s), FUNCTIONS[job.kind], *args, **options)
            else:
                queue.enqueue(FUNCTIONS[job.kind], *args, **options)
        except DuplicateJobError:
            return 0
        return 1

    def _repair_id(self, jid: str, queue: Queue) -> str | None:
        """The id under which the sweeper queues a lost job again, or None while the job is alive.

        None exists: the same id. It failed or was stopped: deleted, the same id. Its worker died
        with it (popped from the queue but never started, or started long ago; bot turns and scoring
        take milliseconds): a new id beside it, since running a job twice is harmless (each one
        re-checks the version and appends with it).
        """
        try:
            job = RqJob.fetch(jid, connection=self.queue.connection)
        except NoSuchJobError:
            return jid
        status = job.get_status(refresh=True)
        if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
            job.delete()
            return jid
        since = {JobStatus.STARTED: job.started_at, JobStatus.QUEUED: job.enqueued_at}.get(status)
        if since is None or (status == JobStatus.QUEUED and self._waiting_in_queue(jid, queue)):
            return None
        age_s = (datetime.now(UTC) - since.replace(tzinfo=UTC)).total_seconds()
        return f"{jid}-r{int(age_s)}" if age_s > self.stale_job_s else None

    @staticmethod
    def _waiting_in_queue(jid: str, queue: Queue) -> bool:
        # A queued job a worker popped sits in rq's intermediate list until the worker starts it.
        return queue.connection.lpos(queue.key, jid) is not None
