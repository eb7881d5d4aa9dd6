"""The worker class `python -m workers` runs (workers/worker.py): rq's own record of the worker stays
true with the cheaper heartbeat and state writes, which `rq info` and anyone watching the workers read;
game jobs, on their shorter path, leave what rq and the sweeper read of a job (its status and times, the
failed registry) and nothing that would pile up."""
from __future__ import annotations

import signal
import time

import pytest
from rq import Queue, get_current_job
from rq.exceptions import StopRequested
from rq.job import Job
from rq.registry import FailedJobRegistry, FinishedJobRegistry, StartedJobRegistry
from rq.suspension import resume, suspend
from rq.worker import Worker

from service.usecases import Talon
from tests.support.talon import burst, run_jobs
from workers import worker as worker_module
from workers.dispatch import JOB_TIMEOUT_S, RESULT_TTL_S, job_options
from workers.worker import ABANDONED_RECORD_S, TalonWorker


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


def own_job_record() -> None:
    """A job: notes its status, worker and time-to-live as Redis holds them, whether rq's intermediate
    list (popped, not yet started) still names it, and its worker's state (a game job keeps no return
    value)."""
    job = get_current_job()
    state, _ = own_worker_record()
    stored = Job.fetch(job.id, connection=job.connection)
    popped = job.connection.lpos(Queue(job.origin, connection=job.connection).intermediate_queue_key, job.id)
    job.connection.hset(f"seen:{job.id}", mapping={"status": stored.get_status(), "worker": stored.worker_name,
                                                    "ttl": job.connection.ttl(job.key), "popped": int(popped is not None),
                                                    "worker_state": state})


def seen(r, job: Job) -> tuple[str, str, int, bool, str]:
    noted = {k.decode(): v.decode() for k, v in r.hgetall(f"seen:{job.id}").items()}
    return noted["status"], noted["worker"], int(noted["ttl"]), noted["popped"] == "1", noted["worker_state"]


def failing_job() -> None:
    raise ValueError("the rules refused")


def slow_job() -> None:
    time.sleep(5)


class GameJobsWorker(TalonWorker):
    """Talon's worker with this module's jobs on the game jobs' path."""
    game_job_functions = frozenset(f"{__name__}.{name}" for name in ("own_job_record", "failing_job", "slow_job"))


def test_a_game_job_is_started_as_rq_and_the_sweeper_read_it_and_finished_with_an_expiring_record(r):
    queue = Queue("worker-class", connection=r)
    jobs = [queue.enqueue(own_job_record, **job_options(f"game-{i}")) for i in range(3)]
    worker = GameJobsWorker([queue], connection=r)
    burst(worker, logging_level="WARNING")
    for job in jobs:
        status, worker_name, ttl, popped, worker_state = seen(r, job)   # as the job saw itself
        assert (status, worker_name, popped, worker_state) == ("started", worker.name, False, "busy")
        assert 0 < ttl <= ABANDONED_RECORD_S       # a dead worker's job does not stay forever
        job.refresh()
        assert job.get_status() == "finished" and job.ended_at >= job.started_at
        assert 0 < r.ttl(job.key) <= RESULT_TTL_S  # its id still guards a duplicate enqueue, briefly
    assert r.hget(worker.key, "successful_job_count") == b"3"
    assert float(r.hget(worker.key, "total_working_time")) > 0
    assert r.hget(worker.key, "state") != b"busy"
    assert StartedJobRegistry(queue=queue).count == 0 and FinishedJobRegistry(queue=queue).count == 0
    assert r.llen(queue.intermediate_queue_key) == 0 and r.keys("rq:execution*") == []


def test_a_failing_game_job_goes_to_rqs_failed_registry_with_its_exception(r):
    queue = Queue("worker-class", connection=r)
    job = queue.enqueue(failing_job, **job_options("game-fails"))
    worker = GameJobsWorker([queue], connection=r)
    burst(worker, logging_level="CRITICAL")
    assert job.get_status(refresh=True) == "failed"
    assert job.id in FailedJobRegistry(queue=queue)
    assert "the rules refused" in job.latest_result().exc_string
    assert r.hget(worker.key, "failed_job_count") == b"1"
    assert r.hget(worker.key, "successful_job_count") is None
    assert r.hget(worker.key, "state") != b"busy"


def test_a_game_job_past_its_time_limit_is_stopped_and_failed(r):
    queue = Queue("worker-class", connection=r)
    job = queue.enqueue(slow_job, **{**job_options("game-slow"), "job_timeout": 1})
    started = time.monotonic()
    burst(GameJobsWorker([queue], connection=r), logging_level="CRITICAL")
    assert time.monotonic() - started < 4
    assert job.get_status(refresh=True) == "failed"
    assert "JobTimeoutException" in job.latest_result().exc_string


def test_game_jobs_of_a_match_run_on_the_short_path_and_leave_only_expiring_records(r, redis_url):
    talon = Talon(r)
    game = talon.create_match("sixty-six", {"first_dealer": 0},
                              [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "basic"}], seed=3)
    run_jobs(redis_url)
    assert talon.table(game.game_id).status == "finished"
    job_keys = [key for key in r.keys("rq:job:*") if game.game_id.encode() in key]
    assert job_keys, "no job of the match was left to look at"
    for key in job_keys:
        assert r.hget(key, "status") == b"finished" and 0 < r.ttl(key) <= RESULT_TTL_S
    assert r.keys("rq:results:*") == [] and r.keys("rq:execution*") == []


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


def test_an_operators_suspend_is_noticed_within_the_check_interval(r, monkeypatch):
    monkeypatch.setattr(worker_module, "SUSPENSION_CHECK_S", 0.2)
    queue = Queue("worker-class", connection=r)
    worker = TalonWorker([queue], connection=r)
    worker.register_birth()
    try:
        worker.check_for_suspension(burst=True)
        suspend(r)                                     # `rq suspend`
        time.sleep(0.25)
        with pytest.raises(StopRequested):             # in burst mode rq stops; otherwise it waits
            worker.check_for_suspension(burst=True)
        resume(r)
        queue.enqueue(own_worker_record)
        burst(TalonWorker([queue], connection=r), logging_level="WARNING")
        assert queue.count == 0
    finally:
        worker.register_death()
