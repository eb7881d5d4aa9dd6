"""The event store in memory: what events/store.py does in Redis, for unit tests without I/O.

It implements the port the use cases see (app/ports.py EventStore) with the Redis store's semantics,
step by step as the APPEND script takes them (events/scripts.py): an idempotency record answers a
retry first, then the writer's throttle (GCRA, which a refused append still consumes when the version
check then fails, as in the script), then the version check, then the entries with the hash chain
(events/chain.py), the snapshot, the meta (`created` and `created_ms` with the first append), the lobby
set of the status, the global feed and the idempotency record. Events go through the same codec, so an
event the Redis store refuses is refused here, and reads give back what a stored event decodes to.

tests/integration/test_port_contracts.py runs one suite against both stores; a behaviour it does not
check is not promised here. Not kept: Redis Cluster's cross-slot writes (everything is one atomic step
here), blocking waits, compaction (memory only). Time comes from `clock` (seconds since the
epoch, time.time by default), so a test can move it: `at`, the idempotency records' 24 h and throttles.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from events.chain import entry_hash, genesis_hash
from events.codec import Codec, StoredEvent, format_at, normalize_at
from events.crossslot import unique
from events.keys import LOBBY_STATUSES, Keys, check_game_id
from events.store import (
    _STREAM_ID,
    IDEMPOTENCY_TTL_S,
    AppendResult,
    FeedEntry,
    GameExists,
    IdempotencyMismatch,
    IdempotentRecord,
    Loaded,
    RawEntry,
    Snapshot,
    Throttle,
    Throttled,
    VersionConflict,
    _check_idempotency_key,
    _fingerprint,
    _meta_args,
    _notify,
    check_import,
)


@dataclass(frozen=True)
class _Record:
    first: int
    last: int
    fingerprint: str
    expires_s: float


@dataclass
class _Game:
    entries: list[RawEntry] = field(default_factory=list)  # versions 1.. in order, `hash` in hex
    meta: dict[str, str] = field(default_factory=dict)
    snapshot: tuple[int, str, bytes] | None = None  # version, engine version, state as JSON
    records: dict[str, _Record] = field(default_factory=dict)  # idempotency key -> record
    throttles: dict[str, int] = field(default_factory=dict)  # throttle name -> theoretical arrival (µs)

    @property
    def version(self) -> int:
        return self.entries[-1].version if self.entries else 0


class InMemoryEventStore:
    def __init__(self, codec: Codec | None = None, clock: Callable[[], float] = time.time):
        self.codec = codec or Codec()
        self.clock = clock
        self._games: dict[str, _Game] = {}
        self._lobby: dict[str, dict[str, int]] = {status: {} for status in LOBBY_STATUSES}
        self._feed: list[tuple[tuple[int, int], FeedEntry]] = []
        self._lock = threading.Lock()  # one append at a time, as Redis runs one script at a time

    # Writing.

    def append(
        self,
        game_id: str,
        events: Sequence[Mapping[str, Any]],
        expected_version: int,
        *,
        idempotency_key: str | None = None,
        fingerprint: str | None = None,
        meta: Mapping[str, str] | None = None,
        at: str | None = None,
        snapshot: tuple[str, Mapping[str, Any]] | None = None,
        throttle: Throttle | None = None,
    ) -> AppendResult:
        """events.store.EventStore.append: the same arguments, checks, results and refusals."""
        check_game_id(game_id)
        if not events:
            raise ValueError("nothing to append")
        if isinstance(expected_version, bool) or not isinstance(expected_version, int) or expected_version < 0:
            raise ValueError(f"expected version must be an int >= 0: {expected_version!r}")
        at, at_ms = normalize_at(at) if at is not None else self._now_at()
        encoded = [self.codec.encode(event, at).decode() for event in events]  # validates each event
        if idempotency_key is not None:
            _check_idempotency_key(idempotency_key)
            fingerprint = fingerprint if fingerprint is not None else _fingerprint(events)
        meta_args, lobby_target = _meta_args(meta)
        state = orjson.dumps(snapshot[1]) if snapshot is not None else None  # stored as data, not shared
        try:
            with self._lock:
                result = self._append(
                    game_id,
                    events,
                    encoded,
                    expected_version,
                    idempotency_key,
                    fingerprint or "",
                    dict(zip(meta_args[0::2], meta_args[1::2])),
                    lobby_target,
                    at,
                    at_ms,
                    snapshot[0] if snapshot else None,
                    state,
                    throttle,
                )
        except (VersionConflict, IdempotencyMismatch, Throttled) as refused:
            _notify(game_id, events, None, refused)
            raise
        _notify(game_id, events, result, None)
        return result

    def _append(
        self,
        game_id: str,
        events: Sequence[Mapping[str, Any]],
        encoded: list[str],
        expected: int,
        idempotency_key: str | None,
        fingerprint: str,
        meta: dict[str, str],
        lobby_target: int,
        at: str,
        at_ms: int,
        engine: str | None,
        state: bytes | None,
        throttle: Throttle | None,
    ) -> AppendResult:
        game = self._games.setdefault(game_id, _Game())
        now_s = self.clock()
        # 1. A retry is answered from its record, before the version check.
        record = self._record(game, idempotency_key, now_s) if idempotency_key is not None else None
        if record is not None:
            if record.fingerprint != fingerprint:
                raise IdempotencyMismatch("idempotency key already used for a different request")
            return AppendResult(record.first, record.last, replayed=True)
        # 1b. The writer's rate (GCRA).
        if throttle is not None:
            self._throttle(game, throttle, int(now_s * 1_000_000))
        # 2. Optimistic concurrency.
        current = game.version
        if current != expected:
            raise VersionConflict(current)
        # 3. The entries and their hash chain; 4. the feed.
        prev_hash = game.entries[-1].hash if game.entries else genesis_hash(game_id)
        assert prev_hash is not None
        for offset, (event, payload) in enumerate(zip(events, encoded), start=1):
            version = expected + offset
            prev_hash = entry_hash(prev_hash, version, payload)
            game.entries.append(RawEntry(version, payload, None, prev_hash))
            self._add_to_feed(game_id, version, event["type"])
        first, last = expected + 1, expected + len(events)
        if engine is not None and state is not None:
            game.snapshot = (last, engine, state)
        # 5. Meta and the lobby set of the status.
        if current == 0:
            game.meta.setdefault("created", at)
            game.meta.setdefault("created_ms", str(at_ms))
        game.meta.update(meta)
        if lobby_target > 0:
            status = LOBBY_STATUSES[lobby_target - 1]
            for other, members in self._lobby.items():
                if other == status:
                    members[game_id] = int(game.meta["created_ms"])
                else:
                    members.pop(game_id, None)
        # 6. The record a retry will be answered from.
        if idempotency_key is not None:
            game.records[idempotency_key] = _Record(first, last, fingerprint, now_s + IDEMPOTENCY_TTL_S)
        return AppendResult(first, last, replayed=False, head_hash=prev_hash)

    @staticmethod
    def _throttle(game: _Game, throttle: Throttle, now_us: int) -> None:
        interval, period = throttle.microseconds()
        new_tat = max(game.throttles.get(throttle.name, now_us), now_us) + interval
        if new_tat - now_us > period:
            raise Throttled((new_tat - now_us - period) / 1_000_000)
        game.throttles[throttle.name] = new_tat

    def _add_to_feed(self, game_id: str, version: int, event_type: str) -> None:
        # Entry ids as Redis gives them to XADD '*': <ms>-<seq>, increasing even if the clock is not.
        ms = int(self.clock() * 1000)
        if self._feed and self._feed[-1][0][0] >= ms:
            position = (self._feed[-1][0][0], self._feed[-1][0][1] + 1)
        else:
            position = (ms, 0)
        entry = FeedEntry(f"{position[0]}-{position[1]}", game_id, version, event_type)
        self._feed.append((position, entry))

    def import_entries(self, game_id: str, entries: Sequence[RawEntry], meta: Mapping[str, str] | None = None) -> int:
        """events.store.EventStore.import_entries: an exported game as it was; raises GameExists."""
        check_game_id(game_id)
        check_import(entries)
        meta_args, lobby_target = _meta_args(meta)
        with self._lock:
            game = self._games.setdefault(game_id, _Game())
            if game.entries:
                raise GameExists(game_id, game.version)
            game.entries = [RawEntry(e.version, e.payload, None, e.hash) for e in entries]
            game.meta.update(zip(meta_args[0::2], meta_args[1::2]))
            if lobby_target > 0:
                self._lobby[LOBBY_STATUSES[lobby_target - 1]][game_id] = int(game.meta.get("created_ms", "0"))
        return len(entries)

    def delete(self, game_id: str) -> None:
        """Removes a game and its lobby entries; its feed entries stay (as in Redis)."""
        check_game_id(game_id)
        with self._lock:
            self._games.pop(game_id, None)
            for members in self._lobby.values():
                members.pop(game_id, None)

    # Reading one game.

    def version(self, game_id: str) -> int:
        return self._game(game_id).version

    def exists(self, game_id: str) -> bool:
        return bool(self._game(game_id).entries)

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events with version > after, oldest first, at most `limit` of them."""
        return self._decode(self.raw_entries(game_id, after, limit))

    def idempotent_result(self, game_id: str, key: str) -> IdempotentRecord | None:
        _check_idempotency_key(key)
        record = self._record(self._game(game_id), key, self.clock())
        if record is None:
            return None
        return IdempotentRecord(AppendResult(record.first, record.last, replayed=True), record.fingerprint)

    def load(self, game_id: str, engine_version: str) -> tuple[Snapshot | None, list[StoredEvent]]:
        loaded = self.load_since(game_id, engine_version)
        return loaded.snapshot, loaded.events

    def load_since(self, game_id: str, engine_version: str, known: tuple[int, str] | None = None) -> Loaded:
        """The snapshot of `engine_version` and the events after it; or, when the entry at `known`'s
        version still has `known`'s hash, only the events after that entry (`Loaded.known`)."""
        game = self._game(game_id)
        entries = list(game.entries)  # a copy: appends may go on while the caller decodes
        head = (entries[-1].version, entries[-1].hash) if entries else None
        if known is not None:
            version, digest = known
            if head == (version, digest):
                return Loaded(None, [], known=True, head=_head(head))
            if any(e.version == version and e.hash == digest for e in entries):
                return Loaded(
                    None, self._decode(e for e in entries if e.version > version), known=True, head=_head(head)
                )
        snapshot = None
        if game.snapshot is not None and game.snapshot[1] == engine_version:
            snapshot = Snapshot(game.snapshot[0], engine_version, orjson.loads(game.snapshot[2]))
        after = snapshot.version if snapshot is not None else 0
        return Loaded(snapshot, self._decode(e for e in entries if e.version > after), known=False, head=_head(head))

    def meta(self, game_id: str) -> dict[str, str]:
        return dict(self._game(game_id).meta)

    def metas(self, game_ids: Iterable[str]) -> list[dict[str, str]]:
        return [self.meta(game_id) for game_id in game_ids]

    def head(self, game_id: str) -> tuple[int, str] | None:
        entries = self._game(game_id).entries
        return _head((entries[-1].version, entries[-1].hash)) if entries else None

    def raw_entries(self, game_id: str, after: int = 0, limit: int | None = None) -> list[RawEntry]:
        entries = [e for e in self._game(game_id).entries if e.version > after]
        return entries if limit is None else entries[:limit]

    def iter_raw_entries(self, game_id: str, page: int = 1000) -> Iterable[RawEntry]:
        return iter(self.raw_entries(game_id))

    # Reading across games.

    def lobby(self, status: str, offset: int, limit: int) -> tuple[list[str], int]:
        """One page of the game ids with this status, newest first (ties: greater id first, as
        ZREVRANGE orders them), and how many there are."""
        if offset < 0 or limit < 1:
            raise ValueError("offset must be >= 0 and limit >= 1")
        rows = self._lobby_rows(status)
        return [game_id for game_id, _ in rows[offset : offset + limit]], len(rows)

    def lobby_after(self, status: str, after: tuple[int, str] | None, count: int) -> list[tuple[str, int]]:
        rows = self._lobby_rows(status)
        if after is not None:
            created, last_id = after
            rows = [(m, ms) for m, ms in rows if ms < created or (ms == created and m < last_id)]
        return rows[:count]

    def feed(self, after: str = "0", count: int = 100) -> list[FeedEntry]:
        if not _STREAM_ID.fullmatch(after):
            raise ValueError(f"invalid feed id: {after!r}")
        ms, _, seq = after.partition("-")
        start = (int(ms), int(seq or 0))
        return unique([entry for position, entry in self._feed if position > start][:count])

    # Helpers.

    def _game(self, game_id: str) -> _Game:
        return self._games.get(check_game_id(game_id)) or _Game()

    def _lobby_rows(self, status: str) -> list[tuple[str, int]]:
        Keys("talon").lobby(status)  # the same refusal of an unknown status as the Redis store's
        return sorted(self._lobby[status].items(), key=lambda row: (row[1], row[0]), reverse=True)

    @staticmethod
    def _record(game: _Game, key: str, now_s: float) -> _Record | None:
        record = game.records.get(key)
        return record if record is not None and record.expires_s > now_s else None

    def _decode(self, entries: Iterable[RawEntry]) -> list[StoredEvent]:
        return [self.codec.decode(e.version, e.payload, hash=e.hash, prev_hash=e.prev_hash) for e in entries]

    def _now_at(self) -> tuple[str, int]:
        ms = int(self.clock() * 1000)
        return format_at(ms // 1000, ms % 1000), ms


def _head(head: tuple[int, str | None] | None) -> tuple[int, str] | None:
    return (head[0], head[1]) if head is not None and head[1] is not None else None
