"""The fan-out hub: one Redis read per process feeds every local stream and long-poll, of every match.

A client that waits for a match's next events subscribes here instead of reading Redis itself, in one
of two ways: a `Subscription` is pulled by a waiting greenlet or thread (`next_batch`), a `Watch` is
pushed to (its callback runs as events arrive; parked streams and long-polls use it,
service/parking.py). The hub keeps, per match with local waiters, the newest version it has read, that
entry's hash, and the last RECENT_EVENTS events; a subscriber further behind reads the rest from the store.

**Reading.** On one Redis, a reader reads up to MATCHES_PER_READER (16) matches with waiters in a single
`XREAD BLOCK` of all their streams; when a match is added while it blocks, it is woken with
`CLIENT UNBLOCK` and reads again with the new stream among the others (a read of a few dozen streams is
cheap to issue again; one of a thousand, issued again whenever a long-poll comes to a new match, took the
CPU of the API and of Redis). A process has as many readers as its matches need. On a Redis Cluster the streams of
different matches live in different slots and cannot be read together: there each match has a reader
of its own. Either way there is at most one read per match per process, and each holds one connection
of its own (a blocking read holds its connection for as long as it blocks). From the second read of a
match on, what is read must chain onto what was read before (the store checks the hash chain).

Nothing here knows HTTP: the hub waits with `threading`'s primitives, which gevent's monkey-patching
turns into greenlet ones in the API's processes (deploy/gunicorn.conf.py), and starts its readers with
service/cooperative.py `spawn` (greenlets there; under the Flask test client, threads). Several API
instances each have their own hub; Redis is the only thing they share.

A match is read until LINGER_S after its last waiter left (a reconnecting client finds it still there);
when the hub stops (the process is stopping) every waiter is told so.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence

import redis

from events.connection import is_cluster
from events.store import EventStore, StoredEvent
from service import cooperative

log = logging.getLogger("talon.hub")

RECENT_EVENTS = 256  # kept per match: a subscriber this far behind reads the rest from the store
LINGER_S = 5.0  # a match is read this long after its last waiter left
RETRY_S = 1.0  # after a failed read (Redis away), a reader tries again after this
CATCH_UP_PAGE = 500  # a subscriber behind the kept events reads them in pages of this many
SHARED_BLOCK_S = 5.0  # a shared reader's longest block (bounds the wait of a match if an unblock is lost)
MATCHES_PER_READER = 16
GATHER_S = 0.005  # a shared reader waits this long after a read that brought news, before the next

# (game id, events, the hash of the entry before the first of them as the store checked it, or None)
EventsListener = Callable[[str, Sequence[StoredEvent], "str | None"], None]


class HubStopped(Exception):
    """The process is stopping: a subscriber should end (its client reconnects elsewhere)."""


class Subscription:
    """One waiting client's place in a match: its cursor (the last version it has), and a flag the
    hub (or anyone who wants the waiter to look up, such as a watcher of the client's socket) sets."""

    def __init__(self, hub: Hub, match: _Match, after: int):
        self.hub, self.match, self.cursor = hub, match, after
        self._woken = threading.Event()
        self.closed = False

    def wake(self) -> None:
        self._woken.set()

    def next_batch(self, timeout_s: float) -> list[StoredEvent]:
        """The events after the cursor, as soon as there are any (the cursor moves past them); [] after
        `timeout_s` or when woken with nothing new. Raises HubStopped when the process stops."""
        deadline = time.monotonic() + timeout_s
        while True:
            self._woken.clear()
            events = self._take()
            if events:
                self.cursor = events[-1].version
                return events
            if self.hub.stopped:
                raise HubStopped()
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._woken.wait(remaining) or self.closed:
                return []
            if self.hub.stopped:
                raise HubStopped()
            if self.match.head <= self.cursor:
                return []  # woken by someone else (the client went away, a stop): the caller looks

    def _take(self) -> list[StoredEvent]:
        match = self.match
        with self.hub.lock:
            if match.head <= self.cursor:
                return []
            recent = match.recent
            if recent and recent[0].version <= self.cursor + 1:
                return [e for e in recent if e.version > self.cursor]
        # Further behind than what the hub keeps: read from the store (not under the lock).
        return self.hub.store.read(match.game_id, after=self.cursor, limit=CATCH_UP_PAGE)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.hub._leave(self.match, self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Watch:
    """A pushed place in a match: `on_events(events)` with what each read brought (from the reader, which
    must not be held up: it should only write to sockets that do not block), `on_stop()` when the
    process stops."""

    def __init__(
        self, hub: Hub, match: _Match, on_events: Callable[[list[StoredEvent]], None], on_stop: Callable[[], None]
    ):
        self.hub, self.match, self.on_events, self.on_stop = hub, match, on_events, on_stop
        self.closed = False

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.hub._leave(self.match, self)


class _Match:
    __slots__ = ("game_id", "head", "head_hash", "recent", "waiters", "idle_since", "reader")

    def __init__(self, game_id: str, head: int):
        self.game_id = game_id
        self.head = head  # the newest version a reader has seen
        self.head_hash: str | None = None  # its entry's hash, once a reader has read one
        self.recent: deque[StoredEvent] = deque(maxlen=RECENT_EVENTS)
        self.waiters: set = set()  # Subscriptions and Watches
        self.idle_since: float | None = None  # monotonic time its last waiter left
        self.reader: _Reader | None = None


class _Reader:
    """One blocking read loop, over the matches given to it, on a connection of its own."""

    def __init__(self, hub: Hub, shared: bool):
        self.hub, self.shared = hub, shared
        self.matches: dict[str, _Match] = {}
        self.client = (
            redis.Redis(connection_pool=hub.store.client.connection_pool, single_connection_client=True)
            if shared
            else hub.store.client
        )
        self.store = EventStore(self.client, prefix=hub.store.prefix, max_block_s=hub.block_s) if shared else hub.store
        self.client_id: int | None = None
        self.blocked = False
        self.added = threading.Event()
        self.generation = 0  # bumped by every add
        self.read_generation = 0  # the generation the current read's streams were taken at
        self.waking = False

    def add(self, match: _Match) -> None:
        """(Under the hub's lock.) The match is read from the next read on: a blocked read is woken."""
        self.matches[match.game_id] = match
        match.reader = self
        self.generation += 1
        self.added.set()
        if self.shared and not self.waking:
            self.waking = True
            cooperative.spawn(self._wake)

    def _wake(self) -> None:
        """`CLIENT UNBLOCK`s the read until it has been issued again with the added streams. Once is not
        always enough: the unblock may reach Redis just before the read it should end (the reader
        checked a connection's health first, say), and then that read would block for its whole slice."""
        deadline = time.monotonic() + 2 * SHARED_BLOCK_S
        try:
            while time.monotonic() < deadline:
                with self.hub.lock:
                    if self.read_generation >= self.generation:
                        return
                    client_id = self.client_id if self.blocked else None
                if client_id is not None:
                    try:
                        self.hub.store.client.client_unblock(client_id)
                    except redis.RedisError as exc:
                        log.warning("the hub's reader was not woken: %s", exc)
                time.sleep(0.005)
        finally:
            with self.hub.lock:
                self.waking = False

    def run(self) -> None:
        while True:
            with self.hub.lock:
                positions = self._positions()
                if not positions and not self.shared:
                    return
                self.added.clear()
                self.read_generation = self.generation
                self.blocked = bool(positions)
            if not positions:
                if self.hub.stopped:
                    return
                self.added.wait(SHARED_BLOCK_S)
                continue
            try:
                if self.shared and self.client_id is None:
                    self.client_id = self.client.client_id()
                found = self.store.wait_many(
                    positions,
                    SHARED_BLOCK_S if self.shared else self.hub.block_s,
                    until=lambda: self.hub.stopped or self.added.is_set(),
                )
            except (redis.RedisError, OSError) as exc:
                self.client_id = None
                log.warning("the hub could not read: %s", exc)
                time.sleep(RETRY_S)
                continue
            finally:
                self.blocked = False
            for game_id, (events, chained) in found.items():
                self.hub._deliver(self.matches[game_id], events, positions[game_id][1] if chained else None)
            if self.hub.stopped:
                return
            if found and self.shared:
                # What comes meanwhile is read by the next read, with the other matches' news: a busy
                # match would otherwise cost a read of all the reader's streams for each of its events.
                time.sleep(GATHER_S)

    def _positions(self) -> dict[str, tuple[int, str | None]]:
        """(Under the hub's lock.) Where to read each match from; matches idle for LINGER_S are dropped."""
        positions = {}
        for game_id, match in list(self.matches.items()):
            if self.hub.stopped or (
                not match.waiters and match.idle_since is not None and time.monotonic() - match.idle_since >= LINGER_S
            ):
                del self.matches[game_id]
                self.hub._matches.pop(game_id, None)
                continue
            positions[game_id] = (match.head, match.head_hash)
        return positions


class Hub:
    def __init__(self, store: EventStore, listener: EventsListener | None = None, block_s: float = 25.0):
        """`store` must be on a client whose socket timeout outlasts `block_s` (a blocking read that
        outlasts it fails as if Redis were gone). `listener(game_id, events, after_hash)` is called with
        everything a reader reads, before the waiters hear of it (the repository folds it onto the table
        it holds)."""
        self.store = store
        self.listener = listener
        self.block_s = block_s
        self.lock = threading.Lock()
        self.stopped = False
        self._matches: dict[str, _Match] = {}
        self._shared: list[_Reader] = []
        self._per_match = is_cluster(store.client)

    def subscribe(self, game_id: str, after: int) -> Subscription:
        """A place in the match's feed after version `after`, pulled with `next_batch`."""
        with self.lock:
            match = self._match(game_id, after)
            subscription = Subscription(self, match, after)
            self._join(match, subscription)
        return subscription

    def watch(
        self, game_id: str, after: int, on_events: Callable[[list[StoredEvent]], None], on_stop: Callable[[], None]
    ) -> Watch:
        """A place in the match's feed after version `after`, pushed to (see Watch). What the hub read of
        the match past `after` before the watch began is pushed at once."""
        with self.lock:
            match = self._match(game_id, after)
            watch = Watch(self, match, on_events, on_stop)
            self._join(match, watch)
            head = match.head
            missed = [e for e in match.recent if e.version > after]
        if head > after:
            if not missed or missed[0].version != after + 1:
                missed = self.store.read(game_id, after=after, limit=head - after)
            if missed:
                on_events(missed)
        return watch

    def stop(self) -> None:
        """Tells every waiter; readers end after their current read."""
        with self.lock:
            self.stopped = True
            waiting = [w for m in self._matches.values() for w in m.waiters]
        for waiter in waiting:
            if isinstance(waiter, Watch):
                waiter.on_stop()
            else:
                waiter.wake()

    def subscribers(self, game_id: str | None = None) -> int:
        with self.lock:
            matches = self._matches.values() if game_id is None else [self._matches.get(game_id)]
            return sum(len(m.waiters) for m in matches if m is not None)

    def readers(self) -> int:
        """Matches being read (each in one read: the shared one, or its own)."""
        with self.lock:
            return len(self._matches)

    def _match(self, game_id: str, after: int) -> _Match:
        """(Under the lock.) The match's record; a new one is given to a reader."""
        match = self._matches.get(game_id)
        if match is None:
            match = self._matches[game_id] = _Match(game_id, head=after)
            if self._per_match:
                reader = _Reader(self, shared=False)
                reader.add(match)
                cooperative.spawn(reader.run, name=f"hub-{game_id}")
            else:
                reader = next((r for r in self._shared if len(r.matches) < MATCHES_PER_READER), None)
                if reader is None:
                    reader = _Reader(self, shared=True)
                    self._shared.append(reader)
                    cooperative.spawn(reader.run, name=f"hub-{len(self._shared)}")
                reader.add(match)
        return match

    @staticmethod
    def _join(match: _Match, waiter) -> None:
        match.waiters.add(waiter)
        match.idle_since = None

    def _leave(self, match: _Match, waiter) -> None:
        with self.lock:
            match.waiters.discard(waiter)
            if not match.waiters:
                match.idle_since = time.monotonic()

    def _deliver(self, match: _Match, events: list[StoredEvent], after_hash: str | None) -> None:
        if self.listener is not None:
            try:
                self.listener(match.game_id, events, after_hash)
            except Exception:  # noqa: BLE001 - a listener never keeps the events from the waiters
                log.warning("the hub's listener failed for %s", match.game_id, exc_info=True)
        with self.lock:
            match.recent.extend(events)
            match.head, match.head_hash = events[-1].version, events[-1].hash
            waiting = list(match.waiters)
        for waiter in waiting:
            if isinstance(waiter, Watch):
                try:
                    waiter.on_events(events)
                except Exception:  # noqa: BLE001 - one waiter's failure never keeps the others waiting
                    log.warning("a watch of %s failed", match.game_id, exc_info=True)
            else:
                waiter.wake()
