"""The fan-out hub: one Redis read per match per process feeds every local stream and long-poll of it.

A client that waits for a match's next events (an SSE stream, a long-poll) subscribes here instead of
reading Redis itself. For each match with at least one local subscriber, the hub runs one reader: a
loop of `XREAD BLOCK` on the match's stream from the newest version it has seen, on a client of its own
(blocking reads hold a connection for as long as they block). What it reads it keeps (the last
RECENT_EVENTS of each match), and it wakes every subscriber of that match; each subscriber takes the
events after its own cursor, from the kept ones or, if it is further behind, from the store.

Nothing here knows HTTP: the hub waits with `threading`'s primitives, which gevent's monkey-patching
turns into greenlet ones in the API's processes (deploy/gunicorn.conf.py), and starts its readers with
service/cooperative.py `spawn` (greenlets there; under the Flask test client, threads). It works the same on one Redis and
on a Redis Cluster (each reader reads one key), and with any number of API instances (each has its own
hub; Redis is the only thing they share).

A reader ends LINGER_S after its match's last subscriber left (a reconnecting client finds it still
there) and when the hub stops (the process is stopping: every subscriber is woken and told so).
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence

import redis

from events.store import EventStore, HistoryChanged, StoredEvent
from service import cooperative

log = logging.getLogger("talon.hub")

RECENT_EVENTS = 256     # kept per match: a subscriber this far behind reads the rest from the store
LINGER_S = 5.0          # a reader outlives its last subscriber by this much
RETRY_S = 1.0           # after a failed read (Redis away), the reader tries again after this
CATCH_UP_PAGE = 500     # a subscriber behind the kept events reads them in pages of this many

# (game id, events, the hash of the entry before the first of them as the store checked it, or None)
EventsListener = Callable[[str, Sequence[StoredEvent], "str | None"], None]


class HubStopped(Exception):
    """The process is stopping: a subscriber should end (its client reconnects elsewhere)."""


class Subscription:
    """One waiting client's place in a match: its cursor (the last version it has), and a flag the
    hub (or anyone who wants the waiter to look up, such as a watcher of the client's socket) sets."""

    def __init__(self, hub: "Hub", match: "_Match", after: int):
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
            self.hub._leave(self)

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _Match:
    def __init__(self, game_id: str, head: int):
        self.game_id = game_id
        self.head = head                               # the newest version the reader has seen
        self.head_hash: str | None = None              # its entry's hash, once the reader has read one
        self.recent: deque[StoredEvent] = deque(maxlen=RECENT_EVENTS)
        self.subscribers: set[Subscription] = set()
        self.idle_since: float | None = None           # monotonic time its last subscriber left


class Hub:
    def __init__(self, store: EventStore, listener: EventsListener | None = None, block_s: float = 25.0):
        """`store` must be on a client whose socket timeout outlasts `block_s` (a blocking read that
        outlasts it fails as if Redis were gone). `listener(game_id, events)` is called with everything a
        reader reads, before the subscribers wake (the repository folds them onto the table it holds);
        from its second read on, a reader checks that what it reads chains onto what it read before."""
        self.store = store
        self.listener = listener
        self.block_s = block_s
        self.lock = threading.Lock()
        self.stopped = False
        self._matches: dict[str, _Match] = {}

    def subscribe(self, game_id: str, after: int) -> Subscription:
        """A place in the match's feed after version `after` (a reader starts if there is none)."""
        with self.lock:
            match = self._matches.get(game_id)
            start = match is None
            if start:
                match = self._matches[game_id] = _Match(game_id, head=after)
            subscription = Subscription(self, match, after)
            match.subscribers.add(subscription)
            match.idle_since = None
        if start:
            cooperative.spawn(self._read, match, name=f"hub-{game_id}")
        return subscription

    def stop(self) -> None:
        """Wakes every subscriber with HubStopped; readers end after their current read."""
        with self.lock:
            self.stopped = True
            waiting = [s for m in self._matches.values() for s in m.subscribers]
        for subscription in waiting:
            subscription.wake()

    def subscribers(self, game_id: str | None = None) -> int:
        with self.lock:
            matches = self._matches.values() if game_id is None else [self._matches.get(game_id)]
            return sum(len(m.subscribers) for m in matches if m is not None)

    def readers(self) -> int:
        with self.lock:
            return len(self._matches)

    def _leave(self, subscription: Subscription) -> None:
        with self.lock:
            match = subscription.match
            match.subscribers.discard(subscription)
            if not match.subscribers:
                match.idle_since = time.monotonic()

    def _read(self, match: _Match) -> None:
        while True:
            with self.lock:
                if self.stopped or self._idle_out(match):
                    self._matches.pop(match.game_id, None)
                    return
                after, after_hash = match.head, match.head_hash
            try:
                events = self.store.wait(match.game_id, after, self.block_s, until=lambda: self.stopped,
                                         after_hash=after_hash)
            except HistoryChanged:  # the game was deleted and written anew: read on without the check
                with self.lock:
                    match.head_hash = None
                continue
            except (redis.RedisError, OSError) as exc:
                log.warning("the hub could not read %s: %s", match.game_id, exc)
                time.sleep(RETRY_S)
                continue
            except ValueError:  # a game id the store refuses: nobody can be waiting on it
                events = []
            if events:
                self._deliver(match, events, after_hash)

    def _idle_out(self, match: _Match) -> bool:
        return not match.subscribers and match.idle_since is not None \
            and time.monotonic() - match.idle_since >= LINGER_S

    def _deliver(self, match: _Match, events: list[StoredEvent], after_hash: str | None) -> None:
        if self.listener is not None:
            try:
                self.listener(match.game_id, events, after_hash)
            except Exception:  # noqa: BLE001 - a listener never keeps the events from the subscribers
                log.warning("the hub's listener failed for %s", match.game_id, exc_info=True)
        with self.lock:
            match.recent.extend(events)
            match.head, match.head_hash = events[-1].version, events[-1].hash
            waiting = list(match.subscribers)
        for subscription in waiting:
            subscription.wake()
