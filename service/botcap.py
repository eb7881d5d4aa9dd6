"""A cap on the bot-only matches one client address runs at a time (TALON_MAX_BOT_MATCHES_PER_ADDRESS).

A match without a human seat plays itself to its end on the workers. Its jobs wait behind every human
match's (adapters/rq_queue.py: a queue of their own, taken last), but an address creating them without
end would still fill that queue: an address may run at most `cap` unfinished bot-only matches at once
(429 `too-many-matches` beyond). The operator's token is not capped; like the rate limits, the cap is
off with TALON_RATE_LIMITS=off.

The address's matches are the members of the sorted set `<prefix>:botmatches:<address>` on REDIS_URL,
scored by the time they were added. A creation first adds a placeholder for itself, then counts, so two
concurrent creations cannot both slip under the cap; the placeholder becomes the match's id once the
match is stored, or goes if the creation failed. Counting drops the matches that finished (the event
store's lobby fields say so) and placeholders older than PENDING_S (a process that died mid-creation).
If Redis cannot be reached the cap is not checked: the creation itself will meet the outage.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import redis

from events.store import EventStore
from service.problems import Problem

log = logging.getLogger("talon.botcap")

PENDING = "pending:"
PENDING_S = 60
RETRY_AFTER_S = 30


def bots_only(seats: list[dict]) -> bool:
    return bool(seats) and all(seat.get("kind") == "bot" for seat in seats)


class BotMatchCap:
    def __init__(self, client: redis.Redis, store: EventStore, prefix: str, cap: int, ttl_s: int):
        """`ttl_s`: how long an address's set outlives its last creation (the sweeper closes a match
        idle that long)."""
        self.client, self.store, self.prefix, self.cap, self.ttl_s = client, store, prefix, cap, ttl_s

    @contextmanager
    def creating(self, address: str) -> Iterator[list[str]]:
        """Around one creation of a bot-only match by `address`: 429 at the cap; the body puts the new
        match's id in the list it is given."""
        key, placeholder = f"{self.prefix}:botmatches:{address}", f"{PENDING}{uuid.uuid4().hex}"
        try:
            running = self._count_with(key, placeholder)
        except redis.RedisError as exc:  # fail open, as the rate limits do
            log.warning("bot-only match cap not checked: %s", exc)
            running = None
        if running is not None and running > self.cap:
            self._forget(key, placeholder)
            raise Problem(
                429,
                "too-many-matches",
                f"this address runs {self.cap} bot-only matches already: wait for one to end",
                headers={"Retry-After": str(RETRY_AFTER_S)},
            )
        created: list[str] = []
        try:
            yield created
        finally:
            self._settle(key, placeholder, created)

    def _count_with(self, key: str, placeholder: str) -> int:
        now = time.time()
        self.client.zadd(key, {placeholder: now})
        members = [m.decode() for m in self.client.zrange(key, 0, -1, withscores=False)]
        games = [m for m in members if not m.startswith(PENDING)]
        over = [g for g, meta in zip(games, self.store.metas(games)) if meta.get("status", "finished") == "finished"]
        stale = [
            m
            for m, at in self.client.zrange(key, 0, -1, withscores=True)
            if m.decode().startswith(PENDING) and at < now - PENDING_S
        ]
        if over or stale:
            self.client.zrem(key, *over, *stale)
        return len(members) - len(over) - len(stale)

    def _settle(self, key: str, placeholder: str, created: list[str]) -> None:
        try:
            pipe = self.client.pipeline(transaction=True)
            pipe.zrem(key, placeholder)
            if created:
                pipe.zadd(key, {created[0]: time.time()})
            pipe.expire(key, self.ttl_s)
            pipe.execute()
        except redis.RedisError as exc:
            log.warning("bot-only match cap not updated: %s", exc)

    def _forget(self, key: str, placeholder: str) -> None:
        try:
            self.client.zrem(key, placeholder)
        except redis.RedisError:
            pass
