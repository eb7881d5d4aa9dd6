"""The Redis event store: the only code that knows the stream layout (docs/ARCHITECTURE.md §3).

Keys of one game share the hash tag `{g:<id>}`:

    {prefix}:{g:<id>}:events      stream, entry id `<version>-0`, `e` = the encoded event, `h` its hash
    {prefix}:{g:<id>}:meta        hash: lobby summary fields, `created` (ISO) and `created_ms`
    {prefix}:{g:<id>}:snap        hash: `version`, `engine`, `state` (JSON, zlib-compressed behind `z`)
    {prefix}:{g:<id>}:idem:<key>  string `<first>:<last>:<fingerprint>`, expires after 24 h
    {prefix}:{g:<id>}:head        string `<version>:<hash>`: the newest entry of the hash chain
    {prefix}:feed                 stream: `g`, `v`, `t` per event, trimmed to about 1,000,000
    {prefix}:lobby:<status>       sorted set of game ids scored by creation time in ms

Each stream entry carries the hash chain (`h`, its own hash as 20 bytes, which covers the hash of the
entry before it; see events/scripts.py APPEND and events/audit.py), so an edit, a deletion or a
reordering in Redis shows. Entries written before the chain was compacted also carry `p` (the previous
hash) and `h` in hex; both forms are read.

The feed and lobby keys live outside the game's slot: on one primary the whole append is one atomic
script; on Redis Cluster (CROSSSLOT) the store writes them after the commit (events/crossslot.py), and
readers of the feed deduplicate it on (game, version).
The store needs a client that returns bytes (no `decode_responses`): the hashes and snapshots are binary.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import orjson
import redis
from redis.cluster import RedisCluster
from redis.typing import KeyT, StreamIdT

from events import scripts
from events.chain import entry_hash
from events.codec import Codec, StoredEvent, normalize_at, now_at
from events.connection import is_cluster
from events.crossslot import CrossSlotWrites, unique
from events.keys import LOBBY_STATUSES, Keys

log = logging.getLogger("talon.events")

FINISHED = LOBBY_STATUSES.index("finished") + 1  # the lobby target that says a game just finished
IDEMPOTENCY_TTL_S = 24 * 3600
# redis-py 8 gives clients a 5 s socket timeout unless told otherwise (earlier versions: none).
DEFAULT_SOCKET_TIMEOUT_S = 5.0
# The longest single XREAD BLOCK of a wait: how long a wait may take to notice its `until`.
MAX_WAIT_SLICE_S = 4.0
# Printable ASCII without space, as an HTTP `Idempotency-Key` carries it.
_IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,255}")
_MS = re.compile(r"[0-9]{1,16}")
_STREAM_ID = re.compile(r"[0-9]{1,20}(-[0-9]{1,20})?")  # ASCII digits only (\d matches any script's digits)
_HEX_HASH = re.compile(r"[0-9a-f]{40}")

# An event as appended: {"type", "actor", "data"} (events/codec.py checks it), e.g. a games.events.Event.
NewEvent = Mapping[str, Any]
# A stream entry as redis-py reads it (id, {field: value}); from a script, [id, [field, value, ...]]. The
# None that redis-py's type allows only comes of a consumer group's claim of a deleted entry.
Entry = tuple[bytes | str | None, Mapping[bytes | str, bytes | str] | list[bytes | str] | None]


@dataclass(frozen=True)
class AppendResult:
    first_version: int
    last_version: int
    replayed: bool
    head_hash: str | None = field(default=None, compare=False)  # the chain's hash at last_version (None: replayed)


@dataclass(frozen=True)
class Throttle:
    """A writer's rate: at most `count` appends in `seconds`, bursts included (GCRA), under the key part
    `name` (e.g. a seat: "seat:2"), which lives in the game's slot."""

    name: str
    count: int
    seconds: float

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[A-Za-z0-9_.:-]{1,64}", self.name) or self.count < 1 or self.seconds <= 0:
            raise ValueError(f"invalid throttle: {self!r}")

    def microseconds(self) -> tuple[int, int]:
        """(emission interval, period) in µs."""
        period = int(self.seconds * 1_000_000)
        return max(1, period // self.count), period


@dataclass(frozen=True)
class RawEntry:
    """One stream entry exactly as stored: what the hash chain covers, and what an export carries."""

    version: int
    payload: str  # the encoded event (field `e`)
    prev_hash: str | None  # only in entries written before the chain was compacted (field `p`)
    hash: str | None  # hex

    def to_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"v": self.version, "e": self.payload, "h": self.hash}
        return entry if self.prev_hash is None else {**entry, "p": self.prev_hash}


@dataclass(frozen=True)
class Snapshot:
    version: int
    engine_version: str
    state: dict[str, Any]


@dataclass(frozen=True)
class Loaded:
    """What `EventStore.load_since` read: a snapshot (unless the caller's state is `known`), the events
    after it, and the chain head: (version, hash) of the newest entry (None: a stream without one)."""

    snapshot: Snapshot | None
    events: list[StoredEvent]
    known: bool
    head: tuple[int, str] | None


@dataclass(frozen=True)
class FeedEntry:
    id: str
    game_id: str
    version: int
    type: str


@dataclass(frozen=True)
class IdempotentRecord:
    result: AppendResult
    fingerprint: str


class VersionConflict(Exception):
    def __init__(self, current_version: int):
        super().__init__(f"expected version is stale: the game is at version {current_version}")
        self.current_version = current_version


class Throttled(Exception):
    """The writer's throttle refused the append (too many in too short a time): nothing was written."""

    def __init__(self, retry_after_s: float):
        super().__init__(f"throttled: retry after {retry_after_s:.3f} s")
        self.retry_after_s = retry_after_s


class IdempotencyMismatch(Exception):
    """The idempotency key was already used for a different request (another fingerprint)."""


class HistoryChanged(Exception):
    """A stream's entries do not follow on from the entry hash a reader holds: it is no longer (or never
    was) the history that hash stands for."""


class GameExists(Exception):
    """An import named a game id that this Redis already holds."""

    def __init__(self, game_id: str, current_version: int):
        super().__init__(f"game {game_id} already exists here (version {current_version})")
        self.current_version = current_version


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _entry_id(entry_id: bytes | str | None) -> str:
    if entry_id is None:  # see Entry
        raise ValueError("a stream entry without an id: the event store reads no consumer group")
    return _text(entry_id)


def _version_of(entry_id: bytes | str | None) -> int:
    return int(_entry_id(entry_id).partition("-")[0])


def _fields(fields: Mapping[bytes | str, bytes | str] | list[bytes | str] | None) -> dict[str, str]:
    if fields is None:  # see Entry
        raise ValueError("a stream entry without fields: the event store reads no consumer group")
    # XRANGE through redis-py gives {field: value}; XRANGE inside Lua gives [field, value, ...].
    if isinstance(fields, list):
        fields = dict(zip(fields[0::2], fields[1::2]))
    named = {_text(name): value for name, value in fields.items()}
    hashed = named.get("h")
    if isinstance(hashed, bytes):  # 20 bytes as APPEND writes it; 40 hex digits in older entries
        named["h"] = hashed.hex() if len(hashed) == 20 else hashed.decode()
    return {name: _text(value) for name, value in named.items()}


SNAPSHOT_PACKED = b"z"  # a snapshot's state JSON, zlib-compressed (plain JSON starts with `{`)


def _chains_onto(prev_hash: str, entry: Entry) -> bool:
    entry_id, fields = entry
    named = _fields(fields)
    return entry_hash(prev_hash, _version_of(entry_id), named["e"]) == named.get("h")


def _pack_state(state: Mapping[str, Any]) -> bytes:
    return SNAPSHOT_PACKED + zlib.compress(orjson.dumps(state), 6)


def _unpack_state(stored: bytes) -> dict[str, Any]:
    state: dict[str, Any] = orjson.loads(zlib.decompress(stored[1:]) if stored.startswith(SNAPSHOT_PACKED) else stored)
    return state


def check_import(entries: Sequence[RawEntry]) -> None:
    """What an exported game must be to be imported (by every store): versions increasing from 1 or more,
    each payload a string and each hash 40 hex digits. ValueError otherwise."""
    versions = [e.version for e in entries]
    if not entries or any(b <= a for a, b in zip(versions, versions[1:])) or versions[0] < 1:
        raise ValueError("an import needs entries with versions increasing from 1 or more")
    for entry in entries:
        if not isinstance(entry.payload, str) or not isinstance(entry.hash, str) or not _HEX_HASH.fullmatch(entry.hash):
            raise ValueError(f"entry {entry.version}: e must be a string and h 40 hex digits")


class EventStore:
    def __init__(
        self,
        client: redis.Redis | RedisCluster,
        prefix: str = "talon",
        codec: Codec | None = None,
        split_cross_slot: bool | None = None,
        max_block_s: float = MAX_WAIT_SLICE_S,
    ):
        """`split_cross_slot`: write the feed and lobby after the commit instead of inside it; by
        default only on a Redis Cluster client, where nothing else can work. `max_block_s`: the longest
        single XREAD BLOCK of `wait` (it also stays under the client's socket timeout)."""
        if getattr(client, "get_encoder", None) and client.get_encoder().decode_responses:
            raise ValueError(
                "the event store needs a Redis client without decode_responses: "
                "hashes and snapshots are stored as bytes"
            )
        self.client = client
        self.prefix = prefix
        self.keys = Keys(prefix)
        self.codec = codec or Codec()
        split = is_cluster(client) if split_cross_slot is None else split_cross_slot
        self.cross_slot = CrossSlotWrites(client, self.keys, self.raw_entries, self.meta) if split else None
        self._append = client.register_script(scripts.APPEND)
        self._load = client.register_script(scripts.LOAD)
        self._save_snapshot = client.register_script(scripts.SAVE_SNAPSHOT)
        self._import = client.register_script(scripts.IMPORT)
        self._compact = client.register_script(scripts.COMPACT)
        self._block_slice_s = _block_slice_s(client, max_block_s)

    # Key names (events/keys.py).

    def _key(self, game_id: str, part: str) -> str:
        return self.keys.one(game_id, part)

    def _keys(self, game_id: str, *parts: str) -> list[str]:
        return self.keys.game(game_id, *parts)

    def _lobby_key(self, status: str) -> str:
        return self.keys.lobby(status)

    @property
    def _feed_key(self) -> str:
        return self.keys.feed

    # Writing.

    def append(
        self,
        game_id: str,
        events: Sequence[NewEvent],
        expected_version: int,
        *,
        idempotency_key: str | None = None,
        fingerprint: str | None = None,
        meta: Mapping[str, str] | None = None,
        at: str | None = None,
        snapshot: tuple[str, Mapping[str, Any]] | None = None,
        throttle: Throttle | None = None,
    ) -> AppendResult:
        """Appends `events` as versions expected_version+1.. or raises VersionConflict.

        With an idempotency key, a repeat of the same request (same fingerprint; by default a hash of
        the events) returns the first result with replayed=True and writes nothing.
        `snapshot` = (engine version, state after these events) is kept with them, in the same script.
        `throttle`: the writer's rate, checked in the same script; Throttled (nothing written) when it
        writes too often.
        """
        if not events:
            raise ValueError("nothing to append")
        if isinstance(expected_version, bool) or not isinstance(expected_version, int) or expected_version < 0:
            raise ValueError(f"expected version must be an int >= 0: {expected_version!r}")
        at, at_ms = normalize_at(at) if at is not None else now_at()
        encoded = [self.codec.encode(event, at) for event in events]  # validates each event
        parts = ["events", "meta", "head", "snap"]
        if idempotency_key is not None:
            parts.append("idem:" + _check_idempotency_key(idempotency_key))
            fingerprint = fingerprint if fingerprint is not None else _fingerprint(events)
        if throttle is not None:
            parts.append("throttle:" + throttle.name)
        keys = self._keys(game_id, *parts)
        if self.cross_slot is None:
            keys += [self._feed_key, *(self._lobby_key(status) for status in LOBBY_STATUSES)]
        meta_args, lobby_target = _meta_args(meta)
        snapshot_args = [snapshot[0], _pack_state(snapshot[1])] if snapshot is not None else ["", ""]
        interval_us, period_us = throttle.microseconds() if throttle is not None else (0, 0)
        args = [
            expected_version,
            game_id,
            at,
            at_ms,
            fingerprint or "",
            IDEMPOTENCY_TTL_S,
            lobby_target,
            *snapshot_args,
            len(events),
            int(idempotency_key is not None),
            interval_us,
            period_us,
            int(self.cross_slot is None),
        ]
        for event, payload in zip(events, encoded):
            args += [event["type"], payload]
        cross_slot = self.cross_slot
        intent = cross_slot.intend(game_id, expected_version, len(events)) if cross_slot else None
        try:
            reply = self._append(keys=keys, args=args + meta_args)
            result = _append_result(reply)
        except (VersionConflict, IdempotencyMismatch, Throttled) as refused:
            if cross_slot is not None and intent is not None:
                cross_slot.complete(intent)  # nothing to write: only the intent goes
            _notify(game_id, events, None, refused)
            raise
        if cross_slot is not None and intent is not None:
            written = not result.replayed
            try:
                # A lobby target comes of a status in meta.
                cross_slot.complete(
                    intent,
                    [e["type"] for e in events] if written else (),
                    meta["status"] if written and lobby_target and meta is not None else None,
                    _text(reply[4]) if written and lobby_target else None,
                )
            except redis.RedisError:
                # The events are committed: the caller gets its result, the intent stays for the sweeper.
                log.warning("feed/lobby follow-up of %s failed; the sweeper will complete it", game_id, exc_info=True)
        if lobby_target == FINISHED and not result.replayed:
            self._compact_finished(game_id)
        _notify(game_id, events, result, None)
        return result

    def _compact_finished(self, game_id: str) -> None:
        """A finished game's stream, stored again at the size of its entries (scripts.COMPACT says why).
        It saves memory only: if it fails, the game stays as it was and the append that finished it
        stands."""
        try:
            self._compact(keys=[self._key(game_id, "events"), self._key(game_id, "compacting")])
        except redis.RedisError:
            log.warning("the finished game %s was not compacted", game_id, exc_info=True)

    def repair_cross_slot_writes(self, now_ms: int | None = None) -> int:
        """The sweeper's part: feed and lobby writes a dead process left undone (0 on one primary)."""
        return self.cross_slot.repair(now_ms) if self.cross_slot else 0

    def save_snapshot(self, game_id: str, version: int, engine_version: str, state: Mapping[str, Any]) -> None:
        """Keeps the snapshot unless a newer one is there already (then this one is dropped)."""
        reply = self._save_snapshot(
            keys=[self._key(game_id, "snap"), self._key(game_id, "events")],
            args=[version, engine_version, _pack_state(state)],
        )
        if _text(reply[0]) == "beyond":
            raise ValueError(f"snapshot version {version} is beyond the game's version {reply[1]}")

    def delete(self, game_id: str) -> None:
        """Removes every key of one game and its lobby entries (tests, retention).

        Its entries in the global feed stay: the feed is an append-only operators' log.
        """
        keys = [self._key(game_id, part) for part in ("events", "meta", "snap", "head")]
        # Game ids and prefixes have no glob characters, so the pattern matches this game only.
        keys += self.client.scan_iter(match=self._key(game_id, "idem:*"), count=1000)
        pipe = self.client.pipeline(transaction=True)
        pipe.delete(*keys)
        # On a Cluster the lobby sets are in other slots: removed in a second step.
        lobby = pipe if self.cross_slot is None else self.client.pipeline(transaction=False)
        for status in LOBBY_STATUSES:
            lobby.zrem(self._lobby_key(status), game_id)
        pipe.execute()
        if lobby is not pipe:
            lobby.execute()

    # Reading one game.

    def version(self, game_id: str) -> int:
        head = self.client.xrevrange(self._key(game_id, "events"), count=1)
        return _version_of(head[0][0]) if head else 0

    def idempotent_result(self, game_id: str, key: str) -> IdempotentRecord | None:
        """What an append under this idempotency key produced, if one did (in the last 24 h)."""
        record = self.client.get(self._key(game_id, "idem:" + _check_idempotency_key(key)))
        if record is None:
            return None
        first, last, fingerprint = _text(record).split(":", 2)
        return IdempotentRecord(AppendResult(int(first), int(last), replayed=True), fingerprint)

    def exists(self, game_id: str) -> bool:
        return bool(self.client.exists(self._key(game_id, "events")))

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events with version > after, oldest first, at most `limit` of them."""
        entries = self.client.xrange(self._key(game_id, "events"), min=f"{after + 1}-0", count=limit)
        return self._decode(entries)

    def wait(
        self,
        game_id: str,
        after: int,
        timeout_s: float,
        until: Callable[[], bool] | None = None,
        after_hash: str | None = None,
    ) -> list[StoredEvent]:
        """Events with version > after as soon as there are any; [] after `timeout_s`, or as soon as
        `until()` is true (asked between slices: the API process uses it to end waits when it stops).
        With `after_hash`, the hash of the entry at `after` that the caller holds: HistoryChanged unless
        the first event chains onto it (the events then extend that history).

        XREAD BLOCK, in slices shorter than the client's socket timeout (redis-py 8 sets 5 s by
        default, and a read that outlasts it fails as if Redis were gone) and at most MAX_WAIT_SLICE_S:
        a long-poll of 30 s is a few XREADs. redis-py takes a pool connection for each and returns it
        after, so waits share no state.
        """
        key = self._key(game_id, "events")
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            # BLOCK 0 would wait for ever: a timeout of zero means "do not block".
            block_ms = max(1, int(min(remaining, self._block_slice_s) * 1000)) if remaining > 0 else None
            reply = self.client.xread({key: f"{after}-0"}, block=block_ms)
            if reply:
                # RESP2 gives [[stream, entries]], RESP3 gives {stream: [entries]} (redis-py's type of the
                # reply also allows {stream: entries}, which no protocol answers to XREAD).
                answer = cast("dict[bytes | str, list[list[Entry]]] | list[list[Any]]", reply)
                entries: list[Entry] = next(iter(answer.values()))[0] if isinstance(answer, dict) else answer[0][1]
                if after_hash is not None and not _chains_onto(after_hash, entries[0]):
                    raise HistoryChanged(game_id)
                return self._decode(entries)
            if block_ms is None or time.monotonic() >= deadline or (until is not None and until()):
                return []

    def wait_many(
        self, positions: Mapping[str, tuple[int, str | None]], timeout_s: float, until: Callable[[], bool] | None = None
    ) -> dict[str, tuple[list[StoredEvent], bool]]:
        """`wait` for several games in one read: {game id: (after, hash of the entry at `after` or None)}
        in, {game id: (events after it, whether they were checked to chain onto that hash)} out for the
        games that have any, as soon as one has; {} after `timeout_s`, or once `until()` is true (asked
        before each slice). A game whose stream no longer follows on from the hash comes back unchecked.
        One XREAD of every stream, so on a Redis Cluster only games of one slot can be read together."""
        ids = list(positions)
        keys = [self._key(game_id, "events") for game_id in ids]
        streams: dict[KeyT, StreamIdT] = {key: f"{positions[game_id][0]}-0" for key, game_id in zip(keys, ids)}
        by_key = dict(zip(keys, ids))
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (until is not None and until()):
                return {}
            reply = self.client.xread(streams, block=max(1, int(min(remaining, self._block_slice_s) * 1000)))
            if reply:
                found: dict[str, tuple[list[StoredEvent], bool]] = {}
                # (stream, entries) pairs: as in `wait`, RESP3's entries come wrapped in a list.
                pairs = cast(Iterable[Sequence[Any]], reply.items() if isinstance(reply, dict) else reply)
                for key, entries in pairs:
                    entries = entries[0] if isinstance(reply, dict) else entries
                    game_id = by_key[_text(key)]
                    after_hash = positions[game_id][1]
                    chained = after_hash is not None and _chains_onto(after_hash, entries[0])
                    found[game_id] = (self._decode(entries), chained)
                return found

    def load(self, game_id: str, engine_version: str) -> tuple[Snapshot | None, list[StoredEvent]]:
        """The latest snapshot taken under `engine_version` (or None) and every event after it."""
        loaded = self.load_since(game_id, engine_version)
        return loaded.snapshot, loaded.events

    def load_since(self, game_id: str, engine_version: str, known: tuple[int, str] | None = None) -> Loaded:
        """Like `load`; with `known` = (version, hash) of a state the caller holds, only the events after
        it, if the stream's entry at that version still has that hash (`Loaded.known` is then True)."""
        args = [engine_version, *(known or ())]
        after, state, entries, head = self._load(keys=self._keys(game_id, "snap", "events", "head"), args=args)
        head_version, _, head_hash = _text(head).partition(":") if head is not None else ("0", "", "")
        chain_head = (int(head_version), head_hash) if head_hash else None
        if state in (b"known", "known"):
            return Loaded(None, self._decode(entries), known=True, head=chain_head)
        snapshot = Snapshot(after, engine_version, _unpack_state(state)) if state is not None else None
        return Loaded(snapshot, self._decode(entries), known=False, head=chain_head)

    def meta(self, game_id: str) -> dict[str, str]:
        return _text_dict(self.client.hgetall(self._key(game_id, "meta")))

    def metas(self, game_ids: Iterable[str]) -> list[dict[str, str]]:
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(self._key(game_id, "meta"))
        return [_text_dict(fields) for fields in pipe.execute()]

    # Reading across games.

    def lobby(self, status: str, offset: int, limit: int) -> tuple[list[str], int]:
        """One page of the game ids with this status, newest first, and how many there are."""
        if offset < 0 or limit < 1:
            raise ValueError("offset must be >= 0 and limit >= 1")
        key = self._lobby_key(status)
        pipe = self.client.pipeline(transaction=False)
        pipe.zrevrange(key, offset, offset + limit - 1)
        pipe.zcard(key)
        ids, total = pipe.execute()
        return [_text(game_id) for game_id in ids], total

    def lobby_after(self, status: str, after: tuple[int, str] | None, count: int) -> list[tuple[str, int]]:
        """Up to `count` (game id, creation ms) with this status, newest first, after the match at `after`
        (its creation ms and id; None: from the newest). Matches created in the same millisecond come in
        reverse order of their ids, as ZREVRANGE gives them, so a page boundary among them loses none."""
        key = self._lobby_key(status)
        if after is None:
            # With scores: (member, score) pairs (redis-py's type is that of every form of the reply).
            rows = cast(
                list[tuple[bytes | str, float]],
                self.client.zrevrangebyscore(key, "+inf", "-inf", start=0, num=count, withscores=True),
            )
            return [(_text(member), int(score)) for member, score in rows]
        created, last_id = after
        pipe = self.client.pipeline(transaction=False)
        pipe.zrangebyscore(key, created, created)  # the same millisecond: a few at most
        pipe.zrevrangebyscore(key, f"({created}", "-inf", start=0, num=count, withscores=True)
        same, older = pipe.execute()
        tied = sorted((m for m in map(_text, same) if m < last_id), reverse=True)
        return ([(m, created) for m in tied] + [(_text(m), int(score)) for m, score in older])[:count]

    def feed(self, after: str = "0", count: int = 100) -> list[FeedEntry]:
        """Feed entries with a stream id greater than `after`, oldest first.

        On a Cluster a repaired append may show twice: repeats of a (game, version) within the page are
        dropped here, and a reader that pages on should drop them across pages (events.crossslot.unique).
        """
        if not _STREAM_ID.fullmatch(after):
            raise ValueError(f"invalid feed id: {after!r}")
        entries = self.client.xrange(self._feed_key, min=f"({after}", count=count)
        return unique(_feed_entry(entry_id, fields) for entry_id, fields in entries or ())

    def _decode(self, entries: Sequence[Entry] | None) -> list[StoredEvent]:
        decoded = []
        for entry_id, fields in entries or ():
            named = _fields(fields)
            decoded.append(
                self.codec.decode(_version_of(entry_id), named["e"], hash=named.get("h"), prev_hash=named.get("p"))
            )
        return decoded

    # The hash chain, export and import (events/audit.py verifies what these return).

    def raw_entries(self, game_id: str, after: int = 0, limit: int | None = None) -> list[RawEntry]:
        """Stream entries exactly as stored, oldest first: the payload undecoded, with its hashes."""
        entries = self.client.xrange(self._key(game_id, "events"), min=f"{after + 1}-0", count=limit)
        raw = []
        for entry_id, fields in entries or ():
            named = _fields(fields)
            raw.append(RawEntry(_version_of(entry_id), named.get("e", ""), named.get("p"), named.get("h")))
        return raw

    def iter_raw_entries(self, game_id: str, page: int = 1000) -> Iterable[RawEntry]:
        """Every entry of a game, read in pages (a long game is never one huge reply)."""
        after = 0
        while batch := self.raw_entries(game_id, after=after, limit=page):
            yield from batch
            after = batch[-1].version

    def head(self, game_id: str) -> tuple[int, str] | None:
        """The chain head recorded by the last append: (version, hash), or None."""
        value = self.client.get(self._key(game_id, "head"))
        if value is None:
            return None
        version, _, digest = _text(value).partition(":")
        return int(version), digest

    def import_entries(self, game_id: str, entries: Sequence[RawEntry], meta: Mapping[str, str] | None = None) -> int:
        """Writes an exported game as it was (ids, payloads and hashes), atomically; raises GameExists."""
        check_import(entries)
        meta_args, lobby_target = _meta_args(meta)
        args: list[str | int] = [game_id, lobby_target if self.cross_slot is None else 0, len(entries)]
        for entry in entries:
            args += [entry.version, entry.payload, cast(str, entry.hash)]  # a str: checked above
        keys = [self._key(game_id, "events"), self._key(game_id, "meta"), self._key(game_id, "head")]
        if self.cross_slot is None:
            keys += [self._lobby_key(status) for status in LOBBY_STATUSES]
        reply = self._import(keys=keys, args=[*args, *meta_args])
        if _text(reply[0]) == "exists":
            raise GameExists(game_id, int(reply[1]))
        if self.cross_slot is not None and lobby_target and meta is not None:  # a target comes of meta's status
            self.cross_slot.lobby(game_id, meta["status"], self.meta(game_id).get("created_ms", "0"))
        if lobby_target == FINISHED:
            self._compact_finished(game_id)
        return int(reply[1])


def _block_slice_s(client: redis.Redis | RedisCluster, max_block_s: float) -> float:
    """The longest XREAD BLOCK that ends before the client's socket timeout (a second to spare), and
    within `max_block_s`."""
    kwargs = getattr(getattr(client, "connection_pool", None), "connection_kwargs", None)
    if kwargs is None:  # a Redis Cluster client
        kwargs = getattr(getattr(client, "nodes_manager", None), "connection_kwargs", None) or {}
    timeout: float | None = kwargs.get("socket_timeout", DEFAULT_SOCKET_TIMEOUT_S)
    if timeout is None:
        return max_block_s
    return min(max(timeout - 1.0, timeout / 2), max_block_s)


def _check_idempotency_key(key: str) -> str:
    if not isinstance(key, str) or not _IDEMPOTENCY_KEY.fullmatch(key):
        raise ValueError(f"invalid idempotency key: {key!r}")
    return key


def _fingerprint(events: Sequence[NewEvent]) -> str:
    return hashlib.sha256(orjson.dumps(list(events), option=orjson.OPT_SORT_KEYS)).hexdigest()


def _meta_args(meta: Mapping[str, str] | None) -> tuple[list[str], int]:
    """Flattens meta into field/value pairs and says which lobby set its status moves the game to."""
    if not meta:
        return [], 0
    pairs = []
    for name, value in meta.items():
        if not isinstance(name, str) or not isinstance(value, (str, int)) or isinstance(value, bool):
            raise ValueError(f"meta fields are str -> str (or int): {name!r}: {value!r}")
        pairs += [name, str(value)]
    # The lobby score; the script fails half-way if it is not a number, so check it here.
    if "created_ms" in meta and not _MS.fullmatch(str(meta["created_ms"])):
        raise ValueError(f"created_ms must be epoch milliseconds: {meta['created_ms']!r}")
    status = meta.get("status")
    if status is None:
        return pairs, 0
    if status not in LOBBY_STATUSES:
        raise ValueError(f"unknown lobby status: {status!r}")
    return pairs, LOBBY_STATUSES.index(status) + 1


def _append_result(reply: list[Any]) -> AppendResult:
    outcome = _text(reply[0])
    if outcome == "conflict":
        raise VersionConflict(int(reply[1]))
    if outcome == "mismatch":
        raise IdempotencyMismatch("idempotency key already used for a different request")
    if outcome == "throttled":
        raise Throttled(int(reply[1]) / 1_000_000)
    if outcome == "unchained":
        raise ValueError(
            f"the chain head does not record the stream's newest entry {reply[1]}: "
            f"the stream was not written by this store, or was edited"
        )
    head_hash = _text(reply[3]) if outcome == "ok" else None
    return AppendResult(int(reply[1]), int(reply[2]), replayed=outcome == "replayed", head_hash=head_hash)


# Observers of appends (metrics, logs): called after each append with the game id, the events, and
# the result or the refusal (VersionConflict, IdempotencyMismatch). An observer must not raise; one
# that does is ignored, since the append has happened (or been refused) whatever it does.
AppendObserver = Callable[[str, Sequence[NewEvent], "AppendResult | None", "Exception | None"], None]
_observers: list[AppendObserver] = []


def add_append_observer(observer: AppendObserver) -> None:
    if observer not in _observers:
        _observers.append(observer)


def _notify(game_id: str, events: Sequence[NewEvent], result: AppendResult | None, refused: Exception | None) -> None:
    for observer in list(_observers):
        try:
            observer(game_id, events, result, refused)
        except Exception:  # noqa: BLE001 - an observer never changes an append's outcome
            pass


def _text_dict(fields: Mapping[bytes | str, bytes | str]) -> dict[str, str]:
    return {_text(field): _text(value) for field, value in fields.items()}


def _feed_entry(
    entry_id: bytes | str | None, fields: Mapping[bytes | str, bytes | str] | list[bytes | str] | None
) -> FeedEntry:
    named = _fields(fields)
    return FeedEntry(_entry_id(entry_id), named["g"], int(named["v"]), named["t"])
