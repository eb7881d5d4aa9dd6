"""Stopping a child process: SIGTERM, and SIGKILL if it has not exited within the timeout.

Shared by the e2e stacks, the Redis Cluster launcher and the bench, which start the same kind of
processes (Redis, gunicorn, the rq worker) and stop them the same way."""
from __future__ import annotations

import signal
import subprocess

STOP_TIMEOUT_S = 10.0


def stop_process(popen: subprocess.Popen, sig: int = signal.SIGTERM, timeout_s: float = STOP_TIMEOUT_S) -> None:
    if popen.poll() is not None:
        return
    popen.send_signal(sig)
    try:
        popen.wait(timeout_s)
    except subprocess.TimeoutExpired:
        popen.kill()
        popen.wait(timeout_s)
