"""Stopping an API process without holding up the deploy.

gunicorn's graceful stop waits for every request in progress, up to its graceful_timeout (20 s): an
event stream lasts minutes and a long-poll up to 30 s, so a stop with players connected took the whole
timeout and then cut them off. When the process is asked to stop (SIGTERM, deploy/gunicorn.conf.py calls
`begin`), waits end at their next slice, within seconds: a long-poll answers with the game as it is, an
event stream ends (the fan-out hub wakes every waiter: `on_stop`), and the clients reconnect (to another process; the stream resumes with Last-Event-ID).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

_stopping = threading.Event()
_callbacks: list[Callable[[], None]] = []


def on_stop(callback: Callable[[], None]) -> None:
    """`callback()` runs when the process begins to stop (the fan-out hub wakes its waiters)."""
    _callbacks.append(callback)


def begin() -> None:
    _stopping.set()
    for callback in list(_callbacks):
        callback()


def stopping() -> bool:
    return _stopping.is_set()
