"""Starting a service's processes, waiting for them, and stopping them: SIGTERM, and SIGKILL if one has
not exited within the timeout.

Shared by the e2e stacks, the Redis Cluster launcher and the bench, which start the same kind of
processes (Redis, gunicorn, the rq worker) with the same command lines (`gunicorn_command`,
`WORKER_COMMAND`) and stop them the same way; and the worker process as the integration tests start it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

STOP_TIMEOUT_S = 10.0
START_TIMEOUT_S = 20.0
REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # the virtualenv's programs, beside its interpreter
WORKER_COMMAND = [str(BIN / "python"), "-m", "workers"]


def gunicorn_command(port: int, app: str = "service.wsgi:app") -> list[str]:
    """gunicorn as deployed (deploy/gunicorn.conf.py) serving `app` on a loopback port."""
    return [str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py", "--bind", f"127.0.0.1:{port}", app]


@dataclass
class Proc:
    name: str
    popen: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError as exc:
            return f"(no log: {exc})"


def spawn(name: str, args: list[str], env: dict | None, workdir: Path) -> Proc:
    """A process started in the repository, its output in `<workdir>/<name>.log`."""
    log_path = workdir / f"{name}.log"
    with open(log_path, "wb") as log:
        popen = subprocess.Popen(
            args, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
    return Proc(name, popen, log_path)


def wait_until(probe: Callable[[], bool], procs: Iterable[Proc], what: str, timeout_s: float = START_TIMEOUT_S) -> None:
    """Bounded polling of `probe` while the processes start (start-up has no event to await); fails at
    once, with its log, if one of them has exited. A probe that raises counts as not yet."""
    deadline = time.monotonic() + timeout_s
    while True:
        for proc in procs:
            if proc.popen.poll() is not None:
                raise RuntimeError(f"{proc.name} exited with {proc.popen.returncode} during start-up:\n{proc.log()}")
        try:
            if probe():
                return
        except Exception:  # noqa: BLE001 - not up yet
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start within {timeout_s} s")
        time.sleep(0.05)


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
    return subprocess.Popen(
        WORKER_COMMAND,
        cwd=REPO,
        env={**os.environ, "REDIS_URL": redis_url, **env},
        stdout=open(log_path, "ab"),
        stderr=subprocess.STDOUT,
    )
