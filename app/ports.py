"""What the use cases need from the outside: an event store and a job queue.

`EventStore` is exactly what the use cases (app/matches.py) call on the store: the repository's load and
versioned append (events/repository.py AggregateStore), reading a game's events, an idempotency record,
and the lobby; `AuditedLog` is what the audit, export and import (app/audit.py) call. The Redis store is
events/store.py; events/memory.py is the same in memory.

The use cases say which jobs a table is owed; a `JobQueue` runs them later, at most once each per
(kind, game, version, seat): a duplicate enqueue is harmless, and every job re-checks the game's version
before it appends, so a stale or repeated job does nothing. The rq adapter is adapters/rq_queue.py;
adapters/memory_queue.py is the same in memory.

tests/integration/test_port_contracts.py runs one suite against both implementations of each port, so
the unit tests of the use cases (tests/unit/test_matches.py), which run on the in-memory ones, test
what the Redis ones do.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from events.codec import Codec, StoredEvent
from events.repository import AggregateStore
from events.store import IdempotentRecord, RawEntry

JOB_KINDS = ("advance", "bot", "timeout")   # a system step; a bot's move; a human's turn timer


@dataclass(frozen=True)
class Job:
    kind: str                 # one of JOB_KINDS
    game_id: str
    version: int              # the table's version when the job was owed
    seat: int | None = None   # the seat of a bot's move or a turn timer
    delay_s: float = 0.0      # run it no sooner than this


class JobQueue(Protocol):
    def enqueue(self, jobs: Sequence[Job]) -> int:
        """Queues each job unless one with its (kind, game, version, seat) is queued or ran already;
        returns how many were new. Raises the builtin ConnectionError when the queue cannot be reached."""
        ...

    def repair(self, jobs: Sequence[Job]) -> int:
        """The sweeper's enqueue: a job that is missing, failed, or whose worker died with it is queued
        (again); one that is waiting or running is left alone. Returns how many were queued."""
        ...

    def depths(self) -> dict[str, int]:
        """Jobs by state ("queued", "started", "scheduled", "deferred", "failed"), for the metrics."""
        ...


class EventStore(AggregateStore, Protocol):
    """The event store as the use cases see it (on top of the repository's load and append)."""

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events with version > after, oldest first, at most `limit` of them."""
        ...

    def idempotent_result(self, game_id: str, key: str) -> IdempotentRecord | None:
        """What an append under this idempotency key produced, if one did (in the last 24 h)."""
        ...

    def lobby(self, status: str, offset: int, limit: int) -> tuple[list[str], int]:
        """One page of the game ids with this status, newest first, and how many there are."""
        ...

    def lobby_after(self, status: str, after: tuple[int, str] | None, count: int) -> list[tuple[str, int]]:
        """Up to `count` (game id, creation ms) with this status, newest first, after (creation ms, id)."""
        ...

    def metas(self, game_ids: Iterable[str]) -> list[dict[str, str]]:
        """The meta fields (lobby summary, `created`, `created_ms`) of each game, in order."""
        ...


class AuditedLog(Protocol):
    """The event store as the audit, the export and the import see it (app/audit.py)."""

    codec: Codec

    def exists(self, game_id: str) -> bool:
        ...

    def meta(self, game_id: str) -> dict[str, str]:
        ...

    def head(self, game_id: str) -> tuple[int, str] | None:
        """The chain head recorded by the last append: (version, hash), or None."""
        ...

    def iter_raw_entries(self, game_id: str, page: int = 1000) -> Iterable[RawEntry]:
        """Every entry of a game exactly as stored (payload undecoded, hashes), oldest first."""
        ...

    def import_entries(self, game_id: str, entries: Sequence[RawEntry], meta: Mapping[str, str] | None = None) -> int:
        """Writes an exported game as it was, atomically; raises events.store.GameExists."""
        ...
