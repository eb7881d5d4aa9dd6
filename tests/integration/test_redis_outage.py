"""Redis goes away and comes back: 503 with Retry-After meanwhile, nothing acknowledged is lost."""

from __future__ import annotations

import random
import time

import pytest
import redis

from tests.support.processes import start_worker
from tests.support.redis_proc import RedisProcess, free_port
from tests.support.talon import auth, await_finished, make_app, matches_on, run_jobs


@pytest.fixture
def own_redis():
    """A Redis of this test's own, with the append-only file on, that the test may stop and restart."""
    server = RedisProcess(appendonly=True).start()
    yield server
    server.stop()


def test_outage_gives_503_and_the_service_recovers_without_losing_moves(own_redis):
    app = make_app(own_redis.url)
    client = app.test_client()
    body = {"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}]}
    game_id = client.post("/v1/games", json=body).json["game_id"]
    token = client.post(f"/v1/games/{game_id}/players", json={"name": "Ana"}).json["token"]
    rng = random.Random(9)
    acknowledged = []

    def play_some(moves: int) -> None:
        for _ in range(moves):
            run_jobs(own_redis.url)
            view = client.get(f"/v1/games/{game_id}", headers=auth(token)).json
            if view["status"] == "finished":
                return
            if view["legal_actions"]:
                response = client.post(
                    f"/v1/games/{game_id}/actions", json=rng.choice(view["legal_actions"]), headers=auth(token)
                )
                assert response.status_code == 201
                acknowledged.append(response.json["version"])

    play_some(6)
    own_redis.stop()
    for response in (
        client.get(f"/v1/games/{game_id}", headers=auth(token)),
        client.post(f"/v1/games/{game_id}/actions", json={"type": "draw"}, headers=auth(token)),
        client.post("/v1/games", json=body),
        client.get("/readyz"),
    ):
        assert response.status_code == 503, response.get_data(as_text=True)
        assert response.content_type == "application/problem+json"
        assert int(response.headers["Retry-After"]) > 0
    assert client.get("/livez").status_code == 200  # alive, only not ready

    own_redis.start()  # same port, same directory: it reloads the append-only file
    assert client.get("/readyz").status_code == 200
    events = client.get(f"/v1/games/{game_id}/events?limit=500", headers=auth(token)).json["events"]
    versions = [e["version"] for e in events]
    assert versions == list(range(1, len(versions) + 1))
    assert set(acknowledged) <= set(versions)  # every acknowledged action survived the restart
    for _ in range(400):
        play_some(50)
        if client.get(f"/v1/games/{game_id}").json["status"] == "finished":
            break
    assert client.get(f"/v1/games/{game_id}").json["status"] == "finished"


def test_a_worker_process_outlives_an_outage(own_redis, tmp_path):
    log = tmp_path / "worker.log"
    worker = start_worker(own_redis.url, log, TALON_SWEEP_INTERVAL_S="1")
    try:
        time.sleep(1.0)
        own_redis.stop()
        time.sleep(2.0)
        assert worker.poll() is None, "the worker died with the connection:\n" + log.read_text()
        own_redis.start()
        talon = matches_on(redis.Redis.from_url(own_redis.url))
        created = talon.create_match("sixty-six", {}, [{"kind": "bot"}, {"kind": "bot"}], seed=4)
        await_finished(talon, created.game_id, 40, lambda: "the worker did not resume:\n" + log.read_text())
    finally:
        worker.terminate()
        worker.wait(10)


def test_a_worker_started_while_the_event_stores_cluster_is_away_waits_for_it(redis_url, tmp_path):
    """The worker's ticker builds what it reads the projections with at its first tick, not at start: a
    Cluster's client reads its slots when it is made, and failed there, before the worker's loop that
    waits out outages. Now the worker lives, and says so once, not at every tick."""
    log = tmp_path / "worker.log"
    # A sweep each second: the queue's Redis answers it at every tick, between the catch-up's failures.
    cluster = f"redis+cluster://127.0.0.1:{free_port()}"
    worker = start_worker(redis_url, log, EVENTS_REDIS_URL=cluster, TALON_SWEEP_INTERVAL_S="1")
    try:
        time.sleep(3.0)  # three ticks
        assert worker.poll() is None, "the worker died:\n" + log.read_text()
        assert log.read_text().count("could not enqueue the projections' catch-up") == 1, log.read_text()
    finally:
        worker.terminate()
        worker.wait(10)


def test_readyz_answers_while_every_connection_of_the_requests_pool_is_in_use(redis_url):
    """/readyz asks Redis on connections of its own: a probe that waited for the requests' pool, all in
    use under load, would report the load (or time out) instead of whether Redis answers."""
    app = make_app(redis_url, redis_pool_size=1)
    pool = app.extensions["talon_application"].redis.connection_pool
    client = app.test_client()
    assert client.get("/livez").status_code == 200  # the first request's one-time set-up, not timed
    taken = pool.get_connection()  # the pool's only connection, held as a request under load would
    try:
        started = time.monotonic()
        assert client.get("/readyz").status_code == 200
        assert time.monotonic() - started < 1.0  # a wait for the pool would last its timeout (POOL_WAIT_S)
    finally:
        pool.release(taken)
