"""Stopping an API process without holding up the deploy.

gunicorn's graceful stop waits for every request in progress, up to its graceful_timeout (20 s): an
event stream lasts minutes and a long-poll up to 30 s, so a stop with players connected took the whole
timeout and then cut them off. When the process is asked to stop (SIGTERM, deploy/gunicorn.conf.py calls
`begin`), waits end at their next slice, within seconds: a long-poll answers with the game as it is, an
event stream ends, and the clients reconnect (to another process; the stream resumes with Last-Event-ID).
"""
from __future__ import annotations

import threading

_stopping = threading.Event()


def begin() -> None:
    _stopping.set()


def stopping() -> bool:
    return _stopping.is_set()
