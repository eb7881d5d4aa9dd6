"""Helpers for tests that run the real app on a real Redis, with real rq workers."""
from __future__ import annotations

import random
import time
from typing import Callable

import redis
from rq import Queue, SimpleWorker

from service.app import create_app
from service.config import Settings

OPERATOR = "operator-test-token"


def make_app(redis_url: str, **overrides):
    """The app on this Redis. Rate limits are off unless a test turns them on (test_rate_limits)."""
    overrides.setdefault("rate_limits_enabled", False)
    return create_app(Settings(redis_url=redis_url, operator_token=OPERATOR, **overrides))


def run_jobs(redis_url: str, queue_name: str = "talon", max_jobs: int | None = None,
             with_scheduler: bool = False) -> None:
    """Run queued jobs in-process with a real rq SimpleWorker until the queue is empty (with the
    scheduler: also the scheduled jobs that are due)."""
    connection = redis.Redis.from_url(redis_url)
    SimpleWorker([Queue(queue_name, connection=connection)], connection=connection).work(
        burst=True, max_jobs=max_jobs, logging_level="WARNING", with_scheduler=with_scheduler)


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def random_legal(view: dict, rng: random.Random) -> dict:
    return rng.choice(view["legal_actions"])


def await_finished(talon, game_id: str, timeout_s: float, failure: Callable[[], str]) -> None:
    """Polls until the match is finished; after `timeout_s` fails with `failure()` (e.g. a worker's log)."""
    deadline = time.monotonic() + timeout_s
    while talon.table(game_id).status != "finished":
        assert time.monotonic() < deadline, failure()
        time.sleep(0.2)
