"""Shared fixtures. Anything that needs Redis gets a real server started for this session."""

from __future__ import annotations

import os

import pytest
import redis
from hypothesis import settings

from tests.support.redis_proc import RedisProcess

# Bots answer at once in tests (their think time, TALON_BOT_THINK_S, has a test of its own): here and in
# every process a test starts (workers, gunicorn), which inherit this environment.
os.environ.setdefault("TALON_BOT_THINK_S", "0")

# CI (CI=true) replays the same generated examples on every run, so its verdict is reproducible; a
# developer's run explores new examples each time (and prints the blob to reproduce a failure).
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def redis_server():
    server = RedisProcess().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server) -> str:
    return redis_server.url


@pytest.fixture
def r(redis_url):
    """A clean database for each test: flushed before, closed after."""
    client = redis.Redis.from_url(redis_url)
    client.flushall()
    yield client
    client.close()
