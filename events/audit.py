"""The hash chain of one game's log: how it is computed, and the check that finds where it breaks.

APPEND (events/scripts.py) writes every stream entry with three fields:

    e   the encoded event (events/codec.py), exactly the bytes that are hashed
    p   the hash of the entry before it; before version 1, the genesis hash of the game
    h   sha1(p + "\\n" + version + "\\n" + e), in lower-case hex

and keeps `<version>:<hash>` of the newest entry in the game's `head` key. Editing any field of one
entry breaks its own hash; deleting or reordering entries breaks the link (`p`) of the entry after the
change and the contiguous versions; deleting the newest entries breaks the head. SHA-1 because it is
what Redis scripting computes natively, which keeps the chain inside the one atomic append script: the
chain makes accidental and naive edits evident. Someone who can write to Redis can also recompute a
whole chain, so the audit does not rest on the chain alone: the deal commitments (SHA-256, published
before play) and the replay through the rules engines (service/audit.py) catch a rewritten history.

Pure: works on RawEntry lists, so an export (JSON Lines) is checked exactly like a live stream.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from events.store import RawEntry


@dataclass(frozen=True)
class Finding:
    """One thing wrong with a game's log, at an event version (None: the log as a whole)."""
    version: int | None
    check: str      # "chain" | "commitment" | "replay" | "conservation"
    detail: str

    def to_dict(self) -> dict:
        return {"version": self.version, "check": self.check, "detail": self.detail}


@dataclass
class ChainReport:
    entries: int = 0
    head_version: int = 0
    head_hash: str | None = None
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings


def genesis_hash(game_id: str) -> str:
    return hashlib.sha1(f"talon-genesis\n{game_id}".encode()).hexdigest()


def entry_hash(prev_hash: str, version: int, payload: str) -> str:
    return hashlib.sha1(f"{prev_hash}\n{version}\n{payload}".encode()).hexdigest()


def verify_chain(game_id: str, entries: Iterable[RawEntry], head: tuple[int, str] | None,
                 max_findings: int = 50) -> ChainReport:
    """Checks every entry's hash and link, the contiguous versions, and the recorded head."""
    report = ChainReport()
    expected_prev, expected_version = genesis_hash(game_id), 1
    seen: list[RawEntry] = []

    def found(version: int | None, detail: str) -> None:
        if len(report.findings) < max_findings:
            report.findings.append(Finding(version, "chain", detail))

    for entry in entries:
        report.entries += 1
        v = entry.version
        if v != expected_version:
            missing = (f"event {expected_version} is missing" if v == expected_version + 1
                       else f"events {expected_version} to {v - 1} are missing")
            found(expected_version, f"{missing}: event {expected_version - 1} is followed by event {v}")
        if not entry.hash or not entry.prev_hash:
            found(v, f"event {v} carries no hash fields (p, h): it was not written by the event store")
        else:
            if entry.prev_hash != expected_prev:
                found(v, f"event {v} does not link to the event before it: its previous-hash is "
                         f"{entry.prev_hash[:12]}..., but event {v - 1} hashes to {expected_prev[:12]}... "
                         f"(an event before it was deleted, inserted, moved or rewritten)")
            actual = entry_hash(entry.prev_hash, v, entry.payload)
            if actual != entry.hash:
                found(v, _content_break(entry, seen))
        expected_prev = entry.hash or ""
        expected_version = v + 1
        seen.append(entry)
        report.head_version, report.head_hash = v, entry.hash
    if head is None:
        if report.entries:
            found(None, "no chain head is recorded for this game (its head key was deleted)")
    elif (head[0], head[1]) != (report.head_version, report.head_hash):
        if head[0] > report.head_version:
            found(report.head_version + 1,
                  f"the chain head records event {head[0]}, but the log ends at event "
                  f"{report.head_version}: the newest events were deleted")
        else:
            found(head[0], f"the chain head records event {head[0]} with hash {head[1][:12]}..., "
                           f"but the log's event {report.head_version} hashes to "
                           f"{(report.head_hash or '')[:12]}...")
    return report


def _content_break(entry: RawEntry, seen: list[RawEntry]) -> str:
    """What an entry whose own hash fails most likely suffered: moved from another version, or edited."""
    v = entry.version
    for other in range(max(1, v - 500), v + 500):
        if other != v and entry_hash(entry.prev_hash or "", other, entry.payload) == entry.hash:
            return f"event {v} was written as event {other}: it has been moved (events reordered)"
    return (f"event {v}'s content does not match its hash: the stored event was edited after it was "
            f"written")
