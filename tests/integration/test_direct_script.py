"""events/connection.py DirectScripts: a Lua script on the short path answers as redis-py's Script does,
and survives what Script survives (flushed scripts, a connection the server closed, an error reply, a
call that failed midway, threads, a fork)."""
from __future__ import annotations

import os
import threading
import time

import pytest
import redis

from events.connection import DirectScripts
from events.store import EventStore

ECHO = "return {KEYS[1], ARGV[1], #KEYS, #ARGV, redis.call('INCR', KEYS[1])}"
SLOW = ("local function now() local t = redis.call('TIME') return tonumber(t[1]) * 1e6 + tonumber(t[2]) end "
        "local start = now() repeat until now() - start > 200000 return 'late'")


def test_answers_as_redis_py_s_script_does(r):
    direct, script = DirectScripts(r).script(ECHO), r.register_script(ECHO)
    assert direct(keys=["k"], args=[b"\x00\xffbytes", 7]) == [b"k", b"\x00\xffbytes", 1, 2, 1]
    assert script(keys=["k"], args=[b"\x00\xffbytes", 7]) == [b"k", b"\x00\xffbytes", 1, 2, 2]


def test_loads_the_script_again_after_a_flush(r):
    direct = DirectScripts(r).script(ECHO)
    assert direct(keys=["k"], args=[1])[-1] == 1
    r.script_flush()
    assert direct(keys=["k"], args=[1])[-1] == 2
    assert r.script_exists(direct.script.sha) == [True]


def test_an_error_reply_is_raised_and_the_connection_serves_the_next_call(r):
    scripts = DirectScripts(r)
    with pytest.raises(redis.ResponseError, match="refused: x"):
        scripts.script("return redis.error_reply('refused: ' .. ARGV[1])")(keys=[], args=["x"])
    assert scripts.script(ECHO)(keys=["k"], args=[1])[-1] == 1


def test_a_connection_the_server_closed_is_replaced(r, redis_url):
    direct = DirectScripts(r).script(ECHO)
    direct(keys=["k"], args=[1])
    admin = redis.Redis.from_url(redis_url)
    try:
        assert admin.client_kill_filter(_type="normal", skipme=True) >= 1   # the script's connection too
        assert direct(keys=["k"], args=[1])[-1] == 2
    finally:
        admin.close()


def test_a_call_that_failed_midway_leaves_no_reply_for_the_next(redis_url):
    """A reply that did not come in time (a script longer than the socket's timeout) comes later: the
    next call must not read it as its own."""
    client = redis.Redis.from_url(redis_url, socket_timeout=0.05)
    try:
        scripts = DirectScripts(client)
        with pytest.raises(redis.TimeoutError):
            scripts.script(SLOW)(keys=[], args=[])
        time.sleep(0.4)                                 # the late reply has come by now
        assert scripts.script("return 'mine'")(keys=[], args=[]) == b"mine"
    finally:
        client.close()


COUNT = "return redis.call('INCR', KEYS[1])"


def test_threads_call_at_once_each_on_its_own_connection(r):
    """Replies sent on one connection to several threads at once would reach the wrong thread."""
    count = DirectScripts(r).script(COUNT)
    seen: dict[int, list[int]] = {}
    barrier = threading.Barrier(4)

    def call(i: int) -> None:
        barrier.wait()
        seen[i] = [count(keys=[f"thread{i}"], args=[]) for _ in range(200)]

    threads = [threading.Thread(target=call, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {i: list(range(1, 201)) for i in range(4)}


def test_a_forked_child_does_not_share_its_parent_s_connection(r):
    count = DirectScripts(r).script(COUNT)
    assert count(keys=["parent"], args=[]) == 1          # the parent's connection is made before the fork
    pid = os.fork()
    if pid == 0:                                        # the child: exit 0 if every reply was its own
        try:
            os._exit(0 if [count(keys=["child"], args=[]) for _ in range(300)] == list(range(1, 301)) else 1)
        except BaseException:
            os._exit(2)
    mine = [count(keys=["parent"], args=[]) for _ in range(300)]
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert mine == list(range(2, 302))


def test_a_single_connection_client_keeps_redis_py_s_path(redis_url):
    client = redis.Redis.from_url(redis_url, single_connection_client=True)
    try:
        scripts = DirectScripts(client)
        assert not scripts.direct and scripts.script("return 1")(keys=[], args=[]) == 1
    finally:
        client.close()


def test_the_event_store_appends_and_loads_through_it(r):
    store = EventStore(r)
    assert store._append.scripts.direct and store._load.scripts is store._append.scripts
    store.append("g1", [{"type": "created", "actor": None, "data": {}}], 0)
    r.script_flush()
    store.append("g1", [{"type": "joined", "actor": 0, "data": {}}], 1)
    assert [e.version for e in store.read("g1")] == [1, 2]
