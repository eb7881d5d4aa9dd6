"""Load an aggregate by folding its events, and save new events with optimistic concurrency.

Generic: the caller passes the fold (`evolve`), the snapshot codec and the rule for snapshot points, so
this module knows Redis streams only through the EventStore and no game at all.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from events.store import AppendResult, EventStore, StoredEvent


class UnknownAggregate(Exception):
    """No events are stored under this id."""


@dataclass(frozen=True)
class Folding:
    """How to rebuild one kind of aggregate from its events."""
    evolve: Callable[[Any, dict], Any]          # (state or None, event dict) -> state
    dump: Callable[[Any], dict]                 # state -> JSON-able dict (snapshots)
    load: Callable[[dict], Any]                 # dict -> state
    version_of: Callable[[Any], int]            # the state's last folded version
    is_snapshot_point: Callable[[dict], bool]   # take a snapshot after this event?
    engine_version: str                         # snapshots from other code versions are ignored


class Repository:
    def __init__(self, store: EventStore, folding: Folding):
        self.store = store
        self.folding = folding

    def get(self, aggregate_id: str) -> Any:
        """The current state: the latest valid snapshot plus the events after it."""
        snapshot, events = self.store.load(aggregate_id, self.folding.engine_version)
        if snapshot is None and not events:
            raise UnknownAggregate(aggregate_id)
        state = self.folding.load(snapshot.state) if snapshot is not None else None
        return self.fold(state, events)

    def fold(self, state: Any, events: Sequence[StoredEvent]) -> Any:
        for event in events:
            state = self.folding.evolve(state, _as_event(event))
        return state

    def save(self, aggregate_id: str, state: Any, new_events: list[dict], *,
             idempotency_key: str | None = None, fingerprint: str | None = None,
             meta: Mapping[str, str] | None = None) -> tuple[Any, AppendResult]:
        """Append events decided on `state`; returns the state after them. Raises VersionConflict."""
        expected = self.folding.version_of(state) if state is not None else 0
        result = self.store.append(aggregate_id, new_events, expected, idempotency_key=idempotency_key,
                                   fingerprint=fingerprint, meta=meta)
        if result.replayed:
            return self.get(aggregate_id), result
        snapshot_due = False
        for event in new_events:
            state = self.folding.evolve(state, event)
            snapshot_due = snapshot_due or self.folding.is_snapshot_point(event)
        if snapshot_due:
            self.store.save_snapshot(aggregate_id, result.last_version, self.folding.engine_version,
                                     self.folding.dump(state))
        return state, result


def _as_event(stored: StoredEvent) -> dict:
    return {"type": stored.type, "actor": stored.actor, "data": stored.data}
