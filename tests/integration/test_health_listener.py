"""The probes' own listener (service/health.py) is answered by an OS thread: while the process's event
loop is held, the probes still answer, and say that the loop has stopped turning once it has not turned
for the stall time."""

from __future__ import annotations

import threading
import time

import gevent
import requests

from service import health
from tests.support.redis_proc import free_port

STALL_S = 3.0


def test_the_probes_answer_while_the_event_loop_is_held_and_say_so_after_the_stall_time(redis_url):
    port = free_port()
    server = health.start(f"127.0.0.1:{port}", redis_url, stall_s=STALL_S)
    base = f"http://127.0.0.1:{port}"
    try:
        gevent.sleep(0.6)  # the loop turns: its timer stamps the time
        assert requests.get(base + "/livez", timeout=5).json() == {"status": "ok"}
        assert requests.get(base + "/readyz", timeout=5).json() == {"status": "ready"}

        answers: list[requests.Response] = []
        released = threading.Event()  # an OS thread's event: waiting on it does not run gevent's loop

        def probes_while_held() -> None:
            try:
                answers.append(requests.get(base + "/livez", timeout=5))
                time.sleep(STALL_S + 0.5)
                answers.append(requests.get(base + "/readyz", timeout=5))
            finally:
                released.set()

        threading.Thread(target=probes_while_held).start()
        assert released.wait(30)  # the loop is held until both probes were answered
        early, late = answers
        assert early.status_code == 200 and early.json() == {"status": "ok"}
        assert late.status_code == 503 and late.headers["Retry-After"] == "2"
        assert late.json()["detail"].startswith("the event loop has not turned for")

        gevent.sleep(0.6)  # the loop turns again
        assert requests.get(base + "/readyz", timeout=5).status_code == 200
    finally:
        server.shutdown()
        server.server_close()
