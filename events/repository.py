"""Load an aggregate by folding its events, and save new events with optimistic concurrency.

Generic: the caller passes the fold (`evolve`), the snapshot codec and the rule for snapshot points, so
this module knows Redis streams only through the EventStore (typed as the `AggregateStore` protocol,
which the in-memory store implements too) and no game at all.

A repository keeps the states it loaded or saved last in a small in-process LRU, each with its version
and the hash of the stream entry at that version. A load sends that (version, hash) along, and the store
answers with only the events after it as long as the entry still has that hash (the hash chain makes it
stand for the whole history): the hot paths fold the new events onto the state they already hold instead
of decoding the snapshot and folding the round so far on every request. Events another reader read (the
API's fan-out hub) are folded on too (`extend`), once the store has checked that they chain onto the
held entry. States are immutable, so one state may serve several threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

from events.codec import StoredEvent
from events.store import AppendResult, Loaded, Throttle

DEFAULT_CACHE_SIZE = 1024


class UnknownAggregate(Exception):
    """No events are stored under this id."""


class AggregateStore(Protocol):
    """What a repository needs from an event store (events.store.EventStore on Redis,
    events.memory.InMemoryEventStore in memory; app/ports.py EventStore extends it)."""

    def load_since(self, game_id: str, engine_version: str, known: tuple[int, str] | None = None) -> Loaded: ...

    def append(
        self,
        game_id: str,
        events: Sequence[Mapping[str, Any]],
        expected_version: int,
        *,
        idempotency_key: str | None = None,
        fingerprint: str | None = None,
        meta: Mapping[str, str] | None = None,
        snapshot: tuple[str, Mapping[str, Any]] | None = None,
        throttle: Throttle | None = None,
    ) -> AppendResult: ...


S = TypeVar("S")  # the aggregate's state
E = TypeVar("E", bound=Mapping[str, Any])  # its events as the fold takes them: {"type", "actor", "data"}


@dataclass(frozen=True)
class Folding(Generic[S, E]):
    """How to rebuild one kind of aggregate from its events."""

    evolve: Callable[[S | None, E], S]  # (state or None, event dict) -> state
    dump: Callable[[S], dict[str, Any]]  # state -> JSON-able dict (snapshots)
    load: Callable[[dict[str, Any]], S]  # dict -> state
    version_of: Callable[[S], int]  # the state's last folded version
    is_snapshot_point: Callable[[E], bool]  # take a snapshot after this event?
    engine_version: str  # snapshots from other code versions are ignored


@dataclass(frozen=True)
class _Known(Generic[S]):
    state: S
    version: int
    hash: str


class _Recent(Generic[S]):
    """A thread-safe LRU of the latest known state per aggregate id."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, _Known[S]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> _Known[S] | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: str, item: _Known[S]) -> None:
        if self.size <= 0:
            return
        with self._lock:
            held = self._items.get(key)
            if held is not None and held.version > item.version:
                return  # a slower thread must not replace a newer state with an older one
            self._items[key] = item
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


class Repository(Generic[S, E]):
    def __init__(self, store: AggregateStore, folding: Folding[S, E], cache_size: int = DEFAULT_CACHE_SIZE) -> None:
        self.store = store
        self.folding = folding
        self._recent: _Recent[S] = _Recent(cache_size)

    def get(self, aggregate_id: str) -> S:
        """The current state: the state held from the last load or save plus the events after it, or else
        the latest valid snapshot plus the events after it."""
        held = self._recent.get(aggregate_id)
        known = (held.version, held.hash) if held is not None else None
        loaded = self.store.load_since(aggregate_id, self.folding.engine_version, known)
        if loaded.known and held is not None:  # the store answers `known` only to a caller that held a state
            state = self.fold(held.state, loaded.events)
        elif loaded.snapshot is not None:
            state = self.fold(self.folding.load(loaded.snapshot.state), loaded.events)
        elif loaded.events:
            state = self.fold(self.folding.evolve(None, self._event(loaded.events[0])), loaded.events[1:])
        else:
            raise UnknownAggregate(aggregate_id)
        if loaded.head is not None and loaded.head[0] == self.folding.version_of(state):
            self._remember(aggregate_id, state, loaded.head[1])
        return state

    def held(self, aggregate_id: str) -> S | None:
        """The state this repository loaded or saved last for the id, without asking the store: it may
        be behind. Only for a caller whose append states the version it decided on (a stale state then
        fails the append's version check and nothing is written)."""
        known = self._recent.get(aggregate_id)
        return known.state if known is not None else None

    def extend(self, aggregate_id: str, events: Sequence[StoredEvent], after_hash: str | None) -> None:
        """Folds events that another reader read (the API's fan-out hub) onto the state held for the id,
        if they follow on from it: `after_hash` is the hash of the entry before the first of them, as the
        store checked it (None: unchecked, and nothing is folded). Later loads and long-polls then start
        from the new state without a round trip."""
        held = self._recent.get(aggregate_id)
        if (
            held is None
            or not events
            or after_hash is None
            or held.hash != after_hash
            or events[0].version != held.version + 1
        ):
            return
        state = self.fold(held.state, events)
        self._remember(aggregate_id, state, events[-1].hash)

    def fold(self, state: S, events: Sequence[StoredEvent]) -> S:
        for event in events:
            state = self.folding.evolve(state, self._event(event))
        return state

    @staticmethod
    def _event(stored: StoredEvent) -> E:
        # The store gives back what was appended, the folding's own events, as JSON: only the folding
        # knows their record type.
        return cast(E, _as_event(stored))

    def save(
        self,
        aggregate_id: str,
        state: S | None,
        new_events: Sequence[E],
        *,
        idempotency_key: str | None = None,
        fingerprint: str | None = None,
        meta: Mapping[str, str] | Callable[[S], Mapping[str, str] | None] | None = None,
        throttle: Throttle | None = None,
        folded: S | None = None,
    ) -> tuple[S, AppendResult]:
        """Append events decided on `state`; returns the state after them. Raises VersionConflict.

        `meta` (fields of the aggregate's meta hash, written in the same append) may be a function of
        the state after the events: the events are folded once, before the append, for both. `folded`
        is that fold when the caller made it already (a move's, to find the steps it leaves owing): it
        must be exactly `state` with `new_events` folded on, and it is stored as such."""
        if not new_events:
            raise ValueError("nothing to append")  # as the store would answer, before folding nothing
        expected = self.folding.version_of(state) if state is not None else 0
        after = self._fold_new(state, new_events) if folded is None else folded
        snapshot_due = any(self.folding.is_snapshot_point(event) for event in new_events)
        fields = meta(after) if callable(meta) else meta
        snapshot = (self.folding.engine_version, self.folding.dump(after)) if snapshot_due else None
        result = self.store.append(
            aggregate_id,
            new_events,
            expected,
            idempotency_key=idempotency_key,
            fingerprint=fingerprint,
            meta=fields,
            snapshot=snapshot,
            throttle=throttle,
        )
        if result.replayed:
            return self.get(aggregate_id), result
        self._remember(aggregate_id, after, result.head_hash)
        return after, result

    def _fold_new(self, state: S | None, events: Sequence[E]) -> S:
        """Events about to be appended folded onto `state` (None: they create the aggregate)."""
        after = self.folding.evolve(state, events[0])
        for event in events[1:]:
            after = self.folding.evolve(after, event)
        return after

    def _remember(self, aggregate_id: str, state: S, head_hash: str | None) -> None:
        if head_hash is not None:
            self._recent.put(aggregate_id, _Known(state, self.folding.version_of(state), head_hash))


def _as_event(stored: StoredEvent) -> dict[str, Any]:
    return {"type": stored.type, "actor": stored.actor, "data": stored.data}
