"""Stopping a child process: SIGTERM, and SIGKILL if it has not exited within the timeout.

Shared by the e2e stacks, the Redis Cluster launcher and the bench, which start the same kind of
processes (Redis, gunicorn, the rq worker) and stop them the same way; and the worker process as the
integration tests start it."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

STOP_TIMEOUT_S = 10.0
REPO = Path(__file__).resolve().parents[2]


def stop_process(popen: subprocess.Popen, sig: int = signal.SIGTERM, timeout_s: float = STOP_TIMEOUT_S) -> None:
    if popen.poll() is not None:
        return
    popen.send_signal(sig)
    try:
        popen.wait(timeout_s)
    except subprocess.TimeoutExpired:
        popen.kill()
        popen.wait(timeout_s)


def start_worker(redis_url: str, log_path: Path, **env: str) -> subprocess.Popen:
    """`python -m workers` on this Redis, its output appended to `log_path`; `env` adds variables."""
    return subprocess.Popen([sys.executable, "-m", "workers"], cwd=REPO,
                            env={**os.environ, "REDIS_URL": redis_url, **env},
                            stdout=open(log_path, "ab"), stderr=subprocess.STDOUT)
