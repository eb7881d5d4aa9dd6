"""The hash chain of one game's log: how it is computed, and the check that finds where it breaks.

APPEND (events/scripts.py) writes every stream entry with two fields:

    e   the encoded event (events/codec.py), exactly the bytes that are hashed
    h   sha1(prev + "\\n" + version + "\\n" + e), stored as 20 bytes and read as hex, where prev is the
        hash of the entry before it; before version 1, the genesis hash of the game

and keeps `<version>:<hash>` of the newest entry in the game's `head` key. (Entries written before the
chain was compacted also carry `p`, the previous hash, which is then checked as the link.) Editing any
field of one entry breaks its own hash; deleting or reordering entries breaks the hash of the entry after
the change and the contiguous versions; deleting the newest entries breaks the head. SHA-1 because it is
what Redis scripting computes natively, which keeps the chain inside the one atomic append script: the
chain makes accidental and naive edits evident. Someone who can write to Redis can also recompute a
whole chain, so the audit does not rest on the chain alone: the deal commitments (SHA-256, published
before play) and the replay through the rules engines (app/audit.py) catch a rewritten history.

Pure: works on RawEntry lists, so an export (JSON Lines) is checked exactly like a live stream.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypedDict

from events.chain import entry_hash, genesis_hash
from events.store import RawEntry

__all__ = ["ChainReport", "Finding", "FindingDict", "entry_hash", "genesis_hash", "verify_chain"]


class FindingDict(TypedDict):
    version: int | None
    check: str
    detail: str


@dataclass(frozen=True)
class Finding:
    """One thing wrong with a game's log, at an event version (None: the log as a whole)."""

    version: int | None
    check: str  # "chain" | "commitment" | "replay" | "conservation"
    detail: str

    def to_dict(self) -> FindingDict:
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


def verify_chain(
    game_id: str, entries: Iterable[RawEntry], head: tuple[int, str] | None, max_findings: int = 50
) -> ChainReport:
    """Checks every entry's hash and link, the contiguous versions, and the recorded head."""
    report = ChainReport()
    entries = list(entries)
    at_version = {entry.version: entry for entry in entries}
    expected_prev, expected_version = genesis_hash(game_id), 1

    def found(version: int | None, detail: str) -> None:
        if len(report.findings) < max_findings:
            report.findings.append(Finding(version, "chain", detail))

    for entry in entries:
        report.entries += 1
        v = entry.version
        gap = v != expected_version
        if gap:
            missing = (
                f"event {expected_version} is missing"
                if v == expected_version + 1
                else f"events {expected_version} to {v - 1} are missing"
            )
            found(expected_version, f"{missing}: event {expected_version - 1} is followed by event {v}")
        if not entry.hash:
            found(v, f"event {v} carries no hash field (h): it was not written by the event store")
        else:
            linked_to = entry.prev_hash if entry.prev_hash is not None else expected_prev
            if entry.prev_hash is not None and entry.prev_hash != expected_prev:
                found(v, _unlinked(v, entry.prev_hash, expected_prev))
            if entry_hash(linked_to, v, entry.payload) != entry.hash:
                moved = _moved_from(entry, at_version, game_id)
                if moved is not None:
                    found(v, f"event {v} was written as event {moved}: it has been moved (events reordered)")
                elif gap and entry.prev_hash is None:
                    found(v, _unlinked(v, None, expected_prev))
                else:
                    found(
                        v,
                        f"event {v}'s content does not match its hash: the stored event was edited "
                        f"after it was written",
                    )
        expected_prev = entry.hash or ""
        expected_version = v + 1
        report.head_version, report.head_hash = v, entry.hash
    if head is None:
        if report.entries:
            found(None, "no chain head is recorded for this game (its head key was deleted)")
    elif (head[0], head[1]) != (report.head_version, report.head_hash):
        if head[0] > report.head_version:
            found(
                report.head_version + 1,
                f"the chain head records event {head[0]}, but the log ends at event "
                f"{report.head_version}: the newest events were deleted",
            )
        else:
            found(
                head[0],
                f"the chain head records event {head[0]} with hash {head[1][:12]}..., "
                f"but the log's event {report.head_version} hashes to "
                f"{(report.head_hash or '')[:12]}...",
            )
    return report


def _unlinked(v: int, stored_prev: str | None, expected_prev: str) -> str:
    recorded = f"its previous-hash is {stored_prev[:12]}..., but " if stored_prev else ""
    return (
        f"event {v} does not link to the event before it: {recorded}event {v - 1} hashes to "
        f"{expected_prev[:12]}... (an event before it was deleted, inserted, moved or rewritten)"
    )


def _moved_from(entry: RawEntry, at_version: dict[int, RawEntry], game_id: str) -> int | None:
    """The version an entry was first written as, if it hashes there, within 500 versions: linked to its
    own recorded previous hash, or else to the entry now just before that version or now at it (when
    two neighbours swapped places, the one that linked to this entry's first place holds it now)."""
    v = entry.version
    for other in range(max(1, v - 500), v + 500):
        if other == v:
            continue
        if entry.prev_hash:
            links = [entry.prev_hash]
        else:
            near = (at_version.get(other - 1), at_version.get(other))
            links = [genesis_hash(game_id)] if other == 1 else [e.hash for e in near if e is not None and e.hash]
        if any(entry_hash(prev, other, entry.payload) == entry.hash for prev in links):
            return other
    return None
