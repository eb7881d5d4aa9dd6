"""The probes' own listener's answers (service/health.py): live while the event loop turns, ready while
it is live, not stopping, and Redis answers."""

from __future__ import annotations

import redis

from service.health import STALL_S, Health, LoopBeat


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def health(ping=lambda: True, stopping=lambda: False) -> tuple[Health, LoopBeat, Clock]:
    clock = Clock()
    beat = LoopBeat(clock)
    return Health(beat, ping, stopping), beat, clock


def test_live_and_ready_while_the_loop_turns_and_redis_answers():
    probes, beat, clock = health()
    for _ in range(5):
        clock.now += STALL_S - 0.1
        beat.stamp()
        assert probes.answer("/livez") == (200, {"status": "ok"})
        assert probes.answer("/readyz") == (200, {"status": "ready"})


def test_a_loop_that_has_not_turned_for_the_stall_time_is_neither_live_nor_ready():
    probes, _, clock = health()
    clock.now += STALL_S + 1
    for path in ("/livez", "/readyz"):
        status, body = probes.answer(path)
        assert status == 503 and body["type"].endswith("/unavailable")
        assert "event loop has not turned for 11 s" in body["detail"]


def test_a_stopping_process_is_live_but_not_ready():
    probes, _, _ = health(stopping=lambda: True)
    assert probes.answer("/livez")[0] == 200
    status, body = probes.answer("/readyz")
    assert status == 503 and body["detail"] == "the process is stopping"


def test_redis_out_of_reach_is_not_ready():
    def ping():
        raise redis.ConnectionError("refused")

    probes, _, _ = health(ping=ping)
    assert probes.answer("/livez")[0] == 200
    status, body = probes.answer("/readyz")
    assert status == 503 and body["detail"] == "Redis is unreachable"


def test_other_paths_are_not_found():
    probes, _, _ = health()
    status, body = probes.answer("/metrics")
    assert status == 404 and body["status"] == 404 and body["title"] == "Not found"
