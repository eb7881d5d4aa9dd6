"""The hash chain written by the append script, against a real Redis: each entry links to the one
before it, the chain's head is recorded, and edits, deletions and reorderings are found and located."""

from __future__ import annotations

import hashlib

import pytest

from events import scripts
from events.audit import entry_hash, genesis_hash, verify_chain
from events.codec import pack, unpack
from events.store import EventStore, GameExists, RawEntry

AT = "2026-11-30T03:04:05.123Z"
KEY = "talon:{g:g1}:events"


def ev(kind: str = "play", actor: int | None = 0, **data) -> dict:
    return {"type": kind, "actor": actor, "data": data}


@pytest.fixture
def store(r) -> EventStore:
    return EventStore(r)


def chain(store: EventStore, game_id: str = "g1"):
    return verify_chain(game_id, store.raw_entries(game_id), store.head(game_id))


def rewrite(r, entries: list[tuple[int, dict]]) -> None:
    """Replaces the stream by these (version, fields) entries, as someone with Redis access could."""
    r.delete(KEY)
    for version, fields in entries:
        r.xadd(KEY, fields, id=f"{version}-0")


def fields_of(r) -> list[tuple[int, dict]]:
    return [(int(i.decode().split("-")[0]), dict(f)) for i, f in r.xrange(KEY)]


def test_each_entry_links_to_the_one_before_and_hashes_its_own_content(store, r):
    first = store.append("g1", [ev("match_created", None), ev(n=1)], 0, at=AT)
    second = store.append("g1", [ev(n=2)], 2, at=AT)
    raw = store.raw_entries("g1")
    assert [e.version for e in raw] == [1, 2, 3]
    prev = genesis_hash("g1")
    assert prev == hashlib.sha1(b"talon-genesis\ng1").hexdigest()
    for entry in raw:
        assert entry.prev_hash is None  # not stored again: it is the entry before's hash
        expected = hashlib.sha1(f"{prev}\n{entry.version}\n{entry.payload}".encode()).hexdigest()
        assert entry.hash == expected == entry_hash(prev, entry.version, entry.payload)
        prev = entry.hash
    # Stored as the 20 bytes of the digest, next to the packed event, and nothing else.
    assert [set(fields) for _, fields in fields_of(r)] == [{b"e", b"h"}] * 3
    assert [fields[b"h"] for _, fields in fields_of(r)] == [bytes.fromhex(e.hash) for e in raw]
    assert first.head_hash == raw[1].hash and second.head_hash == raw[2].hash
    assert store.head("g1") == (3, raw[2].hash)
    read = store.read("g1")
    assert [e.hash for e in read] == [e.hash for e in raw]
    _, loaded = store.load("g1", "engine")
    assert [e.hash for e in loaded] == [e.hash for e in raw]
    assert store.load_since("g1", "engine", (2, raw[1].hash)).known  # the hash as bytes, compared in Lua
    report = chain(store)
    assert report.ok and report.entries == 3 and report.head_version == 3


def test_entries_written_before_the_chain_was_compacted_still_verify_and_load(store, r):
    """Older entries carry `p` and `h` in hex: they verify, load by known hash, and the chain goes on."""
    prev, version = genesis_hash("g1"), 0
    for n in (1, 2):
        version += 1
        payload = f'{{"s":1,"t":"play","a":0,"d":{{"n":{n}}},"at":"{AT}"}}'
        digest = entry_hash(prev, version, payload)
        r.xadd(KEY, {"e": payload, "p": prev, "h": digest}, id=f"{version}-0")
        prev = digest
    r.set("talon:{g:g1}:head", f"2:{prev}")
    assert [e.prev_hash is not None for e in store.raw_entries("g1")] == [True, True]
    assert chain(store).ok
    assert store.load_since("g1", "engine", (1, store.raw_entries("g1")[0].hash)).known
    store.append("g1", [ev(n=3)], 2, at=AT)
    assert chain(store).ok and [e.data["n"] for e in store.read("g1")] == [1, 2, 3]


def test_a_replayed_append_writes_nothing_and_the_chain_stays_whole(store):
    store.append("g1", [ev()], 0, idempotency_key="k", at=AT)
    again = store.append("g1", [ev()], 0, idempotency_key="k", at=AT)
    assert again.replayed and again.head_hash is None
    assert chain(store).ok


def test_the_same_events_in_another_game_hash_differently(store):
    store.append("g1", [ev()], 0, at=AT)
    store.append("g2", [ev()], 0, at=AT)
    assert store.raw_entries("g1")[0].hash != store.raw_entries("g2")[0].hash


def test_an_edited_field_is_located(store, r):
    store.append("g1", [ev(n=i) for i in range(1, 6)], 0, at=AT)
    entries = fields_of(r)
    entries[2][1][b"e"] = pack(unpack(entries[2][1][b"e"]).replace(b'"n":3', b'"n":4'))
    rewrite(r, entries)
    report = chain(store)
    assert [(f.version, f.check) for f in report.findings] == [(3, "chain")]
    assert "event 3's content does not match its hash" in report.findings[0].detail


def test_a_deleted_event_is_located(store, r):
    store.append("g1", [ev(n=i) for i in range(1, 6)], 0, at=AT)
    r.xdel(KEY, "3-0")
    findings = chain(store).findings
    assert findings[0].version == 3 and "event 3 is missing: event 2 is followed by event 4" in findings[0].detail
    assert findings[1].version == 4 and "does not link to the event before it" in findings[1].detail


def test_deleting_the_newest_events_shows_at_the_head(store, r):
    store.append("g1", [ev(n=i) for i in range(1, 6)], 0, at=AT)
    r.xdel(KEY, "5-0")
    findings = chain(store).findings
    assert [f.version for f in findings] == [5]
    assert "the chain head records event 5, but the log ends at event 4" in findings[0].detail


def test_two_reordered_events_are_located(store, r):
    store.append("g1", [ev(n=i) for i in range(1, 6)], 0, at=AT)
    entries = fields_of(r)
    entries[1] = (2, entries[3][1])
    entries[3] = (4, fields_of(r)[1][1])
    rewrite(r, entries)
    findings = chain(store).findings
    assert (findings[0].version, findings[0].detail) == (
        2,
        "event 2 was written as event 4: it has been moved (events reordered)",
    )
    assert any(f.version == 4 and "event 4 was written as event 2" in f.detail for f in findings)


def test_an_imported_finished_game_is_stored_at_the_size_of_its_entries(store, r):
    store.append("g1", [ev(n=i) for i in range(20)], 0, at=AT, meta={"status": "finished"})
    raw, meta = store.raw_entries("g1"), store.meta("g1")
    store.delete("g1")
    store.import_entries("g1", raw, meta)
    r.copy(KEY, "talon:{g:g1}:copied")  # an exact copy, under a name as long as the stream's
    assert r.memory_usage(KEY, samples=0) == r.memory_usage("talon:{g:g1}:copied", samples=0)
    assert store.raw_entries("g1") == raw and chain(store).ok


def test_an_entry_without_hashes_is_refused_on_append_and_flagged(store, r):
    r.xadd(KEY, {"e": b'{"s":1,"t":"x","a":null,"d":{},"at":"' + AT.encode() + b'"}'}, id="1-0")
    with pytest.raises(ValueError, match="the chain head does not record the stream's newest entry 1"):
        store.append("g1", [ev()], 1)
    assert "carries no hash field" in chain(store).findings[0].detail


def test_import_writes_a_game_as_it_was(store, r):
    store.append("g1", [ev(n=i) for i in range(1, 4)], 0, at=AT, meta={"status": "active", "game": "x"})
    raw = store.raw_entries("g1")
    meta = store.meta("g1")
    store.delete("g1")
    assert store.import_entries("g1", raw, meta) == 3
    assert store.raw_entries("g1") == raw and store.head("g1") == (3, raw[-1].hash)
    assert store.meta("g1") == meta and store.lobby("active", 0, 10) == (["g1"], 1)
    assert chain(store).ok
    store.append("g1", [ev(n=4)], 3, at=AT)  # the imported chain goes on
    assert chain(store).ok
    with pytest.raises(GameExists):
        store.import_entries("g1", raw, meta)
    with pytest.raises(ValueError):
        store.import_entries("g9", [raw[1], raw[0]], meta)
    with pytest.raises(ValueError):
        store.import_entries("g9", [RawEntry(1, "{}", None, None)], None)


@pytest.mark.parametrize(
    "hex_digits",
    [
        hashlib.sha1(b"an entry").hexdigest(),
        "0" * 40,
        "f" * 40,
        "800000007fffffff00000001ffffffff00000080",  # each word's top bit, both ways
        "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709",  # capitals are hex digits too
        "0a1b",  # not a sha1: decoded pair by pair
    ],
)
def test_the_scripts_decode_hex_digits_to_their_bytes(r, hex_digits):
    decoded = r.eval(scripts.HEX_TO_BYTES + "return hex_to_bytes(ARGV[1])", 0, hex_digits)
    assert decoded == bytes.fromhex(hex_digits)
