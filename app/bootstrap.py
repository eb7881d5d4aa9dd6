"""The composition root: the one place that builds the application from its settings, for the API, the
workers and the command line alike.

`build(settings)` connects to Redis (REDIS_URL for the queues and the keys every process shares, and
EVENTS_REDIS_URL, a Redis or a Cluster, for the event store if it is set), and wires the event store,
the rq job queue and the use cases. Nothing else constructs them; the entry points (service/app.py,
workers/__main__.py, workers/jobs.py, service/cli.py) ask for an Application and use what it holds.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis

from adapters.redis_players import RedisPlayerStore
from adapters.redis_projections import RedisProjectionStore
from adapters.rq_queue import RqJobQueue
from app.matches import Matches
from app.players import Players
from app.ports import JobQueue
from app.projections import Projections
from app.rematches import Rematches
from app.replays import Replays
from app.settings import Settings
from events.connection import connect
from events.store import EventStore


@dataclass
class Application:
    settings: Settings
    redis: redis.Redis  # the queue, rate limits, connection caps, stream tickets (REDIS_URL)
    store: EventStore  # the event store (EVENTS_REDIS_URL, else REDIS_URL)
    jobs: JobQueue
    matches: Matches
    rematches: Rematches
    replays: Replays
    projections: Projections  # ratings, histories, leaderboards (on REDIS_URL, from the event store's feed)
    players: Players


def build(settings: Settings, *, pool_size: int | None = None, client: redis.Redis | None = None) -> Application:
    """The application on `settings`' Redis. `pool_size` bounds each Redis client's connections (the
    API: thousands of greenlets share them; a caller waits for a free one); `client`, if given, is the
    REDIS_URL client to use (a worker's own connection)."""
    client = client if client is not None else _shared_client(settings, pool_size)
    events_client = (
        connect(settings.events_redis_url, pool_size=pool_size, health_check_interval=30)
        if settings.events_redis_url
        else client
    )
    store = EventStore(events_client, prefix=settings.key_prefix)
    jobs = RqJobQueue(client, settings.queue_name, settings.stale_job_s)
    matches = Matches(store, jobs, settings.bot_delay_s, bot_think_s=settings.bot_think_s)
    projections = Projections(store, RedisProjectionStore(client, settings.key_prefix))
    players = Players(RedisPlayerStore(client, settings.key_prefix), matches, projections)
    return Application(
        settings, client, store, jobs, matches, Rematches(matches), Replays(matches), projections, players
    )


def _shared_client(settings: Settings, pool_size: int | None) -> redis.Redis:
    client = connect(settings.redis_url, pool_size=pool_size, health_check_interval=30)
    if not isinstance(client, redis.Redis):  # rq does not run on a Cluster (deploy/README.md)
        raise ValueError(
            "REDIS_URL names a Redis Cluster: the job queue needs one Redis "
            "(EVENTS_REDIS_URL may name a Cluster for the event store)"
        )
    return client
