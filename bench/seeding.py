"""Stored games for the bench, written straight into Redis (no HTTP, no worker).

- `play`: a match of human seats played in process through the same table functions and Repository
  the service uses (seat claims with known tokens, each seat moving as the `basic` bot would for it,
  the system's deals and scoring), appended step by step, snapshots included; it can stop early.
- `copy_finished`: N copies of a finished game under new ids, written with pipelined COPY commands
  (events, meta, snapshot, chain head) and the lobby entry: 100,000 stored games in seconds. The
  copies' payloads are the original's bytes (their `match_created` names the original id); they are
  idle stored games, there to fill Redis, not to be played.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import redis

from app.matches import TABLE_FOLDING, Matches, token_hash
from events.repository import Repository
from events.store import EventStore
from games import table as tables

COPY_BATCH = 500


def token(game_id: str, seat: int) -> str:
    return f"{game_id}.bench-seat-{seat}"


def play(
    store: EventStore,
    game: str,
    options: dict,
    n_seats: int,
    seed: int,
    stop: Callable[[tables.Table], bool] = lambda t: False,
    game_id: str | None = None,
) -> tables.Table:
    """Plays one match into `store` until it is finished or `stop(table)`; returns the last table."""
    repo = Repository(store, TABLE_FOLDING, cache_size=0)
    game_id = game_id or uuid.uuid4().hex[:16]

    def save(table, events):
        return repo.save(game_id, table, events, meta=lambda after: Matches._meta(table, after, game))[0]

    table = save(None, tables.create(game_id, game, options, [{"kind": "human"}] * n_seats, seed))
    for seat in range(n_seats):
        table = save(table, tables.claim_seat(table, seat, f"player {seat}", token_hash(token(game_id, seat))))
    while not table.finished and not stop(table):
        events = tables.system_step(table)
        if not events:
            seat = table.rules.to_act(table.state)[0]
            events = tables.act(table, seat, tables.bot_choice(table, seat))
        table = save(table, events)
    return table


def copy_finished(client: redis.Redis, store: EventStore, source_id: str, n: int) -> float:
    """Writes `n` copies of the finished game `source_id`; returns the seconds it took."""
    started = time.perf_counter()
    parts = ("events", "meta", "snap", "head")
    created_ms = int(client.hget(store._key(source_id, "meta"), "created_ms") or 0)
    lobby = store._lobby_key("finished")
    for first in range(0, n, COPY_BATCH):
        pipe = client.pipeline(transaction=False)
        for _ in range(min(COPY_BATCH, n - first)):
            new_id = uuid.uuid4().hex[:16]
            for part in parts:
                pipe.copy(store._key(source_id, part), store._key(new_id, part))
            pipe.zadd(lobby, {new_id: created_ms})
        pipe.execute()
    return time.perf_counter() - started
