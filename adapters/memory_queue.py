"""The job queue in memory (app/ports.py JobQueue), for unit tests without I/O: it records the jobs the
use cases enqueue, with their delays, and runs them when a test says so.

The same contract as the rq adapter (adapters/rq_queue.py; both run tests/integration/
test_port_contracts.py): a job is new unless one with its (kind, game, version, seat) is waiting or
ran already; `repair` queues again a job that is missing or failed and leaves a waiting one alone; a
delayed job is "scheduled" until its time comes, then "queued". Time here is the queue's own (`now`,
seconds from 0): `tick` moves it, so a test decides when a bot's delay or a turn timer runs out.

It knows no use case: `run_due` takes the function that runs a job (a test maps the kinds onto
Matches.advance, bot_turn and turn_timeout, as workers/jobs.py does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.ports import Job  # the port this adapter implements (app/ports.py JobQueue)

JobKey = tuple[str, str, int, "int | None"]


def job_key(job: Job) -> JobKey:
    return (job.kind, job.game_id, job.version, job.seat)


class InMemoryJobQueue:
    def __init__(self) -> None:
        self.now = 0.0
        self.reachable = True  # False: every enqueue raises ConnectionError, as an unreachable Redis
        self.enqueued: list[Job] = []  # every job accepted, in order (duplicates refused are not here)
        self.ran: list[Job] = []
        self._waiting: list[tuple[float, int, Job]] = []  # (due, order of enqueue, job)
        self._states: dict[JobKey, str] = {}  # "waiting", "started", "finished", "failed"
        self._order = 0

    # The port.

    def enqueue(self, jobs: Sequence[Job]) -> int:
        if not self.reachable:
            raise ConnectionError("the job queue is unreachable")
        return sum(self._add(job) for job in jobs if job_key(job) not in self._states)

    def repair(self, jobs: Sequence[Job]) -> int:
        return sum(self._add(job) for job in jobs if self._states.get(job_key(job)) in (None, "failed"))

    def depths(self) -> dict[str, int]:
        scheduled = sum(1 for due, _, _ in self._waiting if due > self.now)
        failed = sum(1 for state in self._states.values() if state == "failed")
        return {
            "queued": len(self._waiting) - scheduled,
            "started": 0,
            "scheduled": scheduled,
            "deferred": 0,
            "failed": failed,
        }

    # What a test does with it.

    def waiting(self) -> list[Job]:
        """The jobs not run yet, in the order they will run (due time, then enqueue order)."""
        return [job for _, _, job in sorted(self._waiting, key=lambda w: (w[0], w[1]))]

    def due(self) -> list[Job]:
        return [job for due, _, job in sorted(self._waiting, key=lambda w: (w[0], w[1])) if due <= self.now]

    def tick(self, seconds: float) -> None:
        self.now += seconds

    def fail(self, job: Job) -> None:
        """Marks a waiting job failed, as if its worker had raised (the sweeper's `repair` requeues it)."""
        self._waiting = [w for w in self._waiting if job_key(w[2]) != job_key(job)]
        self._states[job_key(job)] = "failed"

    def run_due(self, run: Callable[[Job], object], limit: int = 10_000) -> int:
        """Runs the jobs that are due, those they enqueue included, until none is; returns how many ran.
        A job that raises is marked failed and the exception goes on to the test."""
        count = 0
        while due := self.due():
            if count >= limit:
                raise RuntimeError(f"more than {limit} jobs: does a job enqueue itself again?")
            self._run(due[0], run)
            count += 1
        return count

    def run_next(self, run: Callable[[Job], object]) -> Job | None:
        """Moves the clock to the next job's time if it is not due yet, and runs that job only."""
        waiting = self.waiting()
        if not waiting:
            return None
        due, _, job = min(self._waiting, key=lambda w: (w[0], w[1]))
        self.now = max(self.now, due)
        self._run(job, run)
        return job

    def run_all(self, run: Callable[[Job], object], limit: int = 10_000) -> int:
        """Runs every job, moving the clock to each delayed job's time, until none waits."""
        count = self.run_due(run, limit)
        while self._waiting:
            self.now = max(self.now, min(due for due, _, _ in self._waiting))
            count += self.run_due(run, limit - count)
        return count

    # Inside.

    def _add(self, job: Job) -> int:
        self._waiting.append((self.now + max(job.delay_s, 0.0), self._order, job))
        self._order += 1
        self._states[job_key(job)] = "waiting"
        self.enqueued.append(job)
        return 1

    def _run(self, job: Job, run: Callable[[Job], object]) -> None:
        self._waiting = [w for w in self._waiting if w[2] is not job]
        self._states[job_key(job)] = "started"
        try:
            run(job)
        except Exception:
            self._states[job_key(job)] = "failed"
            raise
        self._states[job_key(job)] = "finished"
        self.ran.append(job)
