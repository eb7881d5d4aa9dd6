"""Logs and metrics for the API and the worker.

Logs are one JSON object a line on standard error: `ts`, `level`, `logger`, `msg`, and the context
that applies - `request_id` (the request's `X-Request-ID`, or a new one, echoed in the response),
`game_id`, `seat`, `job_id` (inside an rq job: the job's id, game and seat come from its arguments).
They never carry a hand, a deck, a salt or a token: requests are logged by route and path without the
query string (a stream ticket travels there), no header is logged, events are logged by type and
version only, and a last filter masks anything shaped like a seat token or a bearer credential.
`LOG_FORMAT=text` gives plain lines for a terminal.

Metrics are Prometheus' text format on `GET /metrics`. Under gunicorn every worker process writes its
samples to PROMETHEUS_MULTIPROC_DIR (set by scripts/run and the deploy config; gunicorn.conf.py empties
it at start and marks exited workers dead), and a scrape of any worker aggregates them all. Without
that variable (tests, one process) the default registry is used. Queue depth and failed jobs are read
from rq's registries in Redis at scrape time, so they are right whichever process answers.
"""
from __future__ import annotations

import contextvars
import functools
import logging
import os
import re
import sys
import time
from collections.abc import Sequence
from contextlib import contextmanager

from flask import Flask, Response, current_app, request
from flask_smorest import Blueprint
from prometheus_client import (CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Gauge, Histogram,
                               generate_latest)
from prometheus_client.core import GaugeMetricFamily
from rq.job import get_current_job

from events import store as event_store
from service import logformat

log = logging.getLogger("talon.http")
events_log = logging.getLogger("talon.events")

# --------------------------------------------------------------------------------------------------
# Metrics (module level: one set per process; multiprocess mode aggregates the processes)

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)
HTTP_REQUESTS = Counter("talon_http_requests_total", "HTTP requests answered", ["method", "route", "status"])
HTTP_LATENCY = Histogram("talon_http_request_duration_seconds", "Time to answer an HTTP request",
                         ["method", "route"], buckets=LATENCY_BUCKETS)
EVENTS_APPENDED = Counter("talon_events_appended_total", "Events appended to game logs", ["type"])
APPEND_CONFLICTS = Counter("talon_append_conflicts_total", "Appends refused: the expected version was stale")
IDEMPOTENT_REPLAYS = Counter("talon_idempotent_replays_total",
                             "Appends answered from an idempotency record, writing nothing")
IDEMPOTENCY_MISMATCHES = Counter("talon_idempotency_mismatches_total",
                                 "Appends refused: the idempotency key was used with another request")
LIVE_CONNECTIONS = Gauge("talon_live_connections", "Event streams and long-polls waiting now", ["kind"],
                         multiprocess_mode="livesum")
BOT_DECISION = Histogram("talon_bot_decision_seconds", "Time a bot takes to choose and decide its move",
                         ["game"], buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5))

_installed = False


def _observe_append(game_id: str, events: Sequence[dict], result, refused) -> None:
    if refused is not None:
        (APPEND_CONFLICTS if isinstance(refused, event_store.VersionConflict) else IDEMPOTENCY_MISMATCHES).inc()
        return
    if result.replayed:
        IDEMPOTENT_REPLAYS.inc()
        return
    for event in events:
        _appended(event["type"]).inc()
    if events_log.isEnabledFor(logging.DEBUG):  # every append passes here: build the line only if it is kept
        events_log.debug("appended", extra={"game_id": game_id, "versions": [result.first_version, result.last_version],
                                            "types": [event["type"] for event in events]})


@functools.lru_cache(maxsize=256)
def _appended(event_type: str):
    """The append counter of one event type (prometheus_client looks labels up under a lock)."""
    return EVENTS_APPENDED.labels(event_type)


def install_metrics() -> None:
    """Counts appends of this process (API or worker); idempotent."""
    global _installed
    if not _installed:
        event_store.add_append_observer(_observe_append)
        _installed = True


@contextmanager
def bot_decision(game: str):
    started = time.perf_counter()
    try:
        yield
    finally:
        BOT_DECISION.labels(game).observe(time.perf_counter() - started)


class QueueCollector:
    """Jobs per rq registry of the talon queue, read from Redis when scraped."""

    def __init__(self, connection, queue_name: str):
        self.connection, self.queue_name = connection, queue_name

    def collect(self):
        from rq import Queue
        from rq.registry import (DeferredJobRegistry, FailedJobRegistry, ScheduledJobRegistry,
                                 StartedJobRegistry)
        depth = GaugeMetricFamily("talon_queue_jobs", "Jobs of the rq queue by state", labels=["queue", "state"])
        up = GaugeMetricFamily("talon_queue_up", "1 if the queue's registries could be read from Redis")
        try:
            queue = Queue(self.queue_name, connection=self.connection)
            counts = {"queued": queue.count,
                      "started": StartedJobRegistry(queue=queue).count,
                      "scheduled": ScheduledJobRegistry(queue=queue).count,
                      "deferred": DeferredJobRegistry(queue=queue).count,
                      "failed": FailedJobRegistry(queue=queue).count}
        except Exception:  # noqa: BLE001 - Redis away: say so, and still answer the scrape
            up.add_metric([], 0)
            yield up
            return
        for state, count in counts.items():
            depth.add_metric([self.queue_name, state], count)
        up.add_metric([], 1)
        yield depth
        yield up


def metrics_text(queue_collector: QueueCollector | None) -> bytes:
    """This process's metrics, or every process's in multiprocess mode, plus the queue's."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        body = generate_latest(registry)
    else:
        body = generate_latest(REGISTRY)
    if queue_collector is not None:
        extra = CollectorRegistry()
        extra.register(queue_collector)
        body += generate_latest(extra)
    return body


# --------------------------------------------------------------------------------------------------
# Logging

_started: contextvars.ContextVar[float | None] = contextvars.ContextVar("started", default=None)
REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


def bind(**context) -> None:
    """Adds request context (game_id, seat) to every log line of the current request."""
    if "game_id" in context:
        logformat.game_id.set(context["game_id"])
    if "seat" in context:
        logformat.seat.set(context["seat"])


def _job_context() -> dict:
    """The rq job being run: its id, and the game and seat of its arguments (worker processes)."""
    job = get_current_job()  # None outside a job
    if job is None:
        return {}
    context = {"job_id": job.id}
    args = job.args or ()
    if args and isinstance(args[0], str):
        context["game_id"] = args[0]
    if len(args) >= 3 and isinstance(args[2], int):
        context["seat"] = args[2]
    return context


def configure_logging(level: str | None = None, stream=None) -> logging.Handler:
    """One handler on the root logger (JSON unless LOG_FORMAT=text); calling it again changes nothing."""
    root = logging.getLogger()
    for handler in root.handlers:
        if getattr(handler, "_talon", False):
            return handler
    # A log record gathers the thread, the process and the caller's source line by default; no line of
    # ours shows them, and gathering them was a third of a request line's cost (a line per request).
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    logging._srcfile = None  # as the logging docs' "Optimization" section says, to skip finding the caller
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logformat.TextFormatter() if os.environ.get("LOG_FORMAT") == "text" else logformat.JsonFormatter())
    handler._talon = True
    root.addHandler(handler)
    # Any case, as gunicorn takes it (its config lowercases LOG_LEVEL; logging knows only upper case).
    root.setLevel((level or os.environ.get("LOG_LEVEL", "INFO")).upper())
    return handler


# --------------------------------------------------------------------------------------------------
# Flask

def init_app(app: Flask, connection, queue_name: str) -> None:
    """JSON logs with request context, request metrics, append counters, and GET /metrics."""
    configure_logging()
    install_metrics()
    collector = QueueCollector(connection, queue_name)

    # Each `request.x` is a context lookup: the hooks resolve the request once (they run on every request).
    @app.before_request
    def _start():
        req = request._get_current_object()
        _started.set(time.perf_counter())
        incoming = req.environ.get("HTTP_X_REQUEST_ID", "")
        # 32 random hex digits, as uuid4().hex gives them, without building a UUID on every request.
        logformat.request_id.set(incoming if REQUEST_ID.match(incoming) else os.urandom(16).hex())
        logformat.game_id.set((req.view_args or {}).get("game_id"))
        logformat.seat.set(None)

    @app.after_request
    def _finish(response: Response) -> Response:
        started = _started.get()
        if started is None:
            return response
        elapsed = time.perf_counter() - started
        req = request._get_current_object()
        route = req.url_rule.rule if req.url_rule is not None else "unmatched"
        if route != "/metrics":
            requests_total, latency = _http_metrics(req.method, route, response.status_code)
            requests_total.inc()
            latency.observe(elapsed)
        response.headers.add("X-Request-ID", logformat.request_id.get() or "")  # no route sets one: no need to replace
        if log.isEnabledFor(logging.INFO):
            log.info("request", extra={"method": req.method, "route": route, "path": req.path,
                                       "status": response.status_code, "duration_ms": round(elapsed * 1000, 2)})
        return response

    @app.teardown_request
    def _forget(_exc):
        # The context belongs to this request only (a thread serves many; a job may run on it next).
        logformat.request_id.set(None)
        logformat.game_id.set(None)
        logformat.seat.set(None)
        _started.set(None)

    app.extensions["talon_metrics"] = collector


@functools.lru_cache(maxsize=1024)
def _http_metrics(method: str, route: str, status: int):
    """The request counter and latency histogram of one (method, route, status): prometheus_client
    looks labels up under a lock on every call; the routes and statuses are a small, fixed set."""
    return HTTP_REQUESTS.labels(method, route, str(status)), HTTP_LATENCY.labels(method, route)


def init_worker() -> None:
    """The worker's logs and metrics (its samples reach the API's /metrics in multiprocess mode, or
    its own port if TALON_WORKER_METRICS_PORT is set)."""
    logformat.add_context(_job_context)
    configure_logging()
    install_metrics()
    port = os.environ.get("TALON_WORKER_METRICS_PORT")
    if port:
        from prometheus_client import start_http_server
        start_http_server(int(port), addr=os.environ.get("TALON_WORKER_METRICS_ADDR", "0.0.0.0"))


blp = Blueprint("metrics", __name__, description="Prometheus metrics")


@blp.route("/metrics", methods=["GET"])
@blp.response(200, {"type": "string"}, description="Prometheus metrics (text exposition format), aggregated over the API's "
                                "worker processes; queue depth and failed jobs from rq", content_type="text/plain")
def metrics():
    """Prometheus metrics"""
    return Response(metrics_text(current_app.extensions.get("talon_metrics")), content_type=CONTENT_TYPE_LATEST)
