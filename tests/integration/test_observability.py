"""Metrics and logs after real traffic, in one process (the default Prometheus registry): request
latency, events by type, conflicts, idempotent replays, bot decision time, queue depth and failed jobs;
and a whole match whose every log line is scanned for hands, decks, salts and tokens."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families
from rq import Queue, SimpleWorker

from app import logformat
from events.store import VersionConflict
from tests.support.talon import OPERATOR, TWO_HUMANS, auth, burst, make_app, run_jobs, start_match
from workers.__main__ import job_context


def samples(client) -> dict[tuple, float]:
    response = client.get("/metrics", headers=auth(OPERATOR))  # operators only
    assert response.status_code == 200 and response.mimetype == "text/plain"
    found = {}
    for family in text_string_to_metric_families(response.get_data(as_text=True)):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(found: dict, name: str, **labels) -> float:
    return found.get((name, tuple(sorted((k, str(v)) for k, v in labels.items()))), 0.0)


def total(found: dict, name: str, **labels) -> float:
    """The sum over every sample of `name` whose labels include these."""
    return sum(v for (n, ls), v in found.items() if n == name and all((k, str(val)) in ls for k, val in labels.items()))


def test_metrics_after_real_traffic(r, redis_url):
    app = make_app(redis_url)
    client = app.test_client()
    before = samples(client)
    created = client.post(
        "/v1/games", json={"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}]}
    )
    game_id = created.json["game_id"]
    token = client.post(f"/v1/games/{game_id}/players", json={"name": "Ana"}).json["token"]
    run_jobs(redis_url)
    view = client.get(f"/v1/games/{game_id}", headers=auth(token)).json
    while not view["legal_actions"]:
        run_jobs(redis_url)
        view = client.get(f"/v1/games/{game_id}", headers=auth(token)).json
    headers = {**auth(token), "Idempotency-Key": "once"}
    first = client.post(f"/v1/games/{game_id}/actions", headers=headers, json=view["legal_actions"][0])
    again = client.post(f"/v1/games/{game_id}/actions", headers=headers, json=view["legal_actions"][0])
    assert (first.status_code, again.status_code) == (201, 200)
    store = app.extensions["talon_application"].store
    with pytest.raises(VersionConflict):
        store.append(game_id, [{"type": "noise", "actor": None, "data": {}}], 1)
    run_jobs(redis_url)
    # A job that fails: rq keeps it in the failed registry, and the scrape shows it.
    Queue("talon", connection=redis.Redis.from_url(redis_url)).enqueue("workers.jobs.bot_turn", "nosuchgame", 1, 1)
    run_jobs(redis_url)
    assert client.get("/livez", headers={"X-Request-ID": "probe-1"}).headers.getlist("X-Request-ID") == ["probe-1"]
    assert len(client.get("/livez").headers["X-Request-ID"]) == 32

    after = samples(client)

    def grew(name: str, **labels) -> float:
        return total(after, name, **labels) - total(before, name, **labels)

    assert grew("talon_http_requests_total", method="POST", route="/v1/games", status="201") == 1
    assert grew("talon_http_requests_total", method="POST", route="/v1/games/<game_id>/actions") == 2
    assert grew("talon_http_request_duration_seconds_count", method="GET", route="/v1/games/<game_id>") >= 1
    assert grew("talon_http_request_duration_seconds_bucket", method="GET", route="/livez", le="+Inf") == 2
    assert grew("talon_events_appended_total", type="match_created") == 1
    assert grew("talon_events_appended_total", type="deal_committed") >= 1
    assert grew("talon_events_appended_total", type="dealt") >= 1
    assert grew("talon_events_appended_total", type="played") >= 2
    assert grew("talon_append_conflicts_total") == 1
    assert grew("talon_idempotent_replays_total") == 1
    assert grew("talon_bot_decision_seconds_count", game="sixty-six") >= 1
    assert grew("talon_bot_decision_seconds_sum", game="sixty-six") > 0
    assert value(after, "talon_queue_jobs", queue="talon", state="failed") == 1
    assert value(after, "talon_queue_jobs", queue="talon", state="queued") == 0
    assert value(after, "talon_queue_up") == 1
    assert grew("talon_http_requests_total", route="/metrics") == 0  # scrapes are not traffic


CARD = re.compile(r"(?<![A-Za-z0-9])[AKQJT2-9][SHDC](?![A-Za-z0-9])")


def test_no_hand_deck_salt_or_token_reaches_the_logs(r, redis_url):
    """A human and a bot, a match to the end, with every logger at DEBUG and the worker logging too (the
    bot's moves and, after them, the rounds' scorings and deals)."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logformat.JsonFormatter())
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        logformat.add_context(job_context)  # the jobs below run in this process, as in the worker: its log context
        app = make_app(redis_url)
        client = app.test_client()
        body = {**TWO_HUMANS, "options": {"match_target": 3}, "seats": [{"kind": "human"}, {"kind": "bot"}]}
        game_id, tokens = start_match(client, body)
        ticket = client.post(f"/v1/games/{game_id}/stream-tickets", headers=auth(tokens[0])).json["ticket"]
        with client.get(f"/v1/games/{game_id}/stream?ticket={ticket}", buffered=False) as stream:
            next(iter(stream.response))
        connection = redis.Redis.from_url(redis_url)
        worker = SimpleWorker([Queue("talon", connection=connection)], connection=connection)
        for _ in range(3000):
            view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json
            if view["status"] == "finished":
                break
            if not view["legal_actions"]:
                burst(worker, logging_level="DEBUG")  # the bot's move
                continue
            action = view["legal_actions"][0]
            assert client.post(f"/v1/games/{game_id}/actions", headers=auth(tokens[0]), json=action).status_code == 201
        assert view["status"] == "finished"
        client.get(f"/v1/games/{game_id}/events", headers=auth(tokens[0]))
        client.get(f"/v1/ops/games/{game_id}/events?limit=500", headers=auth(OPERATOR))
        client.get(f"/v1/ops/games/{game_id}/audit", headers=auth(OPERATOR))
        client.get(f"/v1/games/{game_id}", headers={"Authorization": "Bearer " + tokens[0] + "x"})
        full = client.get(f"/v1/ops/games/{game_id}/events?limit=500", headers=auth(OPERATOR)).json["events"]
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)

    text = out.getvalue()
    lines = [json.loads(line) for line in text.splitlines()]
    assert len(lines) > 100
    requests = [line for line in lines if line["msg"] == "request"]
    assert requests and all("request_id" in line for line in requests)
    assert any(
        line.get("game_id") == game_id and line.get("seat") == 0 and line["route"].endswith("/actions")
        for line in requests
    )
    assert any(line.get("job_id", "").startswith("bot-" + game_id) and line.get("game_id") == game_id for line in lines)
    assert any(line["msg"] == "appended" and line.get("types") for line in lines)

    secrets = list(tokens) + [ticket, OPERATOR]
    for event in full:
        data = event["data"]
        secrets += [data.get("token_hash"), data.get("salt")]
        if data.get("seed") is not None:
            secrets.append(str(data["seed"]))
        for hand in data.get("hands") or []:
            secrets += [json.dumps(hand), ",".join(hand), json.dumps(hand, separators=(",", ":"))]
        if data.get("deck"):
            secrets += [json.dumps(data["deck"]), ",".join(data["deck"])]
    for secret in filter(None, secrets):
        assert secret not in text, f"a secret reached the logs: {secret[:20]}..."
    leaked = CARD.findall(text)
    assert leaked == [], f"cards in the logs: {leaked[:10]}"


def test_a_token_in_a_message_is_masked():
    record = logging.LogRecord(
        "x",
        logging.INFO,
        __file__,
        1,
        "got %s and %s",
        ("0123456789abcdef.Xy0123456789012345678901234567890123456789", "Bearer sEcReT"),
        None,
    )
    line = json.loads(logformat.JsonFormatter().format(record))
    assert line["msg"] == "got [redacted] and Bearer [redacted]"
