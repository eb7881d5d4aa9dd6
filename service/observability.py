"""The API's logs and metrics: a JSON line per request with its context, and HTTP metrics (served by
service/routes/metrics.py).

Logs carry `request_id` (the request's `X-Request-ID`, or a new one, echoed in the response), `game_id`
and `seat`; requests are logged by route and path without the query string (a stream ticket travels
there), and no header is logged. The application's own logs and metrics, and the multiprocess
aggregation, are app/telemetry.py's.
"""

from __future__ import annotations

import functools
import logging
import os
import random
import re
import time
from collections.abc import Sequence

from flask import Flask
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

UNMATCHED = "unmatched"  # the route of a request no rule matched
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
    """JSON logs with request context, request metrics, append counters, and what GET /metrics adds.
    The request's own line, metrics and headers are RequestTelemetry's (service/app.py wraps the app)."""
    telemetry.configure_logging(application.settings)
    telemetry.install_metrics()
    app.extensions["talon_metrics"] = telemetry.QueueCollector(application.jobs.depths, application.settings.queue_name)

    @app.url_value_preprocessor
    def _bind(endpoint: str | None, values: dict | None) -> None:
        """The match in this request's log lines. A URL value preprocessor is handed the route's values:
        unlike a before-request hook, it reads no request attribute and is called as it is."""
        logformat.game_id.set((values or {}).get("game_id"))


class RequestTelemetry:
    """WSGI middleware directly around the Flask app: every response it makes (error pages and parked
    long-polls' answers included) gets the security headers (service/headers.py) and its `X-Request-ID`,
    is counted and timed by route, and is logged in one line; the request's log context is set for the
    lines in between and cleared after.

    Done on the WSGI side, where the headers are a plain list, rather than in Flask's before-, after- and
    teardown-request hooks: each hook is looked up and called through Flask's per-request machinery,
    and each header added to a response is validated again by werkzeug. The route and the path are
    read when the response starts, from the request Flask made of the environ (`_route`)."""

    def __init__(self, app, extra_headers: Sequence[tuple[str, str]] = ()):
        self.app, self.extra_headers = app, list(extra_headers)

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        incoming = environ.get("HTTP_X_REQUEST_ID", "")
        request_id = incoming if REQUEST_ID.match(incoming) else new_request_id()
        logformat.request_id.set(request_id)
        answered: list[tuple[str, tuple[str, str]]] = []
        extra = [*self.extra_headers, ("X-Request-ID", request_id)]  # no route sets these: added, not replaced

        def start(status, headers, exc_info=None):
            answered.append((status, _route(environ)))
            return start_response(status, [*headers, *extra], exc_info)

        try:
            return self.app(environ, start)
        finally:
            if answered:
                status, route = answered[-1]
                _record(environ, route, int(status[:3]), time.perf_counter() - started)
            # The context belongs to this request only: the same greenlet goes on to serve the next request
            # of a kept-alive connection, whose lines must not carry this one's id, match or seat.
            logformat.request_id.set(None)
            logformat.game_id.set(None)
            logformat.seat.set(None)


def _route(environ: dict) -> tuple[str, str]:
    """The request's route rule (UNMATCHED where no rule matched) and its decoded path without the query
    string, read from the request Flask made of this environ: werkzeug leaves a request in its environ
    as `werkzeug.request` while the request is handled (Flask clears it when the request ends)."""
    request = environ.get("werkzeug.request")
    if request is None:
        return UNMATCHED, environ.get("PATH_INFO", "")
    rule = request.url_rule
    return (rule.rule if rule is not None else UNMATCHED), request.path


def _record(environ: dict, route_and_path: tuple[str, str], status: int, elapsed: float) -> None:
    """A request's metrics and log line, by its route's rule (the path without the query string)."""
    route, path = route_and_path
    method = environ.get("REQUEST_METHOD", "")
    if route != "/metrics":
        requests_total, latency = _http_metrics(method, route, status)
        requests_total.inc()
        latency.observe(elapsed)
    if log.isEnabledFor(logging.INFO):
        # The record made and handed to the handlers directly: Logger.info would first walk the stack
        # for the caller's file and line, which no line of ours shows.
        extra = {
            "method": method,
            "route": route,
            "path": path,
            "status": status,
            "duration_ms": round(elapsed * 1000, 2),
        }
        log.handle(log.makeRecord(log.name, logging.INFO, __file__, 0, "request", (), None, extra=extra))


@functools.lru_cache(maxsize=1024)
def _http_metrics(method: str, route: str, status: int):
    """The request counter and latency histogram of one (method, route, status): prometheus_client
    looks labels up under a lock on every call; the routes and statuses are a small, fixed set."""
    return HTTP_REQUESTS.labels(method, route, str(status)), HTTP_LATENCY.labels(method, route)
