"""The probes on a port of their own (`TALON_HEALTH_BIND`), answered by a thread of each API process
instead of by its event loop.

On the API's port, `/livez` and `/readyz` wait for their turn of the loop like every request: with
thousands of connections open and both cores busy, a turn can take 100-250 ms (bench.streams), and an
orchestrator that times its probes out would restart or unlist a process that is only busy, which moves
its load onto the others. Here an OS thread of the process answers them: it needs the interpreter lock
only for the few microseconds of an answer, and what it reports is measured, not inferred from its own
delay:

- **live**: the event loop turned within `STALL_S` (a timer on the loop stamps the time twice a second).
  A loop held by one piece of code for seconds serves nobody; the process is then restarted.
- **ready**: live, not stopping (after SIGTERM: service/shutdown.py), and Redis answers a PING on this
  thread's own connection.

Both API processes bind the port with SO_REUSEPORT, and the kernel hands each probe to one of them, as
it does with requests on the API's port. The bodies are those of the API's `/livez` and `/readyz`; a
failure is a problem+json 503 with Retry-After.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, HTTPServer

import redis

from service import shutdown
from service.problems import PROBLEM_CONTENT_TYPE, Problem, problem_body

STALL_S = 10.0  # a loop that has not turned for this long is not live
BEAT_S = 0.5  # how often the loop stamps the time
CLIENT_TIMEOUT_S = 2.0  # a probe that does not send its request line and headers in time is dropped


class LoopBeat:
    """The time the event loop last ran a timer of its own (on gevent's loop), for another thread."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.last = clock()

    def stamp(self) -> None:
        self.last = self.clock()

    def age(self) -> float:
        return self.clock() - self.last

    def start(self) -> None:
        import gevent

        timer = gevent.get_hub().loop.timer(BEAT_S, BEAT_S)
        timer.start(self.stamp)
        self._timer = timer  # held: a watcher that is collected stops


class Health:
    """The two answers: (status, JSON body) for a path."""

    def __init__(
        self,
        beat: LoopBeat,
        ping: Callable[[], object],
        stopping: Callable[[], bool] = shutdown.stopping,
        stall_s: float = STALL_S,
    ):
        self.beat = beat
        self.ping = ping
        self.stopping = stopping
        self.stall_s = stall_s

    def answer(self, path: str) -> tuple[int, dict]:
        if path not in ("/livez", "/readyz"):
            return 404, _problem(404, "not-found", "this port serves /livez and /readyz only")
        age = self.beat.age()
        if age > self.stall_s:
            return 503, _problem(503, "unavailable", f"the event loop has not turned for {age:.0f} s")
        if path == "/livez":
            return 200, {"status": "ok"}
        if self.stopping():
            return 503, _problem(503, "unavailable", "the process is stopping")
        try:
            self.ping()
        except redis.RedisError:
            return 503, _problem(503, "unavailable", "Redis is unreachable")
        return 200, {"status": "ready"}


def _problem(status: int, slug: str, detail: str) -> dict:
    return problem_body(Problem(status, slug, detail))


class _Handler(BaseHTTPRequestHandler):
    server: HealthServer
    timeout = CLIENT_TIMEOUT_S
    # HTTP/1.0: a connection per probe, as the orchestrators' probes come. One thread answers them in
    # turn, and a kept-alive connection would hold it until its client's next probe.
    protocol_version = "HTTP/1.0"

    def do_GET(self) -> None:
        status, body = self.server.health.answer(self.path.split("?", 1)[0])
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json" if status == 200 else PROBLEM_CONTENT_TYPE)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        if status == 503:
            self.send_header("Retry-After", "2")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass  # probes come every few seconds from the orchestrator: not worth a log line each


class HealthServer(HTTPServer):
    allow_reuse_port = True  # every API process of the host binds the same port

    def __init__(self, address: tuple[str, int], health: Health):
        self.health = health
        super().__init__(address, _Handler)


def parse_bind(bind: str) -> tuple[str, int]:
    host, _, port = bind.rpartition(":")
    return host or "0.0.0.0", int(port)


def start(bind: str, redis_url: str, stall_s: float = STALL_S) -> HealthServer:
    """Starts answering the probes on `bind` ("host:port") from an OS thread of this (gevent) process."""
    from gevent import monkey

    beat = LoopBeat()
    beat.start()
    # Created and used on the probes' thread only: its connection pool's lock is not shared with greenlets.
    client = redis.Redis.from_url(redis_url, socket_timeout=2.0, socket_connect_timeout=2.0)
    server = HealthServer(parse_bind(bind), Health(beat, client.ping, stall_s=stall_s))
    start_new_thread = monkey.get_original("_thread", "start_new_thread")  # an OS thread, not a greenlet
    start_new_thread(server.serve_forever, ())
    return server
