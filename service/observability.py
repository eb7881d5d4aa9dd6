"""The API's logs and metrics: a JSON line per request with its context, and HTTP metrics (served by
service/routes/metrics.py).

Logs carry `request_id` (the request's `X-Request-ID`, or a new one, echoed in the response), `game_id`
and `seat`; requests are logged by route and path without the query string (a stream ticket travels
there), and no header is logged. The application's own logs and metrics, and the multiprocess
aggregation, are app/telemetry.py's.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import os
import random
import re
import time

from flask import Flask, Response, request
from prometheus_client import Counter, Gauge, Histogram

from app import logformat, telemetry
from app.bootstrap import Application

log = logging.getLogger("talon.http")

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)
HTTP_REQUESTS = Counter("talon_http_requests_total", "HTTP requests answered", ["method", "route", "status"])
HTTP_LATENCY = Histogram(
    "talon_http_request_duration_seconds",
    "Time to answer an HTTP request",
    ["method", "route"],
    buckets=LATENCY_BUCKETS,
)
LIVE_CONNECTIONS = Gauge(
    "talon_live_connections", "Event streams and long-polls held now", ["kind"], multiprocess_mode="livesum"
)

_started: contextvars.ContextVar[float | None] = contextvars.ContextVar("started", default=None)
REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")

# New request ids: 128 random bits as 32 hex digits (as uuid4().hex), drawn from a generator seeded from
# the system's randomness once per process, not with a system call per request. They only tie a response
# to its log lines: unique is all they need to be, not unpredictable.
_ids = random.Random(os.urandom(32))
os.register_at_fork(after_in_child=lambda: _ids.seed(os.urandom(32)))  # each gunicorn worker its own


def new_request_id() -> str:
    return f"{_ids.getrandbits(128):032x}"


def bind(**context) -> None:
    """Adds request context (game_id, seat) to every log line of the current request."""
    if "game_id" in context:
        logformat.game_id.set(context["game_id"])
    if "seat" in context:
        logformat.seat.set(context["seat"])


def init_app(app: Flask, application: Application) -> None:
    """JSON logs with request context, request metrics, append counters, and what GET /metrics adds."""
    telemetry.configure_logging(application.settings)
    telemetry.install_metrics()
    app.extensions["talon_metrics"] = telemetry.QueueCollector(application.jobs.depths, application.settings.queue_name)

    @app.before_request
    def _start():
        _started.set(time.perf_counter())
        incoming = request.environ.get("HTTP_X_REQUEST_ID", "")
        logformat.request_id.set(incoming if REQUEST_ID.match(incoming) else new_request_id())
        logformat.game_id.set((request.view_args or {}).get("game_id"))
        logformat.seat.set(None)

    @app.after_request
    def _finish(response: Response) -> Response:
        started = _started.get()
        if started is None:
            return response
        elapsed = time.perf_counter() - started
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        if route != "/metrics":
            requests_total, latency = _http_metrics(request.method, route, response.status_code)
            requests_total.inc()
            latency.observe(elapsed)
        response.headers.add("X-Request-ID", logformat.request_id.get() or "")  # no route sets one: no need to replace
        if log.isEnabledFor(logging.INFO):
            # The record made and handed to the handlers directly: Logger.info would first walk the stack
            # for the caller's file and line, which no line of ours shows.
            extra = {
                "method": request.method,
                "route": route,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round(elapsed * 1000, 2),
            }
            log.handle(log.makeRecord(log.name, logging.INFO, __file__, 0, "request", (), None, extra=extra))
        return response

    @app.teardown_request
    def _forget(_exc):
        # The context belongs to this request only (a greenlet serves one request; the next one is new).
        logformat.request_id.set(None)
        logformat.game_id.set(None)
        logformat.seat.set(None)
        _started.set(None)


@functools.lru_cache(maxsize=1024)
def _http_metrics(method: str, route: str, status: int):
    """The request counter and latency histogram of one (method, route, status): prometheus_client
    looks labels up under a lock on every call; the routes and statuses are a small, fixed set."""
    return HTTP_REQUESTS.labels(method, route, str(status)), HTTP_LATENCY.labels(method, route)
