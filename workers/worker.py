"""The rq worker class Talon runs: rq's SimpleWorker with a cheaper heartbeat, and game jobs on a
shorter path than rq's own.

rq 3 sends a worker heartbeat as three separate commands (HSET `last_heartbeat`, EXPIRE on the worker
key and on its executions set), each its own round trip, and sends it three times around every job
outside a pipeline: when it starts listening, after the dequeue, and when the job is done. A round's
scoring is a job every few moves, so those nine round trips were a large part of what the worker spends
on rq rather than on the game (`python -m bench.rqcost`).

Here a heartbeat outside a pipeline is sent as one pipeline (the same commands, one round trip), and is
skipped when one with at least the same time-to-live went out less than HEARTBEAT_REPEAT_S ago: the
worker key then still lives for nearly as long as the new heartbeat would have made it (rq's idle wait is
a minute shorter than the key's life). Heartbeats rq sends inside its own pipelines are left as they are.
The worker's state is written once when rq sets the same state twice in a row outside a pipeline (it
sets `idle` after every job and again when it starts listening). Whether an operator suspended the
workers (`rq suspend`) is asked at most once every SUSPENSION_CHECK_S, not before every job.

**Game jobs run on a shorter path** (`run_game_job`). rq's own path records every job in several places
around it: an execution record, the started and finished registries, a result entry, the job hash
written again, the worker's counters; four MULTI/EXEC transactions and about 50 commands per job, ~1.5 ms
of the worker's CPU, as much as a round's scoring itself. A game job (a round's scoring, a bot's move, a
turn's timer: `GAME_JOB_FUNCTIONS`) needs none of it to be safe: it re-checks the game version and
appends with it, so running it twice does nothing, and the sweeper re-enqueues a job whose worker died
(workers/dispatch.py `_repair_id` reads the job's `started` status and time, which this path writes). So
it takes two pipelines: before it runs, the job's status `started` (with an expiry, so the record of a
job whose worker died does not stay forever), out of rq's intermediate list, the worker `busy`; after it,
`finished` with the result TTL of its id guard, the worker's counters, `idle`. A game job that raises
goes to rq's own failure handling (the failed registry with its traceback, as before). What an operator
no longer sees for game jobs: their executions (so a worker's current job id, which rq reads from them,
is none) and results, and the started registry (a running game job shows as the worker's `busy` state).
Any other job (the sweeper, a test's) runs on rq's own path.
This path calls rq methods rq's own path calls (job.prepare_for_execution, handle_exception,
handle_job_failure, the worker's counters), which is why pyproject.toml pins rq to 3.0.x;
tests/integration/test_worker_class.py checks what rq and the sweeper read of it.
"""
from __future__ import annotations

import sys
import time

from rq import Queue, SimpleWorker
from rq.exceptions import DeserializationError
from rq.job import Job, JobStatus
from rq.job_lifecycle import format_exc_info
from rq.logutils import blue, green
from rq.timeouts import JobTimeoutException
from rq.utils import now, utcformat
from rq.worker import WorkerStatus

from workers.dispatch import GAME_JOB_FUNCTIONS, JOB_TIMEOUT_S

HEARTBEAT_REPEAT_S = 1.0
# How soon the worker notices `rq suspend`: rq asks before every job, in a transaction with a heartbeat.
SUSPENSION_CHECK_S = 1.0
# A started game job's record outlives its time limit by this much, then goes if its worker died with it.
ABANDONED_RECORD_S = JOB_TIMEOUT_S + 60


class TalonWorker(SimpleWorker):
    _last_beat: tuple[float, int] | None = None   # (monotonic time, time-to-live) of the last heartbeat
    game_job_functions: frozenset[str] = GAME_JOB_FUNCTIONS   # run on the shorter path
    _suspension_checked = float("-inf")                      # monotonic time of the last check

    def execute_job(self, job: Job, queue: Queue) -> None:
        if self._is_game_job(job):
            self.run_game_job(job, queue)
        else:
            super().execute_job(job, queue)

    def run_game_job(self, job: Job, queue: Queue) -> bool:
        """Runs a game job with two pipelines of bookkeeping (module docstring). True if it succeeded."""
        with self.connection.pipeline(transaction=False) as pipe:
            job.prepare_for_execution(self.name, pipeline=pipe)   # status `started`, started_at, worker
            pipe.expire(job.key, ABANDONED_RECORD_S)
            pipe.lrem(queue.intermediate_queue_key, 1, job.id)
            self.set_state(WorkerStatus.BUSY, pipeline=pipe)     # a warm shutdown waits for the job
            pipe.execute()
        try:
            with self.death_penalty_class(job.timeout or queue.DEFAULT_TIMEOUT, JobTimeoutException, job_id=job.id):
                job.perform()
        except Exception:  # noqa: BLE001 - rq's failure handling records whatever the job raised
            job.ended_at = now()
            exc_info = sys.exc_info()
            self.handle_exception(job, *exc_info)
            self.handle_job_failure(job, queue, exc_string=format_exc_info(exc_info))
            self.set_state(WorkerStatus.IDLE)
            return False
        job.ended_at = now()
        job._status = JobStatus.FINISHED
        with self.connection.pipeline(transaction=False) as pipe:
            pipe.hset(job.key, mapping={"status": JobStatus.FINISHED, "ended_at": utcformat(job.ended_at)})
            pipe.expire(job.key, job.get_result_ttl(self.default_result_ttl))  # the id guards duplicates
            self.increment_successful_job_count(pipeline=pipe)
            self.increment_total_working_time(job.ended_at - job.started_at, pipe)
            self.set_state(WorkerStatus.IDLE, pipeline=pipe)
            pipe.execute()
        self.log.info('Worker %s: %s: %s (%s)', self.name, green(job.origin), blue('Job OK'), job.id)
        return True

    def check_for_suspension(self, burst: bool) -> None:
        if time.monotonic() - self._suspension_checked < SUSPENSION_CHECK_S:
            return
        super().check_for_suspension(burst)
        self._suspension_checked = time.monotonic()

    def _is_game_job(self, job: Job) -> bool:
        try:
            return job.func_name in self.game_job_functions
        except DeserializationError:
            return False   # rq's own path records it as failed

    def heartbeat(self, timeout: int | None = None, pipeline=None) -> None:
        timeout = timeout or self.worker_ttl + 60
        if pipeline is not None:
            super().heartbeat(timeout, pipeline)
        elif not self._beat_is_fresh(timeout):
            with self.connection.pipeline(transaction=False) as own:
                super().heartbeat(timeout, own)
                own.execute()
        else:
            return
        self._last_beat = (time.monotonic(), timeout)

    def set_state(self, state: str, pipeline=None) -> None:
        if pipeline is None and state == self._state:
            return
        super().set_state(state, pipeline)

    def _beat_is_fresh(self, timeout: int) -> bool:
        if self._last_beat is None:
            return False
        sent_at, ttl = self._last_beat
        return time.monotonic() - sent_at < HEARTBEAT_REPEAT_S and ttl >= timeout
