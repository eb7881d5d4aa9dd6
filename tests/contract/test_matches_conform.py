"""Whole matches of every game and variant, played to their end by random legal actions, with every
answer checked against openapi.yaml: each seat's view at each of its turns, the spectator's, every
move's answer, a hint, the event log as each seat, a spectator and the operator read it (page by page),
the event stream's messages, the lobby, the feed and the audit report. A field the code sends that the
spec does not describe (or describes otherwise) fails here: the response schemas are closed
(`additionalProperties: false`) and every key is required.

The app's client checks every response it gets (tests/support/talon.py ServerLikeClient); the stream's
messages are checked here, each `data:` against the Event schema.
"""

from __future__ import annotations

import random

import pytest

from tests.support.contract import check_schema, sse_messages
from tests.support.talon import OPERATOR, auth, make_contract_app, run_jobs

MATCHES = [
    ("sixty-six", {"match_target": 5}, 2),
    ("sixty-six", {"variant": "2p20", "match_target": 5}, 2),
    ("sixty-six", {"variant": "2p32", "match_target": 5, "draw_bonus": True}, 2),
    ("sixty-six", {"profile": "schnapsen", "match_target": 5}, 2),
    ("sixty-six", {"match_target": 5, "non_closer_may_exchange_at_close": True, "dealer_rule": "loser_deals"}, 2),
    ("sixty-six", {"match_target": 5}, 3),
    ("sixty-six", {"three_player_mode": "pagat_no_talon", "match_target": 5}, 3),
    ("sixty-six", {"match_target": 5}, 4),
    ("fifty-six", {"starting_tables": 1}, 4),
    ("fifty-six", {"starting_tables": 2, "all_pass_contract": "redeal", "pass_is_final": True}, 4),
    ("fifty-six", {"starting_tables": 1, "double_scoring": "additive"}, 6),
    ("fifty-six", {"starting_tables": 1, "team_format": "two_sides"}, 8),
    ("smear", {"match_target": 3}, 4),
    ("smear", {"match_target": 3, "widow_size": 2, "all_pass": "stick_dealer"}, 4),
    (
        "smear",
        {"match_target": 3, "widow_size": 3, "all_pass": "pass_deal", "high_low_rule": "highest_lowest_in_play"},
        4,
    ),
]
MAX_STEPS = 4000


@pytest.fixture(scope="module")
def app(redis_url):
    return make_contract_app(redis_url)


def choose(rng: random.Random, legal: list[dict]) -> dict:
    """A random legal action; a Sixty-Six declaration or close only now and then, so that deals are played
    out (a random 'out' is mostly false and ends a match in a deal or two)."""
    patient = [a for a in legal if a["type"] not in ("declare_out", "close")]
    return rng.choice(patient if patient and rng.random() < 0.95 else legal)


def _pages(client, path: str, headers: dict) -> list[dict]:
    events, cursor = [], None
    for _ in range(100):
        page = client.get(path, query_string={"limit": 97, **({"cursor": cursor} if cursor else {})}, headers=headers)
        assert page.status_code == 200, page.json
        events += page.json["events"]
        cursor = page.json["next_cursor"]
        if not page.json["has_more"]:
            return events
    raise AssertionError("the log did not end")


def _stream(client, game_id: str, headers: dict | None = None, query: str = "") -> list[dict]:
    """The stream's messages from the first event, read until the match's end (or the stream's)."""
    text = ""
    with client.get(f"/v1/games/{game_id}/stream{query}", headers=headers or {}, buffered=False) as response:
        assert response.status_code == 200 and response.mimetype == "text/event-stream"
        for chunk in response.response:
            text += chunk.decode()
            if "event: match_ended\n" in text or "event: match_abandoned\n" in text:
                break
    return sse_messages(text)


@pytest.mark.parametrize(
    "game, options, players",
    MATCHES,
    ids=[f"{g}-{n}p-{'-'.join(f'{k}={v}' for k, v in o.items())}" for g, o, n in MATCHES],
)
def test_a_whole_match_conforms_to_the_spec(app, redis_url, game, options, players):
    client, rng = app.test_client(), random.Random(f"{game}{options}{players}")
    created = client.post(
        "/v1/games",
        headers=auth(OPERATOR),
        json={"game": game, "options": options, "seats": [{"kind": "human"}] * players, "seed": rng.randrange(2**31)},
    )
    assert created.status_code == 201, created.json
    game_id = created.json["game_id"]
    tokens = [client.post(f"/v1/games/{game_id}/players", json={"name": f"p{i}"}).json["token"] for i in range(players)]
    hinted = False
    for step in range(MAX_STEPS):
        run_jobs(redis_url)
        view = client.get(f"/v1/games/{game_id}").json
        if view["status"] == "finished":
            break
        if step % 25 == 0:
            client.get("/v1/games", query_string={"status": "active"})
        seat = view["to_act"][0]
        mine = client.get(f"/v1/games/{game_id}", headers={**auth(tokens[seat]), "If-None-Match": '"0"'}).json
        if not hinted:
            assert client.get(f"/v1/games/{game_id}/hint", headers=auth(tokens[seat])).status_code == 200
            hinted = True
        moved = client.post(
            f"/v1/games/{game_id}/actions", json=choose(rng, mine["legal_actions"]), headers=auth(tokens[seat])
        )
        assert moved.status_code == 201, moved.json
    else:
        raise AssertionError(f"the match did not end within {MAX_STEPS} steps")
    assert view["winner"], view

    everyone = [auth(t) for t in tokens] + [{}, auth(OPERATOR)]
    logs = [_pages(client, f"/v1/games/{game_id}/events", headers) for headers in everyone]
    logs.append(_pages(client, f"/v1/ops/games/{game_id}/events", auth(OPERATOR)))
    assert len({len(log) for log in logs}) == 1 and logs[-1][-1]["type"] == "match_ended"

    streamed = _stream(client, game_id)
    ticket = client.post(f"/v1/games/{game_id}/stream-tickets", headers=auth(tokens[0])).json["ticket"]
    mine = _stream(client, game_id, query=f"?ticket={ticket}")
    assert [m["data"] for m in streamed] == logs[players] and [m["data"] for m in mine] == logs[0]

    report = client.get(f"/v1/ops/games/{game_id}/audit", headers=auth(OPERATOR)).json
    assert report["ok"], report["first_broken"]
    check_schema("AuditReport", report)
    client.get("/v1/ops/feed", query_string={"limit": 50}, headers=auth(OPERATOR))
