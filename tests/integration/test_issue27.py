"""Regression tests of issue 27 (hardening): one per finding, named after it."""
from __future__ import annotations

import pytest
import redis

from tests.support.redis_proc import RedisProcess
from tests.support.talon import OPERATOR, auth, make_app, matches_on, run_jobs

BOT_VS_HUMAN = {"game": "sixty-six", "options": {"first_dealer": 0},
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}]}
BOTS_ONLY = {"game": "sixty-six", "seats": [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "basic"}]}


@pytest.fixture
def queue_redis():
    """A queue Redis (REDIS_URL) of this test's own, to stop while the events Redis stays up."""
    server = RedisProcess().start()
    yield server
    server.stop()


def test_finding_2_claim_with_queue_down_changes_nothing(r, redis_url, queue_redis, monkeypatch):
    """With the queue Redis down, create, claim and reset either store and answer success (the sweeper
    enqueues the jobs they owe later) or answer an error and store nothing: never an error after a write."""
    client = make_app(queue_redis.url, events_redis_url=redis_url).test_client()
    waiting = client.post("/v1/games", json=BOT_VS_HUMAN).json["game_id"]
    playing = client.post("/v1/games", json=BOT_VS_HUMAN).json["game_id"]
    seat_token = client.post(f"/v1/games/{playing}/players", json={"name": "Bo"}).json["token"]
    queue_redis.stop()

    created = client.post("/v1/games", json=BOTS_ONLY)
    claimed = client.post(f"/v1/games/{waiting}/players", json={"name": "Ana"})
    reset = client.post(f"/v1/ops/games/{playing}/seats/0/reset", headers=auth(OPERATOR))
    assert (created.status_code, claimed.status_code, reset.status_code) == (201, 201, 200), \
        (created.get_data(as_text=True), claimed.get_data(as_text=True), reset.get_data(as_text=True))
    # What was answered is what is stored: the claimed token is the seat's, the reset seat is open again.
    assert client.get(f"/v1/games/{waiting}", headers=auth(claimed.json["token"])).json["seat"] == 0
    assert client.get(f"/v1/games/{playing}", headers=auth(seat_token)).status_code == 401
    assert client.get(f"/v1/games/{playing}").json["players"][0]["claimed"] is False

    # Once the queue is back, the sweeper enqueues what the three writes owe, and the games go on.
    queue_redis.start()
    talon = matches_on(redis.Redis.from_url(queue_redis.url), events_redis_url=redis_url)
    before = {g: talon.table(g).version for g in (created.json["game_id"], waiting, playing)}
    assert talon.sweep(now_ms=0, idle_expiry_s=10**9) == 3
    monkeypatch.setenv("EVENTS_REDIS_URL", redis_url)  # the worker's events Redis
    run_jobs(queue_redis.url, max_jobs=3)
    assert all(talon.table(g).version > v for g, v in before.items())


def test_finding_5_operator_actions_on_a_finished_match_are_refused(r, redis_url):
    """A seat reset or an abandon after the end is 409 and writes nothing; the log still audits."""
    client = make_app(redis_url).test_client()
    game_id = client.post("/v1/games", json=BOT_VS_HUMAN).json["game_id"]
    client.post(f"/v1/games/{game_id}/players", json={"name": "Ana"})
    # The operator reopens the human seat: its stand-in bot plays it to the end of the match.
    assert client.post(f"/v1/ops/games/{game_id}/seats/0/reset", headers=auth(OPERATOR)).status_code == 200
    for _ in range(50):
        run_jobs(redis_url)
        if client.get(f"/v1/games/{game_id}").json["status"] == "finished":
            break
    ended = client.get(f"/v1/games/{game_id}").json
    assert ended["status"] == "finished"
    for path in (f"/v1/ops/games/{game_id}/seats/0/reset", f"/v1/ops/games/{game_id}/abandon"):
        refused = client.post(path, headers=auth(OPERATOR))
        assert refused.status_code == 409, refused.get_data(as_text=True)
        assert refused.json["type"].endswith("/match-not-active")
    assert client.get(f"/v1/games/{game_id}").json["version"] == ended["version"]
    report = client.get(f"/v1/ops/games/{game_id}/audit", headers=auth(OPERATOR)).json
    assert report["ok"] and report["checks"]["replay"]["match_result"] == "reproduced", report["first_broken"]
