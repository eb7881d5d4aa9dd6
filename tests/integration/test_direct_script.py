"""events/connection.py DirectScript: a Lua script on the short path answers as redis-py's Script does,
and survives what Script survives (flushed scripts, a dropped connection, an error reply)."""
from __future__ import annotations

import time

import pytest
import redis

from events.connection import DirectScript
from events.store import EventStore

ECHO = "return {KEYS[1], ARGV[1], #KEYS, #ARGV, redis.call('INCR', KEYS[1])}"


def test_answers_as_redis_py_s_script_does(r):
    direct, script = DirectScript(r, ECHO), r.register_script(ECHO)
    assert direct(keys=["k"], args=[b"\x00\xffbytes", 7]) == [b"k", b"\x00\xffbytes", 1, 2, 1]
    assert script(keys=["k"], args=[b"\x00\xffbytes", 7]) == [b"k", b"\x00\xffbytes", 1, 2, 2]


def test_loads_the_script_again_after_a_flush(r):
    direct = DirectScript(r, ECHO)
    assert direct(keys=["k"], args=[1])[-1] == 1
    r.script_flush()
    assert direct(keys=["k"], args=[1])[-1] == 2
    assert r.script_exists(direct.script.sha) == [True]


def test_an_error_reply_is_raised_and_the_connection_serves_the_next_call(r):
    failing = DirectScript(r, "return redis.error_reply('refused: ' .. ARGV[1])")
    with pytest.raises(redis.ResponseError, match="refused: x"):
        failing(keys=[], args=["x"])
    pool = r.connection_pool
    assert len(pool._in_use_connections) == 0          # released, not leaked
    assert DirectScript(r, ECHO)(keys=["k"], args=[1])[-1] == 1


def test_a_connection_the_server_closed_is_replaced(r, redis_url):
    direct = DirectScript(r, ECHO)
    direct(keys=["k"], args=[1])
    admin = redis.Redis.from_url(redis_url)
    try:
        assert admin.client_kill_filter(_type="normal", skipme=True) >= 1   # the pooled connection too
        assert direct(keys=["k"], args=[1])[-1] == 2
    finally:
        admin.close()


def test_a_call_that_fails_midway_closes_its_connection(r, redis_url):
    """A reply that did not come (here: a script longer than the socket's timeout) leaves the connection
    unusable: it is closed, so that the next call does not read the late reply as its own."""
    client = redis.Redis.from_url(redis_url, socket_timeout=0.05)
    try:
        slow = DirectScript(client, "local function now() local t = redis.call('TIME') "
                                    "return tonumber(t[1]) * 1e6 + tonumber(t[2]) end "
                                    "local start = now() repeat until now() - start > 200000 return 'late'")
        with pytest.raises(redis.TimeoutError):
            slow(keys=[], args=[])
        time.sleep(0.4)                                 # the late reply has come by now
        assert DirectScript(client, "return 'mine'")(keys=[], args=[]) == b"mine"
        assert len(client.connection_pool._in_use_connections) == 0
    finally:
        client.close()


def test_a_single_connection_client_keeps_redis_py_s_path(redis_url):
    client = redis.Redis.from_url(redis_url, single_connection_client=True)
    try:
        direct = DirectScript(client, "return 1")
        assert direct._pool is None and direct(keys=[], args=[]) == 1
    finally:
        client.close()


def test_the_event_store_appends_and_loads_through_it(r):
    store = EventStore(r)
    assert isinstance(store._append, DirectScript) and store._append._pool is r.connection_pool
    store.append("g1", [{"type": "created", "actor": None, "data": {}}], 0)
    r.script_flush()
    store.append("g1", [{"type": "joined", "actor": 0, "data": {}}], 1)
    assert [e.version for e in store.read("g1")] == [1, 2]

