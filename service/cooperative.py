"""What the API needs from its event loop: noticing a client that went away, bounding a slow body, and
running CPU-heavy work off the loop.

The API serves under gunicorn's gevent worker (deploy/gunicorn.conf.py): every connection is a greenlet
and no connection holds an OS thread. Four things need the loop itself, through gevent's public API:

- `watch_disconnect`: a client that closes an event stream or a long-poll is gone within moments (its
  socket reads as end of file); the waiter is woken at once instead of at its next heartbeat.
- `deadline`: a body that arrives too slowly is cut off after a total time, not per read.
- `offload`: pure CPU work that takes long (the expert's hint: up to 0.3 s) runs in gevent's thread
  pool, so the loop keeps serving every other connection meanwhile.
- `bounded_semaphore`: the admission's slots (service/admission.py), taken and given back on every
  request, wait on the loop.

Without gevent (the Flask test client, a plain WSGI server) they fall back to doing nothing special:
no watcher, no deadline, work runs inline, threading's semaphore.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def _gevent():
    """gevent, if this process runs on its loop (monkey-patched sockets), else None."""
    try:
        from gevent import monkey
    except ImportError:
        return None
    if not monkey.is_module_patched("socket"):
        return None
    import gevent

    return gevent


class Deadline(Exception):
    """The time given to `deadline` ran out."""


class deadline:
    """Raises Deadline if the block takes longer than `seconds` in all (on gevent's loop only). A class
    rather than a generator: it runs on every request that sends a body."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._timeout: Any = None

    def __enter__(self) -> None:
        gevent = _gevent()
        if gevent is not None:
            self._timeout = gevent.Timeout(self.seconds, Deadline)
            self._timeout.start()

    def __exit__(self, *exc: object) -> None:
        if self._timeout is not None:
            self._timeout.close()


def bounded_semaphore(value: int) -> Any:
    """A bounded semaphore of `value` slots: gevent's on its loop (compiled, and a waiter waits on the
    loop; threading's, written in Python over a condition, took a few microseconds per request), else
    threading's."""
    gevent = _gevent()
    if gevent is None:
        return threading.BoundedSemaphore(value)
    from gevent.lock import BoundedSemaphore

    return BoundedSemaphore(value)


def spawn(work: Callable[..., Any], *args: Any, name: str = "") -> None:
    """`work(*args)` in the background: a greenlet on gevent's loop (a thread object there would add a
    few dozen objects for the garbage collector to walk, for each match with waiting clients), else a
    daemon thread."""
    gevent = _gevent()
    if gevent is not None:
        gevent.spawn(work, *args)
    else:
        threading.Thread(target=work, args=args, name=name or None, daemon=True).start()


def offload(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)` in a thread of gevent's pool (the loop serves others meanwhile), or inline."""
    gevent = _gevent()
    if gevent is None:
        return work(*args)
    return gevent.get_hub().threadpool.apply(work, args)


def client_socket(environ: dict):
    """The request's connection as gunicorn gives it (None under another server)."""
    return environ.get("gunicorn.socket")


def watch_disconnect(sock, on_gone: Callable[[], None]) -> Callable[[], None]:
    """Calls `on_gone()` once the client of this request closes its connection. Returns a function that
    stops watching (call it when the response ends). A client of an event stream or a long-poll sends
    nothing while it waits, so a readable socket means end of file (or a pipelined request: then the
    watch just ends).

    While the socket stays quiet this is one watcher of the loop and no greenlet (thousands of idle
    connections: every object a connection keeps is one more the garbage collector walks); a greenlet
    looks at the socket only once it has become readable."""
    gevent = _gevent()
    if gevent is None or sock is None:
        return lambda: None
    watcher = gevent.get_hub().loop.io(sock.fileno(), 1)

    def check() -> None:
        try:
            gone = sock.recv(1, socket.MSG_PEEK) == b""
        except Exception:  # noqa: BLE001 - a socket closed under the watch is a client gone as well
            gone = True
        if gone:
            on_gone()

    def readable() -> None:
        watcher.stop()
        gevent.spawn(check)

    watcher.start(readable)
    return watcher.close
