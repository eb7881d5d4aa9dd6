"""Metrics under gunicorn with two worker processes and an rq worker (Prometheus multiprocess mode):
every scrape, whichever process answers it, counts the requests all processes served and the bot
decisions the rq worker made; every log line of the API and the worker is JSON."""

from __future__ import annotations

import json
import time

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.conftest import Service, running_service

REQUESTS = 40


@pytest.fixture
def metered(tmp_path):
    """The service in multiprocess mode, writing its samples to tmp_path/metrics."""
    (tmp_path / "metrics").mkdir()  # before the processes start: the rq worker writes there from its start
    with running_service(PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"), TALON_RATE_LIMITS="off") as running:
        yield running


def scrape(service: Service) -> dict[tuple, float]:
    # A new connection each time, so that the scrapes spread over the API's processes.
    response = requests.get(
        service.url("/metrics"),
        timeout=10,  # operators only
        headers={"Connection": "close", "Authorization": f"Bearer {service.operator_token}"},
    )
    assert response.status_code == 200
    found = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def total(found: dict, name: str, **labels) -> float:
    return sum(v for (n, ls), v in found.items() if n == name and all((k, str(val)) in ls for k, val in labels.items()))


@pytest.mark.slow
def test_metrics_aggregate_every_process(metered, tmp_path):
    for _n in range(REQUESTS):
        assert requests.get(metered.url("/livez"), headers={"Connection": "close"}, timeout=10).status_code == 200
    created = requests.post(
        metered.url("/v1/games"),
        timeout=10,
        json={
            "game": "sixty-six",
            "options": {"match_target": 1},
            "seats": [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "basic"}],
        },
    )
    game_id = created.json()["game_id"]
    deadline = time.monotonic() + 60
    while requests.get(metered.url(f"/v1/games/{game_id}"), timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish a one-point match in 60 s"
        time.sleep(0.2)

    files = list((tmp_path / "metrics").glob("*.db"))
    assert len({f.stem.rsplit("_", 1)[-1] for f in files}) >= 2, files  # more than one process wrote samples
    for _ in range(6):
        found = scrape(metered)
        assert total(found, "talon_http_requests_total", route="/livez", status="200") == REQUESTS
        assert total(found, "talon_http_request_duration_seconds_count", route="/livez") == REQUESTS
        assert total(found, "talon_bot_decision_seconds_count", game="sixty-six") >= 2  # made in the rq worker
        assert total(found, "talon_events_appended_total", type="deal_revealed") >= 1
        assert total(found, "talon_queue_jobs", state="failed") == 0

    for proc in metered.procs:
        lines = [line for line in proc.log().splitlines() if line.strip()]
        assert lines, proc.name
        for line in lines:
            entry = json.loads(line)  # every line is one JSON object
            assert {"ts", "level", "logger", "msg"} <= set(entry)
