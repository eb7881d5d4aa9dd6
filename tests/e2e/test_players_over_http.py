"""Players over real HTTP, against the real processes (gunicorn, an rq worker, Redis): two players each
with a session of their own play each other by key; a third session, holding only the first player's
key, finds the seat, resumes it and plays the match to its end; the worker's projection job then puts
the match into both histories and moves both ratings. A match of bots alone owes no projection job: the
worker's ticker has the projections record its end all the same."""

from __future__ import annotations

import random
import time

import pytest
import redis
import requests

from adapters.redis_projections import RedisProjectionStore
from tests.e2e.client import bearer

pytestmark = pytest.mark.slow

MATCH = {
    "game": "sixty-six",
    "options": {"match_target": 1, "first_dealer": 0},
    "seats": [{"kind": "human"}, {"kind": "human"}],
}


def _register(http: requests.Session, service, name: str) -> tuple[str, str]:
    created = http.post(service.url("/v1/players"), json={"name": name}, timeout=10)
    assert created.status_code == 201, created.text
    return created.json()["player_id"], created.json()["player_key"]


def _step(
    sessions: dict[int, requests.Session], service, game_id: str, tokens: dict[int, str], rng: random.Random
) -> bool:
    """The seat the match waits for moves (each seat from its own session); False once it is over."""
    url = service.url(f"/v1/games/{game_id}")
    view = sessions[0].get(url, timeout=10).json()
    while view["status"] == "active" and not view["to_act"]:  # the workers' turn
        view = (
            sessions[0]
            .get(url, params={"wait": 5}, headers={"If-None-Match": f'"{view["version"]}"'}, timeout=15)
            .json()
        )
    if view["status"] != "active":
        return False
    seat = view["to_act"][0]
    mine = sessions[seat].get(url, headers=bearer(tokens[seat]), timeout=10).json()
    played = sessions[seat].post(
        f"{url}/actions", json=rng.choice(mine["legal_actions"]), headers=bearer(tokens[seat]), timeout=10
    )
    assert played.status_code == 201, played.text
    return True


def test_two_players_by_key_and_a_resume_on_a_third_client(service):
    ana_http, bo_http, third = requests.Session(), requests.Session(), requests.Session()
    ana, ana_key = _register(ana_http, service, "Ana")
    bo, bo_key = _register(bo_http, service, "Bo")
    game_id = ana_http.post(service.url("/v1/games"), json=MATCH, timeout=10).json()["game_id"]
    tokens = {}
    for http, key, name in ((ana_http, ana_key, "Ana"), (bo_http, bo_key, "Bo")):
        claimed = http.post(
            service.url(f"/v1/games/{game_id}/players"), json={"name": name}, headers=bearer(key), timeout=10
        )
        assert claimed.status_code == 201, claimed.text
        tokens[claimed.json()["seat"]] = claimed.json()["token"]
    rng = random.Random(8)
    sessions = {0: ana_http, 1: bo_http}
    for _ in range(2):
        assert _step(sessions, service, game_id, tokens, rng)

    seats = third.get(service.url("/v1/players/me/seats"), headers=bearer(ana_key), timeout=10).json()["seats"]
    assert [(s["game_id"], s["seat"]) for s in seats] == [(game_id, 0)]
    resumed = third.post(service.url(f"/v1/games/{game_id}/seats/0/resume"), headers=bearer(ana_key), timeout=10)
    assert resumed.status_code == 201, resumed.text
    assert ana_http.get(service.url(f"/v1/games/{game_id}"), headers=bearer(tokens[0]), timeout=10).json()["seat"] == 0
    tokens[0], sessions[0] = resumed.json()["token"], third
    while _step(sessions, service, game_id, tokens, rng):
        pass

    deadline = time.monotonic() + 20
    while not (history := third.get(service.url(f"/v1/players/{bo}/matches"), timeout=10).json()["matches"]):
        assert time.monotonic() < deadline, "the worker never recorded the match's end"
        time.sleep(0.2)
    assert history[0]["game_id"] == game_id and history[0]["own"]["rated"]
    profiles = [third.get(service.url(f"/v1/players/{p}"), timeout=10).json()["ratings"] for p in (ana, bo)]
    assert sorted(r[0]["rating"] for r in profiles) == [1338, 1662]


def test_the_worker_records_a_match_nobody_registered_plays_without_a_job_of_its_own(service):
    """Two bots play a match to its end; its end enqueues no projection job (nobody's history or rating
    changes), and the worker's ticker has the projections record it within seconds all the same."""
    http = requests.Session()
    body = {"game": "sixty-six", "options": {"match_target": 1}, "seats": [{"kind": "bot"}, {"kind": "bot"}]}
    game_id = http.post(service.url("/v1/games"), json=body, timeout=10).json()["game_id"]
    client = redis.Redis.from_url(service.redis_url)
    projections = RedisProjectionStore(client)
    deadline = time.monotonic() + 20
    while not projections.has_match(projections.active(), game_id):
        assert time.monotonic() < deadline, f"the match's end was never recorded\n{service.logs()}"
        time.sleep(0.2)
    assert http.get(service.url(f"/v1/games/{game_id}"), timeout=10).json()["status"] == "finished"
    # rq logs every job it runs: the worker's log keeps what its registries forget after the results' TTL.
    worker_log = next(p for p in service.procs if p.name == "worker").log()
    assert "workers.jobs.catch_up()" in worker_log and "workers.jobs.project(" not in worker_log
