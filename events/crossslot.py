"""The feed and lobby writes that follow a commit when they cannot be part of it (Redis Cluster).

On one primary the append script writes the global feed and the lobby sets in the same atomic step
as the events. On a Cluster those keys live in other slots than the game's (CROSSSLOT), so an append
goes in three steps:

1. an *intent* `<game>:<expected version>:<n>:<token>` is added to the pending set, before the commit;
2. the append script commits the events, touching only the game's own keys;
3. the lobby sets are updated, then the feed entries are added and the intent removed in one MULTI.

The pending set is named `<prefix>:{<prefix>:feed}:pending`: its hash tag is the feed's whole key
name, so both sit in one slot and step 3 ends atomically. A process that dies between the steps leaves
its intent behind; `CrossSlotWrites.repair` (run by the sweeper) finds intents older than a grace period and
writes what they promised again from the stored entries. The same entry may then be in the feed twice,
or an intent whose append lost its race may re-add another writer's entries: readers deduplicate the
feed on (game, version) (`unique`), so writing twice is harmless and losing is not possible.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import orjson
import redis
from redis.cluster import RedisCluster

from events.codec import unpack
from events.keys import LOBBY_STATUSES, Keys

if TYPE_CHECKING:  # events.store builds on this module: its entry types are named for the type checker only
    from events.store import FeedEntry, RawEntry

FEED_MAXLEN = 1_000_000
# An intent younger than this may belong to an append still on its way: the sweeper leaves it alone.
# Longer than any request or job takes (gunicorn's timeout is 30 s, a job's 60 s).
REPAIR_GRACE_S = 90


@dataclass(frozen=True)
class Intent:
    game_id: str
    expected: int
    count: int
    member: str

    @classmethod
    def parse(cls, member: bytes | str) -> Intent:
        text = member.decode() if isinstance(member, bytes) else member
        game_id, expected, count, _token = text.split(":")
        return cls(game_id, int(expected), int(count), text)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def unique(entries: Iterable[FeedEntry], seen: set[tuple[str, int]] | None = None) -> list[FeedEntry]:
    """Feed entries without repeats of a (game, version) already in `seen` (updated in place)."""
    seen = set() if seen is None else seen
    kept = []
    for entry in entries:
        mark = (entry.game_id, entry.version)
        if mark not in seen:
            seen.add(mark)
            kept.append(entry)
    return kept


class CrossSlotWrites:
    """Writes and repairs the cross-slot part of appends for one event store: its client, its key
    names, and how to read back a game's raw entries and meta (for a repair)."""

    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        keys: Keys,
        raw_entries: Callable[..., list[RawEntry]],
        meta: Callable[[str], dict[str, str]],
    ) -> None:
        self.client, self.keys = client, keys
        self.raw_entries, self.meta = raw_entries, meta
        self.pending_key = keys.pending

    def intend(self, game_id: str, expected: int, count: int) -> Intent:
        member = f"{game_id}:{expected}:{count}:{secrets.token_hex(6)}"
        self.client.zadd(self.pending_key, {member: int(time.time() * 1000)})
        return Intent(game_id, expected, count, member)

    def complete(
        self,
        intent: Intent,
        types: Sequence[str] = (),
        lobby_status: str | None = None,
        created_ms: int | str | None = None,
    ) -> None:
        """Lobby first, then the feed and the intent's removal together: an intent stays until all is done."""
        if lobby_status is not None and created_ms is not None:
            # The status as stored now, not as this append left it: when two appends of one game both
            # move it, the later follow-up writes the newer status whichever order they run in.
            status, stored_ms = self.client.hmget(self.keys.one(intent.game_id, "meta"), "status", "created_ms")
            if status is not None and stored_ms is not None:
                lobby_status, created_ms = _text(status), _text(stored_ms)
            self._lobby(intent.game_id, lobby_status, created_ms)
        pipe = self.client.pipeline(transaction=True)
        for offset, event_type in enumerate(types, start=1):
            pipe.xadd(
                self.keys.feed,
                {"g": intent.game_id, "v": intent.expected + offset, "t": event_type},
                maxlen=FEED_MAXLEN,
                approximate=True,
            )
        pipe.zrem(self.pending_key, intent.member)
        pipe.execute()

    def lobby(self, game_id: str, status: str, created_ms: int | str) -> None:
        self._lobby(game_id, status, created_ms)

    def _lobby(self, game_id: str, status: str, created_ms: int | str) -> None:
        pipe = self.client.pipeline(transaction=False)
        for other in LOBBY_STATUSES:
            if other == status:
                pipe.zadd(self.keys.lobby(other), {game_id: int(created_ms)})
            else:
                pipe.zrem(self.keys.lobby(other), game_id)
        pipe.execute()

    def pending(self) -> int:
        return self.client.zcard(self.pending_key)

    def repair(self, now_ms: int | None = None, grace_s: float = REPAIR_GRACE_S, limit: int = 1000) -> int:
        """Completes intents older than `grace_s` from what is stored; returns how many."""
        now_ms = int(time.time() * 1000) if now_ms is None else now_ms
        # redis-py gives one type to the answers with and without scores: without `withscores`, members only.
        members = cast(
            list[bytes | str],
            self.client.zrangebyscore(self.pending_key, "-inf", now_ms - int(grace_s * 1000), start=0, num=limit),
        )
        for member in members:
            self._repair_one(Intent.parse(member))
        return len(members)

    def _repair_one(self, intent: Intent) -> None:
        # The entries the intent's append would have written; if it lost its race they are another
        # writer's (already in the feed, or promised by its own intent): a repeat readers drop.
        entries = self.raw_entries(intent.game_id, after=intent.expected, limit=intent.count)
        types = [orjson.loads(unpack(entry.payload))["t"] for entry in entries]
        meta = self.meta(intent.game_id)
        status = meta.get("status")
        self.complete(intent, types, status if entries and status else None, meta.get("created_ms"))
