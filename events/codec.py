"""How one event is written into a stream entry and read back.

A stored event is one orjson object:

    {"s": 1, "t": "play", "a": 2, "d": {"card": "TS"}, "at": "2026-11-30T03:04:05.123Z"}

`s` is the schema number of that event type when the event was written. The version is not in the
payload: it is the stream entry id (`<version>-0`), so it cannot disagree with the log's order.

Packing. The stream entry's field `e` holds that JSON packed: `~1` (dictionary 1, one base-36 digit) + base64 of its raw deflate with the
preset dictionary number 1 (events/zdict/1.bin, typical events of every game; scripts/build_zdict.py).
Alone, a 90-byte event hardly compresses; against the dictionary it shrinks to about a fifth, and the
stream of a finished match to a third of its plain size. Packing costs ~10 µs an event, unpacking ~2.
An event that would not get shorter is stored as plain JSON, which any reader tells apart by its `{`.
Dictionaries are frozen: a stored event names its dictionary, so a new one gets a new number.

Upcasting. Events are never rewritten, so when the shape of an event type changes, register an
upcaster that lifts an old event one schema step: `codec.register_upcaster("bid", 1, fn)` where `fn`
takes `{"type", "actor", "data"}` as written under schema 1 and returns it as schema 2 expects. On read,
upcasters are chained from the stored schema to the newest one; a (type, schema) with no upcaster is
read as it is (the identity default). New events are written with the newest schema of their type
(1 + the highest registered step), so the code that produces an event must produce the newest shape.
"""

from __future__ import annotations

import base64
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import orjson

# An event as written under some schema, {"type", "actor", "data"}, to the same one schema step later.
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class StoredEvent:
    version: int
    type: str
    actor: int | str | None
    data: dict[str, Any]
    at: str
    # The hash chain (events/audit.py): this entry's hash and the one before it, as stored. Not part
    # of equality: two reads of one event are equal whether or not the reader asked for hashes.
    hash: str | None = field(default=None, compare=False)
    prev_hash: str | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"version": self.version, "type": self.type, "at": self.at, "actor": self.actor, "data": self.data}


def utc_now_iso() -> str:
    """Now as ISO-8601 UTC with milliseconds: `2026-11-30T03:04:05.123Z`."""
    return now_at()[0]


def now_at() -> tuple[str, int]:
    """Now as `normalize_at` gives a time (ISO-8601 UTC with milliseconds, and epoch milliseconds), from
    one reading of the clock without formatting and parsing it again: every append asks."""
    ms = time.time_ns() // 1_000_000
    return format_at(ms // 1000, ms % 1000), ms


def format_at(second: int, millis: int) -> str:
    """An epoch second and its milliseconds as ISO-8601 UTC: `2026-11-30T03:04:05.123Z`. The date and
    time of day are formatted once a second: every append and every log line ask."""
    global _formatted_second
    formatted, prefix = _formatted_second
    if formatted != second:
        prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _formatted_second = second, prefix
    return f"{prefix}.{millis:03d}Z"


_formatted_second: tuple[int, str] = (-1, "")


def normalize_at(at: str) -> tuple[str, int]:
    """An ISO-8601 time as stored (UTC, milliseconds, `Z`) and as epoch milliseconds.

    A time without zone is taken as UTC. Raises ValueError for anything else.
    """
    moment = datetime.fromisoformat(at)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    iso = moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return iso, int(moment.timestamp() * 1000)


def check_event(event: Mapping[str, Any]) -> None:
    """Rejects what `decide` never produces, before anything reaches Redis."""
    if not isinstance(event, Mapping):
        raise ValueError(f"an event is a dict: {event!r}")
    if not isinstance(event.get("type"), str) or not event["type"]:
        raise ValueError(f"event type must be a non-empty string: {event!r}")
    actor = event.get("actor")
    if actor is not None and (isinstance(actor, bool) or not isinstance(actor, (int, str))):
        raise ValueError(f"event actor must be an int, a str or None: {actor!r}")
    if not isinstance(event.get("data", {}), dict):
        raise ValueError(f"event data must be a dict: {event!r}")


PACKED = "~"
_WBITS = -13  # raw deflate, an 8 KiB window: the dictionary and the event fit in it
_ZDICT_DIR = Path(__file__).with_name("zdict")
NEWEST_DICTIONARY = 1
_ID_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"  # a dictionary's number is one base-36 digit


# zlib's compressor and decompressor types have no name at run time: these are typeshed's, for mypy only.
@cache
def _primed(dictionary: int) -> tuple[zlib._Compress, zlib._Decompress]:
    """A compressor and a decompressor that have read the dictionary; each use works on a copy,
    which is far cheaper than reading the dictionary again."""
    zdict = (_ZDICT_DIR / f"{dictionary}.bin").read_bytes()
    return (
        zlib.compressobj(9, zlib.DEFLATED, _WBITS, 4, zlib.Z_DEFAULT_STRATEGY, zdict),
        zlib.decompressobj(_WBITS, zdict),
    )


def pack(plain: bytes, dictionary: int = NEWEST_DICTIONARY) -> bytes:
    """The stored form of an event's JSON: packed, unless that is not shorter."""
    compressor = _primed(dictionary)[0].copy()
    packed = f"{PACKED}{_ID_DIGITS[dictionary]}".encode() + base64.b64encode(
        compressor.compress(plain) + compressor.flush()
    )
    return packed if len(packed) < len(plain) else plain


def unpack(stored: bytes | str) -> bytes:
    """An event's JSON from its stored form (packed or plain)."""
    if isinstance(stored, str):
        stored = stored.encode()
    if not stored.startswith(PACKED.encode()):
        return stored
    decompressor = _primed(int(stored[1:2], 36))[1].copy()
    return decompressor.decompress(base64.b64decode(stored[2:])) + decompressor.flush()


class Codec:
    """Encodes events for the stream and decodes them, upcasting old schemas on the way."""

    def __init__(self, dictionary: int | None = NEWEST_DICTIONARY) -> None:
        """`dictionary`: the packing dictionary new events are written with (None: plain JSON)."""
        self._upcasters: dict[tuple[str, int], Upcaster] = {}
        self._newest: dict[str, int] = {}
        self.dictionary = dictionary

    def register_upcaster(self, event_type: str, schema: int, upcast: Upcaster) -> None:
        """`upcast` lifts an event of `event_type` from `schema` to `schema + 1`."""
        self._upcasters[(event_type, schema)] = upcast
        self._newest[event_type] = max(self._newest.get(event_type, 1), schema + 1)

    def schema(self, event_type: str) -> int:
        return self._newest.get(event_type, 1)

    def encode(self, event: Mapping[str, Any], at: str) -> bytes:
        check_event(event)
        plain = orjson.dumps(
            {
                "s": self.schema(event["type"]),
                "t": event["type"],
                "a": event.get("actor"),
                "d": event.get("data", {}),
                "at": at,
            }
        )
        return plain if self.dictionary is None else pack(plain, self.dictionary)

    def decode(
        self, version: int, payload: bytes | str, hash: str | None = None, prev_hash: str | None = None
    ) -> StoredEvent:
        raw = orjson.loads(unpack(payload))
        event = self._upcast({"type": raw["t"], "actor": raw["a"], "data": raw["d"]}, raw["s"])
        return StoredEvent(
            version, event["type"], event["actor"], event["data"], raw["at"], hash=hash, prev_hash=prev_hash
        )

    def _upcast(self, event: dict[str, Any], schema: int) -> dict[str, Any]:
        # Steps are keyed by the type as written, so an upcaster may also rename the type.
        event_type = event["type"]
        while (step := self._upcasters.get((event_type, schema))) is not None:
            event = step(event)
            schema += 1
        return event
