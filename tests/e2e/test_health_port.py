"""The probes' own port as deployed (TALON_HEALTH_BIND; service/health.py): each API process listens on
it, and it answers /livez and /readyz with the API's bodies, off the event loop."""

from __future__ import annotations

import time

import pytest
import requests

from tests.e2e.conftest import running_service
from tests.support.redis_proc import free_port

pytestmark = pytest.mark.slow


def listening_sockets(port: int) -> int:
    """LISTEN sockets on `port` (IPv4), from the kernel's table."""
    with open("/proc/net/tcp") as table:
        rows = [line.split() for line in table.readlines()[1:]]
    return sum(int(local.rsplit(":", 1)[1], 16) == port and state == "0A" for _, local, _, state, *_ in rows)


def test_each_api_process_answers_the_probes_on_the_health_port():
    port = free_port()
    with running_service(TALON_HEALTH_BIND=f"127.0.0.1:{port}") as service:
        base = f"http://127.0.0.1:{port}"
        # Both gunicorn workers (WEB_CONCURRENCY=2), with SO_REUSEPORT, once both have booted (the service
        # is ready as soon as one of them answers).
        deadline = time.monotonic() + 60
        while listening_sockets(port) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert listening_sockets(port) == 2
        for _ in range(10):  # the kernel hands each connection to one of them
            live = requests.get(base + "/livez", timeout=5)
            ready = requests.get(base + "/readyz", timeout=5)
            assert (live.status_code, live.json()) == (200, {"status": "ok"})
            assert (ready.status_code, ready.json()) == (200, {"status": "ready"})
            assert live.headers["Cache-Control"] == "no-store"
        other = requests.get(base + "/v1/games", timeout=5)
        assert other.status_code == 404 and other.headers["Content-Type"] == "application/problem+json"
        # The API's own probes stay where they were.
        assert requests.get(service.url("/livez"), timeout=5).json() == {"status": "ok"}
