"""End-to-end fixtures: the real service as separate processes (Redis, gunicorn, one rq worker).

Everything listens on loopback ports picked at random; every process is stopped in the teardown, and
their logs are printed when a test fails.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests

from tests.support.contract import check_response
from tests.support.processes import (
    START_TIMEOUT_S,
    WORKER_COMMAND,
    Proc,
    gunicorn_command,
    spawn,
    stop_process,
    wait_until,
)
from tests.support.redis_proc import RedisProcess, free_port

OPERATOR_TOKEN = "e2e-operator-token-0123456789abcdef"  # 32+ characters, as outside development


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report carries the logs of the service's processes."""
    outcome = yield
    report = outcome.get_result()
    running = item.funcargs.get("service") if hasattr(item, "funcargs") else None
    if report.failed and report.when == "call" and isinstance(running, Service):
        report.sections.append(("talon service logs", running.logs()))


@pytest.fixture(autouse=True)
def responses_match_the_spec(monkeypatch):
    """Every answer the service gives a test here is checked against openapi.yaml (tests/support/contract.py):
    requests' Session.send, which every request goes through, checks it on its way back. A streamed
    response (read by the test as it comes) is checked for its status and content type."""
    send = requests.Session.send

    def checked(session, request, **kwargs):
        response = send(session, request, **kwargs)
        path = urlsplit(request.url).path
        body = None if kwargs.get("stream") else response.content
        check_response(request.method, path, response.status_code, response.headers.get("Content-Type"), body)
        return response

    monkeypatch.setattr(requests.Session, "send", checked)


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
    wait_until(
        lambda: requests.get(base_url + "/readyz", timeout=1).status_code == 200,
        procs,
        f"{base_url} (/readyz)",
        timeout_s,
    )


def spawn_api(workdir: Path, env: dict[str, str], name: str = "gunicorn") -> tuple[str, Proc]:
    """gunicorn serving the app as deployed (deploy/gunicorn.conf.py) on a free loopback port: its base
    URL and process."""
    port = free_port()
    proc = spawn(name, gunicorn_command(port), env, workdir)
    return f"http://127.0.0.1:{port}", proc


@contextmanager
def lone_api(workdir: Path, **env: str) -> Iterator[tuple[str, Proc]]:
    """A Redis and one gunicorn worker process (no rq worker), ready; both stopped afterwards. For the
    tests of the API process itself (its logs, its stop); `env` adds to or overrides its environment."""
    redis = RedisProcess(workdir=str(workdir)).start()
    full_env = {**os.environ, "REDIS_URL": redis.url, "WEB_CONCURRENCY": "1", "PYTHONUNBUFFERED": "1", **env}
    base_url, proc = spawn_api(workdir, full_env)
    try:
        wait_ready(base_url, [proc])
        yield base_url, proc
    finally:
        stop_process(proc.popen)
        redis.stop()


@contextmanager
def running_service(**env: str) -> Iterator[Service]:
    """Redis (append-only), gunicorn with two workers, and one rq worker, each its own process, in a
    working directory of their own; `env` adds to or overrides the processes' environment."""
    workdir = Path(tempfile.mkdtemp(prefix="talon-e2e-"))
    redis = RedisProcess(appendonly=True, workdir=str(workdir)).start()
    (workdir / "metrics").mkdir()
    # As `make run` serves: metrics of every process in Prometheus' multiprocess mode, in a fresh directory.
    full_env = {
        **os.environ,
        "REDIS_URL": redis.url,
        "OPERATOR_TOKEN": OPERATOR_TOKEN,
        "WEB_CONCURRENCY": "2",
        "PYTHONUNBUFFERED": "1",
        "PROMETHEUS_MULTIPROC_DIR": str(workdir / "metrics"),
        # A scripted client plays far faster than a person: the per-seat limit is raised, not off.
        "TALON_RATE_LIMIT_ACTIONS": "500/second",
        **env,
    }
    base_url, api = spawn_api(workdir, full_env)
    running = Service(
        base_url=base_url, redis_url=redis.url, operator_token=OPERATOR_TOKEN, workdir=workdir, procs=[api]
    )
    try:
        running.procs.append(spawn("worker", WORKER_COMMAND, full_env, workdir))
        wait_ready(running.base_url, running.procs)
        yield running
    except Exception:
        print(f"service start-up failed; logs:\n{running.logs()}")
        raise
    finally:
        running.stop()
        redis.stop()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def service():
    with running_service() as running:
        yield running


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError as exc:
        return f"(no log: {exc})"
