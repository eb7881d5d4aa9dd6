"""Players over HTTP (the Flask test client, a real Redis, real rq jobs): two players register and play
each other by key, one resumes the seat on a third client with the key alone, and their history,
profiles and the leaderboard follow the match; the players' routes refuse what they must."""

from __future__ import annotations

import logging
import random

from app.logformat import JsonFormatter
from tests.support.talon import OPERATOR, auth, make_app, run_jobs

MATCH = {
    "game": "sixty-six",
    "options": {"match_target": 1, "first_dealer": 0},
    "seats": [{"kind": "human"}, {"kind": "human"}],
}


def _register(client, name: str) -> tuple[str, str]:
    created = client.post("/v1/players", json={"name": name})
    assert created.status_code == 201, created.json
    assert created.headers["Location"] == f"/v1/players/{created.json['player_id']}"
    return created.json["player_id"], created.json["player_key"]


def _move(client, redis_url: str, game_id: str, tokens: dict[int, str], rng: random.Random) -> bool:
    """The seat whose turn it is plays a random legal action with its token; False once the match is over."""
    run_jobs(redis_url)
    view = client.get(f"/v1/games/{game_id}").json
    if view["status"] != "active":
        return False
    assert view["to_act"], (view["status"], view["version"], view.get("phase"), list(view))
    seat = view["to_act"][0]
    mine = client.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json
    played = client.post(
        f"/v1/games/{game_id}/actions", json=rng.choice(mine["legal_actions"]), headers=auth(tokens[seat])
    )
    assert played.status_code == 201, played.json
    return True


def test_two_players_play_by_key_and_one_resumes_the_seat_on_a_third_client(r, redis_url, caplog):
    caplog.set_level(logging.DEBUG)
    app = make_app(redis_url)
    ana_client, bo_client, third_client = app.test_client(), app.test_client(), app.test_client()
    ana, ana_key = _register(ana_client, "Ana")
    bo, bo_key = _register(bo_client, "Bo")
    game_id = ana_client.post("/v1/games", json=MATCH).json["game_id"]
    ana_seat = ana_client.post(f"/v1/games/{game_id}/players", json={"name": "Ana"}, headers=auth(ana_key)).json
    bo_seat = bo_client.post(f"/v1/games/{game_id}/players", json={"name": "Bo"}, headers=auth(bo_key)).json
    assert (ana_seat["seat"], bo_seat["seat"]) == (0, 1)
    assert [p["player_id"] for p in bo_seat["view"]["players"]] == [ana, bo]
    tokens = {0: ana_seat["token"], 1: bo_seat["token"]}
    rng = random.Random(5)
    for _ in range(2):  # the match (one round: match_target 1) goes on
        assert _move(ana_client, redis_url, game_id, tokens, rng)

    # A third client holds only Ana's key: it finds her seat and takes a fresh token for it.
    seats = third_client.get("/v1/players/me/seats", headers=auth(ana_key))
    assert seats.status_code == 200
    assert [(s["game_id"], s["seat"], s["name"]) for s in seats.json["seats"]] == [(game_id, 0, "Ana")]
    resumed = third_client.post(f"/v1/games/{game_id}/seats/0/resume", headers=auth(ana_key))
    assert resumed.status_code == 201, resumed.json
    assert resumed.json["seat"] == 0 and resumed.json["token"] != tokens[0]
    assert third_client.get(f"/v1/games/{game_id}", headers=auth(resumed.json["token"])).json["seat"] == 0
    assert ana_client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json["seat"] == 0  # still works
    # Only the seat's own player resumes it; a key is needed, and must be someone's.
    assert third_client.post(f"/v1/games/{game_id}/seats/0/resume", headers=auth(bo_key)).status_code == 409
    assert third_client.post(f"/v1/games/{game_id}/seats/0/resume").status_code == 401
    assert third_client.post(f"/v1/games/{game_id}/seats/0/resume", headers=auth("pk_nobody")).status_code == 401
    assert third_client.post(f"/v1/games/{game_id}/seats/0/resume", headers=auth(tokens[0])).status_code == 401

    tokens[0] = resumed.json["token"]  # Ana plays on from the third client
    while _move(third_client, redis_url, game_id, tokens, rng):
        pass
    run_jobs(redis_url)  # the match's end: the projection job
    final = third_client.get(f"/v1/games/{game_id}").json
    assert final["status"] == "finished"
    winner = final["winner"][0]

    for player, seat in ((ana, 0), (bo, 1)):
        history = third_client.get(f"/v1/players/{player}/matches")
        assert history.status_code == 200
        (item,) = history.json["matches"]
        assert not history.json["has_more"]
        assert (item["game_id"], item["game"], item["result"]["status"]) == (game_id, "sixty-six", "finished")
        assert [p["player_id"] for p in item["players"]] == [ana, bo]
        assert item["own"]["seats"] == [seat] and item["own"]["rated"]
        assert item["own"]["outcome"] == ("won" if seat == winner else "lost")
        assert item["own"]["rating_before"] == 1500
        assert item["own"]["rating_after"] == (1662 if seat == winner else 1338)  # test_projections' step 1
        profile = third_client.get(f"/v1/players/{player}").json
        assert profile["ratings"] == [
            {"game": "sixty-six", "rating": item["own"]["rating_after"], "deviation": 290, "matches": 1}
        ]
    assert third_client.get("/v1/players/me/seats", headers=auth(ana_key)).json == {"seats": []}  # over

    board = third_client.get("/v1/leaderboards/sixty-six", headers=auth(ana_key))
    assert board.status_code == 200
    assert board.json["entries"] == [] and board.json["min_matches"] == 10  # one match: below the threshold
    assert board.json["me"] == {
        "player_id": ana,
        "rank": None,
        "matches": 1,
        "deviation": 290,
        "rating": 1662 if winner == 0 else 1338,
    }
    assert third_client.get("/v1/leaderboards/sixty-six").json["me"] is None

    # The keys are in no event, view, answer or log line; the events carry the player ids.
    events = third_client.get(f"/v1/ops/games/{game_id}/events?limit=500", headers=auth(OPERATOR))
    text = events.get_data(as_text=True)
    claims = [e for e in events.json["events"] if e["type"] in ("seat_claimed", "seat_resumed")]
    assert [(e["type"], e["data"]["player_id"]) for e in claims] == [
        ("seat_claimed", ana),
        ("seat_claimed", bo),
        ("seat_resumed", ana),
    ]
    # The audit replays the claims by key and the resume like every other step.
    assert third_client.get(f"/v1/ops/games/{game_id}/audit", headers=auth(OPERATOR)).json["ok"]
    # Every log line as the service writes it (JSON, with the request's path and context).
    logged = "\n".join(JsonFormatter().format(record) for record in caplog.records)
    assert "/v1/players/me/seats" in logged and "/resume" in logged
    for key in (ana_key, bo_key):
        assert key not in text and key not in logged
        assert key not in third_client.get(f"/v1/games/{game_id}/events?limit=500").get_data(as_text=True)


def test_the_players_routes_refuse_bad_input(r, redis_url):
    client = make_app(redis_url).test_client()
    assert client.post("/v1/players", json={"name": ""}).status_code == 400
    assert client.post("/v1/players", json={"name": "x" * 41}).status_code == 400
    assert client.post("/v1/players", json={}).status_code == 400
    assert client.get("/v1/players/me").status_code == 401
    assert client.get("/v1/players/me/seats", headers=auth("pk_unknown")).status_code == 401
    missing = client.get("/v1/players/0123456789abcdef")
    assert missing.status_code == 404 and missing.json["type"].endswith("/unknown-player")
    assert client.get("/v1/players/not-an-id/matches").status_code == 404
    player, key = _register(client, "Cy")
    assert client.get("/v1/players/me", headers=auth(key)).json["player_id"] == player
    assert client.get(f"/v1/players/{player}/matches?cursor=bad").status_code == 400
    assert client.get(f"/v1/players/{player}/matches?limit=0").status_code == 400
    other, _ = _register(client, "Di")
    cursor = client.get(f"/v1/players/{other}/matches").json["next_cursor"]
    assert client.get(f"/v1/players/{player}/matches?cursor={cursor}").status_code == 400  # another's list
    assert client.get("/v1/leaderboards/chess").status_code == 404
    assert client.get("/v1/leaderboards/smear?limit=101").status_code == 400
    game_id = client.post("/v1/games", json=MATCH).json["game_id"]
    # A claim with a key nobody holds is refused (and takes no seat); the operator's token claims as a guest.
    assert (
        client.post(f"/v1/games/{game_id}/players", json={"name": "Eve"}, headers=auth("pk_nobody")).status_code == 401
    )
    guest = client.post(f"/v1/games/{game_id}/players", json={"name": "Eve"}, headers=auth(OPERATOR))
    assert guest.status_code == 201 and guest.json["view"]["players"][0]["player_id"] is None
    assert client.post(f"/v1/games/{game_id}/seats/0/resume", headers=auth(key)).status_code == 409
    assert client.post(f"/v1/games/{game_id}/seats/9/resume", headers=auth(key)).status_code == 409
    assert client.post("/v1/games/nosuchgame/seats/0/resume", headers=auth(key)).status_code == 404


def test_registering_is_rate_limited_per_address_apart_from_creating_matches(r, redis_url):
    client = make_app(redis_url, rate_limits_enabled=True, rate_limit_create="2/minute").test_client()
    assert [client.post("/v1/players", json={"name": "P"}).status_code for _ in range(3)] == [201, 201, 429]
    assert client.post("/v1/games", json=MATCH).status_code == 201  # another count
