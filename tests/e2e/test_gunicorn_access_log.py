"""gunicorn as deployed (deploy/gunicorn.conf.py) writes an access-log line per request when
GUNICORN_ACCESSLOG is set, as JSON like every other line, and none when it is not (the app logs its own
request lines; the access line is then not even built)."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import requests

from tests.e2e.conftest import BIN, spawn, wait_ready
from tests.support.processes import stop_process
from tests.support.redis_proc import RedisProcess, free_port


def served_log(tmp: Path, **env: str) -> list[dict]:
    """The JSON lines gunicorn wrote while answering three requests to /livez."""
    redis = RedisProcess(workdir=str(tmp)).start()
    port = free_port()
    full_env = {**os.environ, "REDIS_URL": redis.url, "WEB_CONCURRENCY": "1", "PYTHONUNBUFFERED": "1",
                "LOG_LEVEL": "INFO", **env}
    proc = spawn("gunicorn", [str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py",
                              "--bind", f"127.0.0.1:{port}", "service.wsgi:app"], full_env, tmp)
    try:
        wait_ready(f"http://127.0.0.1:{port}", [proc])
        for _ in range(3):
            assert requests.get(f"http://127.0.0.1:{port}/livez", timeout=5).status_code == 200
        time.sleep(0.3)  # the last lines reach the file
    finally:
        stop_process(proc.popen)
        redis.stop()
    return [json.loads(line) for line in proc.log().splitlines() if line.startswith("{")]


def access_lines(lines: list[dict]) -> list[dict]:
    return [line for line in lines if line.get("logger") == "gunicorn.access" and "/livez" in line["msg"]]


def test_access_lines_when_the_access_log_is_asked_for(tmp_path):
    lines = served_log(tmp_path, GUNICORN_ACCESSLOG="-")
    assert len(access_lines(lines)) == 3
    assert any(line.get("logger") == "talon.http" for line in lines)   # the app's own lines as well


def test_no_access_lines_by_default(tmp_path):
    lines = served_log(tmp_path)
    assert access_lines(lines) == []
    assert any(line.get("logger") == "talon.http" for line in lines)
