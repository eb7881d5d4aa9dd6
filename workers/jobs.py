"""The rq jobs. Each one takes the application built on the worker's connection and calls one use case."""
from __future__ import annotations

import logging
import os
import time

from rq import Queue, get_current_job
from rq.exceptions import DuplicateJobError

from events.connection import connect
from service.config import Settings
from service.usecases import Talon

log = logging.getLogger("talon.jobs")

SWEEP_INTERVAL_S = int(os.environ.get("TALON_SWEEP_INTERVAL_S", "30"))
IDLE_EXPIRY_S = int(os.environ.get("TALON_IDLE_EXPIRY_S", str(7 * 24 * 3600)))

_app: Talon | None = None


def _talon() -> Talon:
    """One application per worker process, rebuilt only if the worker's connection changes."""
    global _app
    connection = get_current_job().connection
    if _app is None or _app.redis is not connection:
        settings = Settings.from_env()
        events = connect(settings.events_redis_url) if settings.events_redis_url else None
        _app = Talon(connection, key_prefix=settings.key_prefix, queue_name=get_current_job().origin,
                     bot_delay_s=settings.bot_delay_s, events_client=events)
    return _app


def advance(game_id: str, version: int) -> bool:
    """Score the finished round and deal the next, or end the match (and the bots' moves after it)."""
    return _talon().advance(game_id, version)


def bot_turn(game_id: str, version: int, seat: int) -> bool:
    """The bot's move, chosen from exactly the seat's view (and what follows it up to a human's turn)."""
    return _talon().bot_turn(game_id, version, seat)


def turn_timeout(game_id: str, version: int, seat: int) -> bool:
    """A human's turn timer ran out: a basic bot moves for them (nothing if they acted meanwhile)."""
    return _talon().turn_timeout(game_id, version, seat)


def sweep() -> int:
    """Close long-idle matches and repair lost follow-ups (enqueued every SWEEP_INTERVAL_S)."""
    now_ms = int(time.time() * 1000)
    # Feed and lobby writes a dead process left undone after its commit (Redis Cluster only).
    repaired = _talon().store.repair_followups(now_ms)
    touched = _talon().sweep(now_ms=now_ms, idle_expiry_s=IDLE_EXPIRY_S) + repaired
    if touched:
        log.info("sweeper touched %d games", touched)
    return touched


def enqueue_sweep(queue: Queue, interval_s: int = SWEEP_INTERVAL_S) -> None:
    """One sweep per time slot: the id names the slot, so several workers enqueue it once."""
    slot = int(time.time() // interval_s)
    try:
        queue.enqueue("workers.jobs.sweep", job_id=f"sweep-{slot}", unique=True, result_ttl=interval_s * 4)
    except DuplicateJobError:
        pass
