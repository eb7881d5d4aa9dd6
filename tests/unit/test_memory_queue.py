"""The in-memory job queue's own controls (what the contract suite cannot ask of rq): the jobs a test
runs, in their order and at their time, a job that ran holding its id, and a failing job."""

from __future__ import annotations

import pytest

from adapters.memory_queue import InMemoryJobQueue
from app.ports import Job

BOT, TIMER, ADVANCE = Job("bot", "g1", 3, 1), Job("timeout", "g1", 3, 0, delay_s=30.0), Job("advance", "g1", 4)


def test_jobs_run_in_due_order_and_the_jobs_they_enqueue_too():
    queue, ran = InMemoryJobQueue(), []

    def run(job):
        ran.append(job)
        if job is BOT:
            queue.enqueue([ADVANCE])

    queue.enqueue([TIMER, BOT])
    assert queue.waiting() == [BOT, TIMER] and queue.due() == [BOT]
    assert queue.run_due(run) == 2 and ran == [BOT, ADVANCE]
    assert queue.waiting() == [TIMER] and queue.depths()["scheduled"] == 1
    queue.tick(30)
    assert queue.depths()["queued"] == 1 and queue.run_due(run) == 1 and ran[-1] == TIMER
    assert queue.ran == [BOT, ADVANCE, TIMER]


def test_a_job_that_ran_keeps_its_id():
    queue = InMemoryJobQueue()
    queue.enqueue([BOT])
    queue.run_due(lambda job: None)
    assert queue.enqueue([BOT]) == 0 and queue.repair([BOT]) == 0


def test_a_failing_job_is_marked_failed_and_its_error_reaches_the_test():
    queue = InMemoryJobQueue()
    queue.enqueue([BOT])
    with pytest.raises(ZeroDivisionError):
        queue.run_due(lambda job: 1 / 0)
    assert queue.depths()["failed"] == 1 and queue.repair([BOT]) == 1


def test_run_next_and_run_all_move_the_clock_to_the_jobs_time():
    queue = InMemoryJobQueue()
    queue.enqueue([TIMER, Job("timeout", "g2", 1, 0, delay_s=90.0)])
    assert queue.run_next(lambda job: None) == TIMER and queue.now == 30
    assert queue.run_all(lambda job: None) == 1 and queue.now == 90
    assert queue.run_next(lambda job: None) is None


def test_a_job_that_enqueues_itself_for_ever_is_stopped():
    queue = InMemoryJobQueue()
    queue.enqueue([Job("advance", "g1", 0)])
    with pytest.raises(RuntimeError):
        queue.run_due(lambda job: queue.enqueue([Job("advance", "g1", job.version + 1)]), limit=50)
