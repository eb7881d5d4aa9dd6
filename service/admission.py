"""Admission: at most a few requests of a process are worked on at once; the rest wait their turn.

Under gevent a burst of requests (thousands of clients reconnecting after a deploy, say) would otherwise
all be started at once, each taking the loop for a millisecond at every step: the loop's queue grows to
the burst's size, and a request that needs a millisecond, such as a health probe, waits behind all of
them. With admission, a request beyond `slots` waits for a free slot without running (a waiting greenlet
is not in the loop's queue), so the queue stays short and the probes (`/livez`, `/readyz`), which never
wait for a slot, answer in milliseconds whatever the burst.

A request holds its slot until its view has returned its response (an event stream's body is sent
afterwards, outside the slot); a long-poll lets its slot go while it waits (`Slot.paused`).

The requests of waiting connections (an event stream opened, a long-poll, a parked long-poll's answer)
have slots of their own, half as many: they come in crowds (thousands of long-polls re-polling, a match's
spectators arriving), and in the same slots they made the moves and views of the players wait their turn
behind them (the moves' p99 with 10,000 connections open, bench/streams.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from service.cooperative import bounded_semaphore
from service.parking import opens_a_wait

ENVIRON_KEY = "talon.slot"
EXEMPT = frozenset({"/livez", "/readyz"})


class Slot:
    def __init__(self, slots: Any):  # a bounded semaphore (service/cooperative.py)
        self._slots, self._held = slots, False

    def take(self) -> None:
        self._slots.acquire()
        self._held = True

    def release(self) -> None:
        if self._held:
            self._held = False
            self._slots.release()

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Lets the slot go for the block (a wait for something else), and takes one again after it."""
        held = self._held
        self.release()
        try:
            yield
        finally:
            if held:
                self.take()


class Admission:
    """WSGI middleware around the app."""

    def __init__(self, app, slots: int):
        self.app = app
        self.slots = bounded_semaphore(slots)
        self.waiting_slots = bounded_semaphore(max(1, slots // 2))

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") in EXEMPT:
            return self.app(environ, start_response)
        lane = self.waiting_slots if opens_a_wait(environ) else self.slots
        slot = environ[ENVIRON_KEY] = Slot(lane)
        slot.take()
        try:
            return self.app(environ, start_response)
        finally:
            slot.release()


@contextlib.contextmanager
def paused(environ: dict) -> Iterator[None]:
    """The request's slot let go for the block (no-op when the request has none)."""
    slot = environ.get(ENVIRON_KEY)
    if slot is None:
        yield
        return
    with slot.paused():
        yield
