"""gunicorn as deployed (deploy/gunicorn.conf.py) writes an access-log line per request when
GUNICORN_ACCESSLOG is set, as JSON like every other line, and none when it is not (the app logs its own
request lines; the access line is then not even built)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import requests

from tests.e2e.conftest import lone_api


def served_log(tmp: Path, **env: str) -> list[dict]:
    """The JSON lines gunicorn wrote while answering three requests to /livez."""
    with lone_api(tmp, LOG_LEVEL="INFO", **env) as (base_url, proc):
        for _ in range(3):
            assert requests.get(f"{base_url}/livez", timeout=5).status_code == 200
        time.sleep(0.3)  # the last lines reach the file
    return [json.loads(line) for line in proc.log().splitlines() if line.startswith("{")]


def access_lines(lines: list[dict]) -> list[dict]:
    return [line for line in lines if line.get("logger") == "gunicorn.access" and "/livez" in line["msg"]]


def test_access_lines_when_the_access_log_is_asked_for(tmp_path):
    lines = served_log(tmp_path, GUNICORN_ACCESSLOG="-")
    assert len(access_lines(lines)) == 3
    assert any(line.get("logger") == "talon.http" for line in lines)  # the app's own lines as well


def test_no_access_lines_by_default(tmp_path):
    lines = served_log(tmp_path)
    assert access_lines(lines) == []
    assert any(line.get("logger") == "talon.http" for line in lines)
