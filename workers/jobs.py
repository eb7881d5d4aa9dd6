"""The rq jobs: each takes the application (app/bootstrap.py) built on the worker's connection and calls
one use case. rq imports these functions by name (adapters/rq_queue.py FUNCTIONS)."""

from __future__ import annotations

import dataclasses
import logging
import math
import time

from rq import Queue, get_current_job
from rq.exceptions import DuplicateJobError

from adapters.rq_queue import main_queue_name
from app import bootstrap
from app.bootstrap import Application
from app.settings import Settings

log = logging.getLogger("talon.jobs")

_app: Application | None = None
# A projection job reads at most this many pages of the feed (500 entries each: app/projections.py), well
# within rq's job timeout even on a first catch-up over a long feed; the next job or sweep goes on.
PROJECT_PAGES = 100


def _application() -> Application:
    """One application per worker process, built again only if the worker's connection (or queue)
    changes: the jobs' queues are those they were taken from (a bot-only match's queue is the main
    queue's companion: adapters/rq_queue.py)."""
    global _app
    job = get_current_job()
    queue_name = main_queue_name(job.origin)
    if _app is None or _app.redis is not job.connection or _app.settings.queue_name != queue_name:
        settings = dataclasses.replace(Settings.from_env(), queue_name=queue_name)
        _app = bootstrap.build(settings, client=job.connection)
    return _app


def advance(game_id: str, version: int) -> bool:
    """Score the finished round and deal the next, or end the match (and the bots' moves after it)."""
    return _application().matches.advance(game_id, version)


def bot_turn(game_id: str, version: int, seat: int) -> bool:
    """The bot's move, chosen from exactly the seat's view (and what follows it up to a human's turn)."""
    return _application().matches.bot_turn(game_id, version, seat)


def turn_timeout(game_id: str, version: int, seat: int) -> bool:
    """A human's turn timer ran out: a basic bot moves for them (nothing if they acted meanwhile)."""
    return _application().matches.turn_timeout(game_id, version, seat)


def project(game_id: str, version: int) -> int:
    """A match ended (`game_id` at `version`): the projections catch up on the feed, that match and every
    other end since their cursor (app/projections.py). Returns how many matches were recorded."""
    return catch_up()


def catch_up() -> int:
    """The projections catch up on the feed: every match end since their cursor (enqueued by a worker's
    ticker each second while the feed is ahead of the cursor). Returns how many matches were recorded."""
    return _application().projections.catch_up(max_pages=PROJECT_PAGES)


def sweep() -> int:
    """Close long-idle matches and queue again the jobs a crash lost (every TALON_SWEEP_INTERVAL_S)."""
    app = _application()
    now_ms = int(time.time() * 1000)
    # Feed and lobby writes a dead process left undone after its commit (Redis Cluster only).
    repaired = app.store.repair_cross_slot_writes(now_ms)
    touched = app.matches.sweep(now_ms=now_ms, idle_expiry_s=app.settings.idle_expiry_s) + repaired
    # The projections' periodic catch-up: match ends whose `project` job was lost (a crash between the
    # append and the enqueue) are recorded within one sweep interval.
    touched += app.projections.catch_up(max_pages=PROJECT_PAGES)
    if touched:
        log.info("sweeper touched %d games", touched)
    return touched


def enqueue_sweep(queue: Queue, interval_s: int) -> None:
    """One sweep per time slot: the id names the slot, so several workers enqueue it once."""
    _enqueue_once_per_slot(queue, "sweep", interval_s)


def enqueue_catch_up(queue: Queue, interval_s: float) -> None:
    """One catch-up of the projections per time slot, however many workers ask for it."""
    _enqueue_once_per_slot(queue, "catch_up", interval_s)


def _enqueue_once_per_slot(queue: Queue, function: str, interval_s: float) -> None:
    # The finished job keeps its id for a few slots: a worker whose clock is a little behind cannot
    # enqueue the slot's job again.
    slot = int(time.time() // interval_s)
    job_id = f"{function.replace('_', '-')}-{slot}"
    try:
        queue.enqueue(f"workers.jobs.{function}", job_id=job_id, unique=True, result_ttl=math.ceil(interval_s * 4))
    except DuplicateJobError:
        pass
