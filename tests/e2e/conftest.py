"""End-to-end fixtures: the real service as separate processes (Redis, gunicorn, one rq worker).

Everything listens on loopback ports picked at random; every process is stopped in the teardown, and
their logs are printed when a test fails.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

from tests.support.processes import START_TIMEOUT_S, Proc, spawn, stop_process, wait_until
from tests.support.redis_proc import RedisProcess, free_port

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
OPERATOR_TOKEN = "e2e-operator-token"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report carries the logs of the service's processes."""
    outcome = yield
    report = outcome.get_result()
    running = item.funcargs.get("service") if hasattr(item, "funcargs") else None
    if report.failed and report.when == "call" and isinstance(running, Service):
        report.sections.append(("talon service logs", running.logs()))


@dataclass
class Service:
    """The running service: its base URL, Redis URL and processes."""
    base_url: str
    redis_url: str
    operator_token: str
    workdir: Path
    procs: list[Proc] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base_url + path

    def logs(self) -> str:
        parts = [f"----- {p.name} (exit code {p.popen.poll()}) -----\n{p.log()}" for p in self.procs]
        parts.append(f"----- redis -----\n{_read(self.workdir / 'redis.log')}")
        return "\n".join(parts)

    def stop(self) -> None:
        # The worker first (it holds no requests), then the API; SIGTERM, then SIGKILL after a bound.
        for proc in reversed(self.procs):
            stop_process(proc.popen)


def wait_ready(base_url: str, procs: list[Proc], timeout_s: float = START_TIMEOUT_S) -> None:
    """Bounded polling of /readyz while the processes start."""
    wait_until(lambda: requests.get(base_url + "/readyz", timeout=1).status_code == 200, procs,
               f"{base_url} (/readyz)", timeout_s)


@pytest.fixture
def service():
    """Redis (append-only), gunicorn with two workers, and one rq worker, each its own process."""
    workdir = Path(tempfile.mkdtemp(prefix="talon-e2e-"))
    redis = RedisProcess(appendonly=True, workdir=str(workdir)).start()
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis.url, "OPERATOR_TOKEN": OPERATOR_TOKEN, "WEB_CONCURRENCY": "2",
           "PYTHONUNBUFFERED": "1",
           # A scripted client plays far faster than a person: the per-seat limit is raised, not off.
           "TALON_RATE_LIMIT_ACTIONS": "500/second"}
    running = Service(base_url=f"http://127.0.0.1:{port}", redis_url=redis.url,
                      operator_token=OPERATOR_TOKEN, workdir=workdir)
    try:
        running.procs.append(spawn("gunicorn", [str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py",
                                                "--bind", f"127.0.0.1:{port}", "service.wsgi:app"], env, workdir))
        running.procs.append(spawn("worker", [str(BIN / "python"), "-m", "workers"], env, workdir))
        wait_ready(running.base_url, running.procs)
        yield running
    except Exception:
        print(f"service start-up failed; logs:\n{running.logs()}")
        raise
    finally:
        running.stop()
        redis.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError as exc:
        return f"(no log: {exc})"
