"""A parked long-poll gets its answer and nothing else (service/parking.py), even when its answer takes
a while to make: a heartbeat, or the end of its wait, came before the answer's status line while the
request ran again (bench.streams saw `: keep-alive` before `HTTP/1.1 200 OK`, and polls closed with no
answer at all). Parking needs gevent's loop with the standard library patched, as gunicorn's worker
runs it: the scenario runs in a child process of its own, on real sockets."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.processes import REPO

SCENARIO = r"""
from gevent import monkey

monkey.patch_all()

import json
import socket
from types import SimpleNamespace

import gevent
import gevent.event

from service import parking

parking.TICK_S = 0.01


class Hub:
    def watch(self, game_id, cursor, on_events, on_stop):
        self.on_events, self.on_stop = on_events, on_stop
        return SimpleNamespace(close=lambda: None)


class Store:
    def read(self, game_id, after, limit):
        return []


hub = Hub()
lot = parking.Parking(hub, Store(), lambda *a: b"data: {}\n\n", lambda *a: False, frozenset(), keepalive_s=0.05)
ANSWER = b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}"
made = gevent.event.Event()


def answer():
    made.wait()  # the request run again waits (for a slot, for Redis) ...
    return ANSWER


results = {}
for case in ("the match moves", "the process stops"):
    made.clear()
    server, client = socket.socketpair()
    lot.park_poll(server, "g1", "sixty-six", 3, 0.1, answer, lambda: None, b"HTTP/1.0 304 Not Modified\r\n\r\n")
    server.close()  # gunicorn lets go of its side of the connection
    if case == "the match moves":
        hub.on_events([SimpleNamespace(version=4, type="played")])
    else:
        hub.on_stop()  # as the hub stops its watches when the process begins to stop
    gevent.sleep(0.3)  # ... past the keep-alive time and the end of the wait, many ticks
    made.set()
    received = b""
    with gevent.Timeout(5, False):
        while chunk := client.recv(65536):
            received += chunk
    results[case] = received.decode()
    client.close()
print(json.dumps(results))
"""


def test_a_long_poll_whose_answer_takes_a_while_gets_that_answer_and_nothing_else():
    done = subprocess.run(
        [sys.executable, "-c", SCENARIO], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    )
    received = json.loads(done.stdout.splitlines()[-1])
    for case in ("the match moves", "the process stops"):
        assert received[case] == "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}", case
