"""The Redis event store: the only code that knows the stream layout (docs/ARCHITECTURE.md §3).

Keys of one game share the hash tag `{g:<id>}`:

    {prefix}:{g:<id>}:events      stream, entry id `<version>-0`, field `e` = the encoded event
    {prefix}:{g:<id>}:meta        hash: lobby summary fields, `created` (ISO) and `created_ms`
    {prefix}:{g:<id>}:snap        hash: `version`, `engine`, `state` (JSON)
    {prefix}:{g:<id>}:idem:<key>  string `<first>:<last>:<fingerprint>`, expires after 24 h
    {prefix}:feed                 stream: `g`, `v`, `t` per event, trimmed to about 1,000,000
    {prefix}:lobby:<status>       sorted set of game ids scored by creation time in ms

The feed and lobby keys live outside the game's slot: on Redis Cluster the append would have to
update them separately (CROSSSLOT); on one primary the whole append is one atomic script.
The store works with clients made with or without `decode_responses`.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import orjson
import redis

from events import scripts
from events.codec import Codec, StoredEvent, normalize_at, utc_now_iso

LOBBY_STATUSES = ("waiting", "active", "finished")
IDEMPOTENCY_TTL_S = 24 * 3600
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_PREFIX = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
# Printable ASCII without space, as an HTTP `Idempotency-Key` carries it.
_IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,255}")
_MS = re.compile(r"[0-9]{1,16}")
_STREAM_ID = re.compile(r"\d{1,20}(-\d{1,20})?")


@dataclass(frozen=True)
class AppendResult:
    first_version: int
    last_version: int
    replayed: bool


@dataclass(frozen=True)
class Snapshot:
    version: int
    engine_version: str
    state: dict


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


class IdempotencyMismatch(Exception):
    """The idempotency key was already used for a different request (another fingerprint)."""


def check_game_id(game_id: str) -> str:
    """Game ids go into key names: only a safe alphabet, so no id can reach another key."""
    if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
        raise ValueError(f"invalid game id: {game_id!r}")
    return game_id


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _version_of(entry_id: bytes | str) -> int:
    return int(_text(entry_id).partition("-")[0])


def _payload(fields: Mapping | list) -> bytes | str:
    # XRANGE through redis-py gives {field: value}; XRANGE inside Lua gives [field, value].
    return fields[1] if isinstance(fields, list) else next(iter(fields.values()))


class EventStore:
    def __init__(self, client: redis.Redis, prefix: str = "talon", codec: Codec | None = None):
        if not _PREFIX.fullmatch(prefix):
            raise ValueError(f"invalid key prefix: {prefix!r}")
        self.client = client
        self.prefix = prefix
        self.codec = codec or Codec()
        self._append = client.register_script(scripts.APPEND)
        self._load = client.register_script(scripts.LOAD)
        self._save_snapshot = client.register_script(scripts.SAVE_SNAPSHOT)

    # Key names: the only place they are built.

    def _key(self, game_id: str, part: str) -> str:
        return f"{self.prefix}:{{g:{check_game_id(game_id)}}}:{part}"

    def _lobby_key(self, status: str) -> str:
        if status not in LOBBY_STATUSES:
            raise ValueError(f"unknown lobby status: {status!r}")
        return f"{self.prefix}:lobby:{status}"

    @property
    def _feed_key(self) -> str:
        return f"{self.prefix}:feed"

    # Writing.

    def append(self, game_id: str, events: Sequence[dict], expected_version: int, *,
               idempotency_key: str | None = None, fingerprint: str | None = None,
               meta: Mapping[str, str] | None = None, at: str | None = None) -> AppendResult:
        """Appends `events` as versions expected_version+1.. or raises VersionConflict.

        With an idempotency key, a repeat of the same request (same fingerprint; by default a hash of
        the events) returns the first result with replayed=True and writes nothing.
        """
        if not events:
            raise ValueError("nothing to append")
        if isinstance(expected_version, bool) or not isinstance(expected_version, int) \
                or expected_version < 0:
            raise ValueError(f"expected version must be an int >= 0: {expected_version!r}")
        at, at_ms = normalize_at(at or utc_now_iso())
        encoded = [self.codec.encode(event, at) for event in events]  # validates each event
        keys = [self._key(game_id, "events"), self._key(game_id, "meta"), self._feed_key,
                *(self._lobby_key(status) for status in LOBBY_STATUSES)]
        if idempotency_key is not None:
            keys.append(self._key(game_id, "idem:" + _check_idempotency_key(idempotency_key)))
            fingerprint = fingerprint if fingerprint is not None else _fingerprint(events)
        meta_args, lobby_target = _meta_args(meta)
        args = [expected_version, game_id, at, at_ms, fingerprint or "", IDEMPOTENCY_TTL_S,
                lobby_target, len(events)]
        for event, payload in zip(events, encoded):
            args += [event["type"], payload]
        reply = self._append(keys=keys, args=args + meta_args)
        return _append_result(reply)

    def save_snapshot(self, game_id: str, version: int, engine_version: str, state: dict) -> None:
        """Keeps the snapshot unless a newer one is there already (then this one is dropped)."""
        reply = self._save_snapshot(keys=[self._key(game_id, "snap"), self._key(game_id, "events")],
                                    args=[version, engine_version, orjson.dumps(state)])
        if _text(reply[0]) == "beyond":
            raise ValueError(f"snapshot version {version} is beyond the game's version {reply[1]}")

    def delete(self, game_id: str) -> None:
        """Removes every key of one game and its lobby entries (tests, retention).

        Its entries in the global feed stay: the feed is an append-only operators' log.
        """
        keys = [self._key(game_id, part) for part in ("events", "meta", "snap")]
        # Game ids and prefixes have no glob characters, so the pattern matches this game only.
        keys += self.client.scan_iter(match=self._key(game_id, "idem:*"), count=1000)
        pipe = self.client.pipeline(transaction=True)
        pipe.delete(*keys)
        for status in LOBBY_STATUSES:
            pipe.zrem(self._lobby_key(status), game_id)
        pipe.execute()

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

    def wait(self, game_id: str, after: int, timeout_s: float) -> list[StoredEvent]:
        """Events with version > after as soon as there are any; [] after `timeout_s`.

        A plain XREAD BLOCK: redis-py takes a pool connection for it and returns it after, so waits
        share no state. The client's socket_timeout (if any) must be longer than `timeout_s`.
        """
        key = self._key(game_id, "events")
        # BLOCK 0 would wait for ever: a timeout of zero means "do not block".
        block_ms = max(1, int(timeout_s * 1000)) if timeout_s > 0 else None
        reply = self.client.xread({key: f"{after}-0"}, block=block_ms)
        if not reply:
            return []
        # RESP2 gives [[stream, entries]], RESP3 gives {stream: [entries]}.
        entries = next(iter(reply.values()))[0] if isinstance(reply, dict) else reply[0][1]
        return self._decode(entries)

    def load(self, game_id: str, engine_version: str) -> tuple[Snapshot | None, list[StoredEvent]]:
        """The latest snapshot taken under `engine_version` (or None) and every event after it."""
        after, state, entries = self._load(
            keys=[self._key(game_id, "snap"), self._key(game_id, "events")], args=[engine_version])
        snapshot = Snapshot(after, engine_version, orjson.loads(state)) if state is not None else None
        return snapshot, self._decode(entries)

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

    def feed(self, after: str = "0", count: int = 100) -> list[FeedEntry]:
        """Feed entries with a stream id greater than `after`, oldest first."""
        if not _STREAM_ID.fullmatch(after):
            raise ValueError(f"invalid feed id: {after!r}")
        entries = self.client.xrange(self._feed_key, min=f"({after}", count=count)
        return [_feed_entry(entry_id, fields) for entry_id, fields in entries]

    def _decode(self, entries: list) -> list[StoredEvent]:
        return [self.codec.decode(_version_of(entry_id), _payload(fields))
                for entry_id, fields in entries]


def _check_idempotency_key(key: str) -> str:
    if not isinstance(key, str) or not _IDEMPOTENCY_KEY.fullmatch(key):
        raise ValueError(f"invalid idempotency key: {key!r}")
    return key


def _fingerprint(events: Sequence[dict]) -> str:
    return hashlib.sha256(orjson.dumps(list(events), option=orjson.OPT_SORT_KEYS)).hexdigest()


def _meta_args(meta: Mapping[str, str] | None) -> tuple[list[str], int]:
    """Flattens meta into field/value pairs and says which lobby set its status moves the game to."""
    if not meta:
        return [], 0
    pairs = []
    for field, value in meta.items():
        if not isinstance(field, str) or not isinstance(value, (str, int)) or isinstance(value, bool):
            raise ValueError(f"meta fields are str -> str (or int): {field!r}: {value!r}")
        pairs += [field, str(value)]
    # The lobby score; the script fails half-way if it is not a number, so check it here.
    if "created_ms" in meta and not _MS.fullmatch(str(meta["created_ms"])):
        raise ValueError(f"created_ms must be epoch milliseconds: {meta['created_ms']!r}")
    status = meta.get("status")
    if status is None:
        return pairs, 0
    if status not in LOBBY_STATUSES:
        raise ValueError(f"unknown lobby status: {status!r}")
    return pairs, LOBBY_STATUSES.index(status) + 1


def _append_result(reply: list) -> AppendResult:
    outcome = _text(reply[0])
    if outcome == "conflict":
        raise VersionConflict(int(reply[1]))
    if outcome == "mismatch":
        raise IdempotencyMismatch("idempotency key already used for a different request")
    return AppendResult(int(reply[1]), int(reply[2]), replayed=outcome == "replayed")


def _text_dict(fields: Mapping) -> dict[str, str]:
    return {_text(field): _text(value) for field, value in fields.items()}


def _feed_entry(entry_id: bytes | str, fields: Mapping) -> FeedEntry:
    fields = _text_dict(fields)
    return FeedEntry(_text(entry_id), fields["g"], int(fields["v"]), fields["t"])
