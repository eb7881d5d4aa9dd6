"""The worker class `python -m workers` runs (workers/worker.py): rq's own record of the worker stays
true with the cheaper heartbeat and state writes, which `rq info` and anyone watching the workers read."""
from __future__ import annotations

import signal

from rq import Queue, get_current_job
from rq.worker import Worker

from tests.support.talon import burst, run_jobs
from workers import worker as worker_module
from workers.dispatch import JOB_TIMEOUT_S
from workers.worker import TalonWorker


def own_worker_record() -> tuple[str, int]:
    """A job: its worker's state and the time-to-live of its worker key, as Redis holds them."""
    job = get_current_job()
    record = Worker.find_by_key(f"{Worker.redis_worker_namespace_prefix}{job.worker_name}", connection=job.connection)
    return record.get_state(), job.connection.ttl(record.key)


def test_a_running_job_sees_its_worker_busy_and_kept_alive(r):
    queue = Queue("worker-class", connection=r)
    jobs = [queue.enqueue(own_worker_record, job_timeout=JOB_TIMEOUT_S) for _ in range(3)]
    worker = TalonWorker([queue], connection=r)
    burst(worker, logging_level="WARNING")
    for job in jobs:
        state, ttl = job.return_value()
        assert state == "busy"
        assert JOB_TIMEOUT_S < ttl <= JOB_TIMEOUT_S + 60   # rq's heartbeat for the job's time limit
    assert r.hget(worker.key, "successful_job_count") == b"3"


def test_heartbeats_are_written_unless_one_as_long_went_out_just_before(r, monkeypatch):
    worker = TalonWorker([Queue("worker-class", connection=r)], connection=r)
    worker.register_birth()
    try:
        idle_ttl = worker.worker_ttl + 60
        worker.heartbeat()
        first = r.hget(worker.key, "last_heartbeat")
        assert idle_ttl - 2 <= r.ttl(worker.key) <= idle_ttl
        worker.heartbeat()
        worker.heartbeat(idle_ttl - 100)
        assert r.hget(worker.key, "last_heartbeat") == first   # the key lives as long already
        worker.heartbeat(idle_ttl + 600)
        longer = r.hget(worker.key, "last_heartbeat")
        assert longer != first and r.ttl(worker.key) > idle_ttl
        monkeypatch.setattr(worker_module, "HEARTBEAT_REPEAT_S", 0.0)
        worker.heartbeat(60)
        assert r.hget(worker.key, "last_heartbeat") != longer and r.ttl(worker.key) <= 60
    finally:
        worker.register_death()


def test_the_state_is_written_when_it_changes(r):
    worker = TalonWorker([Queue("worker-class", connection=r)], connection=r)
    worker.register_birth()
    try:
        for state in ("idle", "busy", "busy", "idle", "idle"):
            worker.set_state(state)
            assert r.hget(worker.key, "state") == state.encode()
    finally:
        worker.register_death()


def test_jobs_run_in_this_process_leave_ctrl_c_to_it(redis_url):
    handlers = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    run_jobs(redis_url, queue_name="worker-class")
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == handlers
