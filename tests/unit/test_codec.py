"""The event codec alone: encoding, packing, time normalisation and the upcaster chain."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import orjson
import pytest

from events import codec as codec_module
from events.codec import Codec, StoredEvent, format_at, normalize_at, now_at, pack, unpack, utc_now_iso

AT = "2026-11-30T03:04:05.123Z"


def test_encoded_event_carries_its_schema():
    encoded = Codec().encode({"type": "play", "actor": 1, "data": {"card": "TS"}}, AT)
    assert orjson.loads(unpack(encoded)) == {"s": 1, "t": "play", "a": 1, "d": {"card": "TS"}, "at": AT}
    plain = Codec(dictionary=None).encode({"type": "play", "actor": 1, "data": {"card": "TS"}}, AT)
    assert plain == unpack(encoded)


def test_events_are_packed_against_the_dictionary_and_come_back_byte_for_byte():
    plain = orjson.dumps({"s": 1, "t": "played", "a": 1, "d": {"seat": 1, "card": "JD"}, "at": AT})
    packed = Codec().encode({"type": "played", "actor": 1, "data": {"seat": 1, "card": "JD"}}, AT)
    assert packed.startswith(b"~1") and len(packed) < len(plain) / 2
    assert unpack(packed) == plain and unpack(packed.decode()) == plain
    assert packed.decode().isascii()  # a text field: exports and the hash chain take it as it is


def test_what_packing_would_not_shorten_is_stored_plain_and_plain_json_is_read_as_it_is():
    odd = orjson.dumps({"s": 1, "t": "x", "a": None, "d": {"k": "\u00e9" * 3}, "at": AT})
    assert unpack(odd) == odd  # stored before packing existed, or by Codec(dictionary=None)
    assert pack(b"{}") == b"{}"


def test_the_dictionary_is_frozen():
    """Stored events name dictionary 1: changing its bytes would make them unreadable. A new
    dictionary gets a new number (scripts/build_zdict.py)."""
    zdict = Path(codec_module.__file__).with_name("zdict") / "1.bin"
    assert (
        hashlib.sha256(zdict.read_bytes()).hexdigest()
        == "cc05182342797e3806446061d21bb8deb2837d44696a6b3c876766540710c66f"
    )


def test_round_trip():
    codec = Codec()
    encoded = codec.encode({"type": "deal", "actor": None, "data": {"hands": [["AS"]]}}, AT)
    assert codec.decode(7, encoded) == StoredEvent(7, "deal", None, {"hands": [["AS"]]}, AT)
    assert codec.decode(7, encoded.decode()) == codec.decode(7, encoded)


def test_missing_actor_and_data_default_to_none_and_empty():
    codec = Codec()
    assert codec.decode(1, codec.encode({"type": "x"}, AT)) == StoredEvent(1, "x", None, {}, AT)


def test_upcasters_chain_from_the_stored_schema_to_the_newest():
    old = Codec().encode({"type": "bid", "actor": 0, "data": {"v": 30}}, AT)
    codec = Codec()
    codec.register_upcaster("bid", 1, lambda e: {**e, "data": {"value": e["data"]["v"]}})
    codec.register_upcaster("bid", 2, lambda e: {**e, "data": {**e["data"], "suit": None}})
    assert codec.schema("bid") == 3 and codec.schema("play") == 1
    assert codec.decode(1, old).data == {"value": 30, "suit": None}
    middle = orjson.dumps({"s": 2, "t": "bid", "a": 0, "d": {"value": 28}, "at": AT})
    assert codec.decode(2, middle).data == {"value": 28, "suit": None}
    new = codec.encode({"type": "bid", "actor": 0, "data": {"value": 32, "suit": "H"}}, AT)
    assert orjson.loads(unpack(new))["s"] == 3
    assert codec.decode(3, new).data == {"value": 32, "suit": "H"}


def test_upcaster_may_rename_the_type():
    old = Codec().encode({"type": "meld20", "actor": 1, "data": {}}, AT)
    codec = Codec()
    codec.register_upcaster("meld20", 1, lambda e: {**e, "type": "meld", "data": {"points": 20}})
    event = codec.decode(4, old)
    assert (event.type, event.data) == ("meld", {"points": 20})


def test_without_upcasters_events_are_read_as_written():
    future = orjson.dumps({"s": 9, "t": "play", "a": 0, "d": {"card": "AS"}, "at": AT})
    assert Codec().decode(1, future).data == {"card": "AS"}


@pytest.mark.parametrize(
    "event",
    [
        "play",
        {"actor": 0},
        {"type": ""},
        {"type": 3},
        {"type": "x", "actor": True},
        {"type": "x", "actor": [0]},
        {"type": "x", "data": "card"},
    ],
)
def test_malformed_events_are_rejected(event):
    with pytest.raises(ValueError):
        Codec().encode(event, AT)


def test_times_are_normalised_to_utc_milliseconds():
    assert normalize_at(AT) == (AT, 1796007845123)
    assert normalize_at("2026-11-30T05:04:05.123456+02:00") == (AT, 1796007845123)
    assert normalize_at("2026-11-30T03:04:05") == ("2026-11-30T03:04:05.000Z", 1796007845000)
    with pytest.raises(ValueError):
        normalize_at("yesterday")


def test_now_is_utc_with_milliseconds():
    now = utc_now_iso()
    assert normalize_at(now)[0] == now and now.endswith("Z") and len(now) == 24


def test_now_reads_as_normalize_at_reads_its_text(monkeypatch):
    for ns in (1796007845123456789, 1796007845999999999, 1796007845000000000, 1796007845124000000):
        monkeypatch.setattr(time, "time_ns", lambda ns=ns: ns)
        iso, ms = now_at()
        assert normalize_at(iso) == (iso, ms) and ms == ns // 1_000_000


def test_a_time_is_formatted_from_its_own_second_whatever_was_formatted_before():
    """format_at keeps the last second's text (appends and log lines ask it many times a second)."""
    assert format_at(1796007845, 7) == "2026-11-30T03:04:05.007Z"
    assert format_at(1796007846, 999) == "2026-11-30T03:04:06.999Z"
    assert format_at(1796007845, 120) == "2026-11-30T03:04:05.120Z"
