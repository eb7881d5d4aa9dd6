"""A POST is first decided on the table the API process holds from its last load (no round trip). These
tests give two app instances (two API processes) one Redis, so that one holds a table the other has moved
on: the held table must never let a stale view decide anything, a revoked token act, or a current
If-Match fail."""

from __future__ import annotations

import pytest

from events.store import EventStore
from tests.support.talon import OPERATOR, auth, make_app, run_jobs, start_match


@pytest.fixture
def apps(redis_url):
    return make_app(redis_url).test_client(), make_app(redis_url).test_client()


def dealt_match(client, redis_url) -> tuple[str, list[str]]:
    game_id, tokens = start_match(client)
    run_jobs(redis_url)  # the first deal
    return game_id, tokens


def view(client, game_id: str, token: str) -> dict:
    answer = client.get(f"/v1/games/{game_id}", headers=auth(token))
    assert answer.status_code == 200
    return answer.json


def a_play(v: dict) -> dict:
    return next(a for a in v["legal_actions"] if a["type"] == "play")


def test_a_token_revoked_elsewhere_cannot_act_on_the_held_table(apps, redis_url, r):
    a, b = apps
    game_id, tokens = dealt_match(a, redis_url)
    seat = view(a, game_id, tokens[0])["to_act"][0]
    held = view(a, game_id, tokens[seat])  # a holds the table at this version
    reset = b.post(f"/v1/ops/games/{game_id}/seats/{seat}/reset", headers=auth(OPERATOR))
    assert reset.status_code == 200
    version = EventStore(r).version(game_id)
    refused = a.post(f"/v1/games/{game_id}/actions", json=a_play(held), headers=auth(tokens[seat]))
    assert refused.status_code == 401, refused.json
    assert EventStore(r).version(game_id) == version  # nothing written


def test_a_move_made_elsewhere_is_seen_before_deciding(apps, redis_url, r):
    a, b = apps
    game_id, tokens = dealt_match(a, redis_url)
    leader = view(a, game_id, tokens[0])["to_act"][0]
    view(a, game_id, tokens[leader])  # a holds the leader's turn
    lead = a_play(view(b, game_id, tokens[leader]))
    assert b.post(f"/v1/games/{game_id}/actions", json=lead, headers=auth(tokens[leader])).status_code == 201
    follower = 1 - leader
    follow = a_play(view(b, game_id, tokens[follower]))
    # a still holds the table before the lead, where the follower may not play: it must load and accept.
    answer = a.post(f"/v1/games/{game_id}/actions", json=follow, headers=auth(tokens[follower]))
    assert answer.status_code == 201, answer.json
    plays = [(e.actor, e.data["card"]) for e in EventStore(r).read(game_id) if e.type == "played"]
    assert plays == [(leader, lead["card"]), (follower, follow["card"])]


def test_if_match_naming_the_current_version_holds_though_the_held_table_is_behind(apps, redis_url):
    a, b = apps
    game_id, tokens = dealt_match(a, redis_url)
    leader = view(a, game_id, tokens[0])["to_act"][0]
    view(a, game_id, tokens[leader])
    lead = a_play(view(b, game_id, tokens[leader]))
    assert b.post(f"/v1/games/{game_id}/actions", json=lead, headers=auth(tokens[leader])).status_code == 201
    current = view(b, game_id, tokens[1 - leader])
    answer = a.post(
        f"/v1/games/{game_id}/actions",
        json=a_play(current),
        headers={**auth(tokens[1 - leader]), "If-Match": f'"{current["version"]}"'},
    )
    assert answer.status_code == 201, answer.json
    now = answer.json["to_act"][0]
    stale = a.post(
        f"/v1/games/{game_id}/actions",
        json=view(a, game_id, tokens[now])["legal_actions"][0],
        headers={**auth(tokens[now]), "If-Match": f'"{current["version"]}"'},
    )
    assert stale.status_code == 412  # and one it has left behind fails
