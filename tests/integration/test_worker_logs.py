"""The worker process (`python -m workers`) logs at LOG_LEVEL, rq's own lines included (rq sets its
logger to INFO when imported), and says each job's start and end, not its result's lifespan; waiting
for work logs no errors."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.support.processes import start_worker
from tests.support.talon import await_finished, matches_on

SEATS = [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "basic"}]


def play_one_match(redis_url: str, r, level: str, log_path: Path, idle_s: float = 0.0) -> None:
    """A worker on `redis_url` plays one all-bot match, after `idle_s` with nothing to do."""
    worker = start_worker(redis_url, log_path, LOG_LEVEL=level, LOG_FORMAT="json")
    try:
        time.sleep(idle_s)
        talon = matches_on(r)
        game = talon.create_match("sixty-six", {"first_dealer": 0}, SEATS, seed=5)
        await_finished(talon, game.game_id, 60, lambda: "no finished match:\n" + log_path.read_text())
        time.sleep(0.2)  # the last job's closing lines
    finally:
        worker.terminate()
        worker.wait(10)


def lines(log_path: Path) -> list[dict]:
    return [json.loads(line) for line in log_path.read_text().splitlines() if line.startswith("{")]


def test_warning_level_silences_rqs_job_lines(r, redis_url, tmp_path):
    log = tmp_path / "worker.log"
    play_one_match(redis_url, r, "warning", log)  # lower case, as gunicorn's own setting is written
    assert [line for line in lines(log) if line["level"] in ("DEBUG", "INFO")] == []


def test_info_level_logs_jobs_without_result_lifespans(r, redis_url, tmp_path):
    log = tmp_path / "worker.log"
    play_one_match(redis_url, r, "INFO", log)
    messages = [line["msg"] for line in lines(log) if line["logger"] == "rq.worker"]
    assert any("Job OK" in m for m in messages), messages[:5]
    assert not any("result is kept" in m for m in messages)


def test_an_idle_worker_waits_for_jobs_without_errors(r, redis_url, tmp_path):
    """rq blocks in its dequeue for minutes; a Redis client times out a read after its socket timeout
    (redis-py's default: 5 s, here 1 s), so every connection of the worker must have rq's longer one.
    A shorter one ended each idle dequeue with "could not connect to Redis" and a pause of 1-2 s."""
    log = tmp_path / "worker.log"
    play_one_match(redis_url + "?socket_timeout=1", r, "INFO", log, idle_s=3.5)  # idle: three socket timeouts
    errors = [line["msg"] for line in lines(log) if line["level"] in ("WARNING", "ERROR", "CRITICAL")]
    assert errors == []
