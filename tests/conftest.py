"""Shared fixtures. Anything that needs Redis gets a real server started for this session."""
from __future__ import annotations

import pytest
import redis

from tests.support.redis_proc import RedisProcess


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
