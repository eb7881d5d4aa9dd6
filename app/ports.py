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
from typing import Any, Protocol

from events.codec import Codec, StoredEvent
from events.repository import AggregateStore
from events.store import IdempotentRecord, RawEntry

# a system step; a bot's move; a human's turn timer; the projections' catch-up after a match ended
JOB_KINDS = ("advance", "bot", "timeout", "project")


@dataclass(frozen=True)
class Job:
    kind: str  # one of JOB_KINDS
    game_id: str
    version: int  # the table's version when the job was owed
    seat: int | None = None  # the seat of a bot's move or a turn timer
    delay_s: float = 0.0  # run it no sooner than this
    # The job of a match the bots play alone (no human seat, or every one open or taken over): queued
    # apart and taken only when no human match's job waits, so that any number of them cannot slow the
    # bots' replies in a match a human plays.
    background: bool = False


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

    def exists(self, game_id: str) -> bool: ...

    def meta(self, game_id: str) -> dict[str, str]: ...

    def head(self, game_id: str) -> tuple[int, str] | None:
        """The chain head recorded by the last append: (version, hash), or None."""
        ...

    def iter_raw_entries(self, game_id: str, page: int = 1000) -> Iterable[RawEntry]:
        """Every entry of a game exactly as stored (payload undecoded, hashes), oldest first."""
        ...

    def import_entries(self, game_id: str, entries: Sequence[RawEntry], meta: Mapping[str, str] | None = None) -> int:
        """Writes an exported game as it was, atomically; raises events.store.GameExists."""
        ...


@dataclass(frozen=True)
class PlayerRecord:
    player_id: str
    name: str
    created_ms: int


class PlayerStore(Protocol):
    """Registered players (app/players.py): who they are, the hash of their key, their seats."""

    def add(self, player_id: str, name: str, created_ms: int, key_hash: str) -> None:
        """Stores a new player and the hash of their key (never the key)."""
        ...

    def by_key_hash(self, key_hash: str) -> str | None:
        """The id of the player whose key has this hash."""
        ...

    def get(self, player_id: str) -> tuple[str, int] | None:
        """(name, created_ms) of the player."""
        ...

    def names(self, player_ids: Sequence[str]) -> dict[str, str]:
        """The names of those of these players that exist."""
        ...

    def add_seat(self, player_id: str, game_id: str, seat: int) -> None: ...

    def seats(self, player_id: str) -> list[tuple[str, int]]:
        """(game id, seat) of every seat the player claimed and has not been dropped (`drop_seats`)."""
        ...

    def drop_seats(self, player_id: str, seats: Sequence[tuple[str, int]]) -> None: ...


@dataclass(frozen=True)
class MatchWrite:
    """Everything one finished match changes in the projections, applied at once with the feed cursor
    (ProjectionStore.commit)."""

    game_id: str
    game: str
    record: Mapping[str, Any]  # the match as histories show it (app/projections.py MatchRecord), or {}
    ratings: dict[str, list[float]]  # participant -> [rating, deviation, volatility, rated matches]
    board: dict[str, float | None]  # player -> leaderboard score (rating), None: off the board
    history: tuple[str, ...]  # the players whose history lists the match


class ProjectionStore(Protocol):
    """The projections of the event logs (app/projections.py), in generations: the active one answers
    readers and is kept up to date by the workers; a rebuild fills a new one from the logs alone and
    then makes it the active one. Every write is conditional on the generation's feed cursor (optimistic
    concurrency): the cursor and a match's writes move together or not at all."""

    def active(self) -> int:
        """The generation readers see (0 before any was made)."""
        ...

    def new_generation(self) -> int:
        """A fresh, empty generation (not active yet)."""
        ...

    def activate(self, generation: int) -> None:
        """Makes `generation` the one readers and workers use, and drops the one before."""
        ...

    def cursor(self, generation: int) -> str:
        """The feed id up to which the generation has applied the feed ("0": nothing yet)."""
        ...

    def has_match(self, generation: int, game_id: str) -> bool: ...

    def ratings(self, generation: int, game: str, participants: Sequence[str]) -> dict[str, list[float]]:
        """[rating, deviation, volatility, rated matches] of those participants that have one."""
        ...

    def commit(
        self, generation: int, expected_cursor: str, new_cursor: str, match: MatchWrite | None, only_if_active: bool
    ) -> bool:
        """Moves the cursor from `expected_cursor` to `new_cursor` and applies `match` (unless the
        generation holds it already), atomically; False, with nothing written, if the cursor is no
        longer `expected_cursor` (or, `only_if_active`, the generation is no longer the active one)."""
        ...

    def match(self, generation: int, game_id: str) -> dict[str, Any] | None: ...

    def history(
        self, generation: int, player_id: str, before: int | None, limit: int
    ) -> list[tuple[int, dict[str, Any]]]:
        """Up to `limit` (position, record) of the player's matches, newest first, older than `before`."""
        ...

    def all_ratings(self, generation: int, game: str) -> dict[str, list[float]]: ...

    def board(self, generation: int, game: str, limit: int) -> list[str]:
        """The top `limit` players of the game's leaderboard, best first."""
        ...

    def rank(self, generation: int, game: str, player_id: str) -> int | None:
        """The player's 0-based place on the leaderboard, None when not on it."""
        ...

    def dump(self, generation: int) -> dict[str, Any]:
        """Every projection of the generation as plain data (for comparing a rebuild)."""
        ...
