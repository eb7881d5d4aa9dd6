"""Logs and metrics of every Talon process (the API's and the workers'), without any adapter's names.

Logs are one JSON object a line on standard error (app/logformat.py), never carrying a hand, a deck,
a salt or a token. Metrics are Prometheus': the application's own are defined here (appends, conflicts,
idempotent replays, bot decisions); the API adds its HTTP metrics (service/observability.py). Under
gunicorn every process writes its samples to Settings.metrics_dir (Prometheus' multiprocess mode) and
a scrape of any process aggregates them all; without it (tests, one process) the default registry
is used. The job queue's depth comes from the queue itself (app/ports.py `JobQueue.depths`) when
scraped, so it is right whichever process answers.
"""

from __future__ import annotations

import functools
import logging
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

from app import logformat
from app.settings import Settings
from events import store as event_store

events_log = logging.getLogger("talon.events")

EVENTS_APPENDED = Counter("talon_events_appended_total", "Events appended to game logs", ["type"])
APPEND_CONFLICTS = Counter("talon_append_conflicts_total", "Appends refused: the expected version was stale")
IDEMPOTENT_REPLAYS = Counter(
    "talon_idempotent_replays_total", "Appends answered from an idempotency record, writing nothing"
)
IDEMPOTENCY_MISMATCHES = Counter(
    "talon_idempotency_mismatches_total", "Appends refused: the idempotency key was used with another request"
)
BOT_DECISION = Histogram(
    "talon_bot_decision_seconds",
    "Time a bot takes to choose and decide its move",
    ["game"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5),
)

_installed = False


def _observe_append(
    game_id: str,
    events: Sequence[Mapping[str, Any]],
    result: event_store.AppendResult | None,
    refused: Exception | None,
) -> None:
    if refused is not None:
        (APPEND_CONFLICTS if isinstance(refused, event_store.VersionConflict) else IDEMPOTENCY_MISMATCHES).inc()
        return
    if result is None:  # the store tells its observers a result or a refusal, never neither
        return
    if result.replayed:
        IDEMPOTENT_REPLAYS.inc()
        return
    for event in events:
        _appended(event["type"]).inc()
    if events_log.isEnabledFor(logging.DEBUG):  # every append passes here: build the line only if it is kept
        events_log.debug(
            "appended",
            extra={
                "game_id": game_id,
                "versions": [result.first_version, result.last_version],
                "types": [event["type"] for event in events],
            },
        )


@functools.lru_cache(maxsize=256)
def _appended(event_type: str) -> Counter:
    """The append counter of one event type (prometheus_client looks labels up under a lock)."""
    return EVENTS_APPENDED.labels(event_type)


def install_metrics() -> None:
    """Counts appends of this process (API or worker); idempotent."""
    global _installed
    if not _installed:
        event_store.add_append_observer(_observe_append)
        _installed = True


@contextmanager
def bot_decision(game: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        BOT_DECISION.labels(game).observe(time.perf_counter() - started)


class QueueCollector:
    """The job queue's jobs by state, asked of the queue when scraped."""

    def __init__(self, depths: Callable[[], dict[str, int]], queue_name: str) -> None:
        self.depths, self.queue_name = depths, queue_name

    def collect(self) -> Iterator[GaugeMetricFamily]:
        depth = GaugeMetricFamily("talon_queue_jobs", "Jobs of the job queue by state", labels=["queue", "state"])
        up = GaugeMetricFamily("talon_queue_up", "1 if the queue's registries could be read from Redis")
        try:
            counts = self.depths()
        except Exception:  # noqa: BLE001 - Redis away: say so, and still answer the scrape
            up.add_metric([], 0)
            yield up
            return
        for state, count in counts.items():
            depth.add_metric([self.queue_name, state], count)
        up.add_metric([], 1)
        yield depth
        yield up


def metrics_text(settings: Settings, queue_collector: QueueCollector | None) -> bytes:
    """This process's metrics, or every process's in multiprocess mode, plus the queue's."""
    if settings.metrics_dir:
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


def configure_logging(settings: Settings, stream: TextIO | None = None) -> logging.Handler:
    """One handler on the root logger (JSON unless log_format is "text"); calling it again changes nothing."""
    root = logging.getLogger()
    for handler in root.handlers:
        if getattr(handler, "_talon", False):
            return handler
    # A log record gathers the thread, the process and the caller's source line by default; no line of
    # ours shows them, and gathering them was a third of a request line's cost (a line per request).
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logformat.TextFormatter() if settings.log_format == "text" else logformat.JsonFormatter())
    handler._talon = True  # type: ignore[attr-defined]  # marks the handler this function added
    root.addHandler(handler)
    root.setLevel(settings.log_level.upper())
    return handler
