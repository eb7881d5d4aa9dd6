"""Regression tests of the outside security review's findings (issue 27) that are about requests: each
test reproduces its finding as the review describes it."""
from __future__ import annotations

import pytest

from app.matches import Matches
from events.store import EventStore
from games.errors import OptionError
from tests.support.talon import auth, make_app, matches_on, run_jobs, start_match

TWO_HUMANS = {"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}]}
HUMAN_AND_BOT = {"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}]}


@pytest.fixture
def app(r, redis_url):
    return make_app(redis_url)


@pytest.fixture
def client(app):
    return app.test_client()


def dealt(client, redis_url, body=TWO_HUMANS):
    """A match of two humans, dealt: its id, the seats' tokens and the seat whose turn it is."""
    game_id, tokens = start_match(client, body)
    run_jobs(redis_url)
    views = [client.get(f"/v1/games/{game_id}", headers=auth(t)).get_json() for t in tokens]
    return game_id, tokens, next(v["seat"] for v in views if v["legal_actions"])


def legal(client, game_id, token) -> dict:
    return client.get(f"/v1/games/{game_id}", headers=auth(token)).get_json()["legal_actions"][0]


# -- finding 11: idempotency keys per seat, takeover_after's range, names --------------------------------

def test_finding_11_an_idempotency_key_is_scoped_to_its_seat(client, redis_url, r):
    """Another seat sending a key a seat has used sends a new request (it was 409 idempotency-key-reused)."""
    game_id, tokens, first = dealt(client, redis_url)
    second = 1 - first
    key = {"Idempotency-Key": "move-1"}
    lead = legal(client, game_id, tokens[first])
    assert client.post(f"/v1/games/{game_id}/actions", json=lead, headers={**auth(tokens[first]), **key}).status_code == 201
    follow = legal(client, game_id, tokens[second])
    answer = client.post(f"/v1/games/{game_id}/actions", json=follow, headers={**auth(tokens[second]), **key})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    # Each seat's own retry is still answered from its record, and a different body under it is refused.
    version = EventStore(r).version(game_id)
    replay = client.post(f"/v1/games/{game_id}/actions", json=lead, headers={**auth(tokens[first]), **key})
    assert replay.status_code == 200
    other = {"type": "close"} if lead != {"type": "close"} else {"type": "draw"}
    reused = client.post(f"/v1/games/{game_id}/actions", json=other, headers={**auth(tokens[first]), **key})
    assert reused.status_code == 409 and reused.get_json()["type"].endswith("/idempotency-key-reused")
    assert EventStore(r).version(game_id) == version


@pytest.mark.parametrize("value", [0, False, True, -1, 21, 1000, 2.5, "2", None])
def test_finding_11_takeover_after_outside_its_range_is_refused(client, r, value):
    """`takeover_after: 0` or `false` silently became 2."""
    if value is None:  # null is not "omitted": the option has no null
        body = {**HUMAN_AND_BOT, "options": {"takeover_after": None}}
    else:
        body = {**HUMAN_AND_BOT, "options": {"takeover_after": value}}
    refused = client.post("/v1/games", json=body)
    assert refused.status_code == 400, refused.get_data(as_text=True)
    assert refused.get_json()["errors"][0]["field"] == "options.takeover_after"
    assert r.dbsize() == 0


@pytest.mark.parametrize("value", [0, False, 21])
def test_finding_11_the_engine_refuses_takeover_after_outside_its_range(r, value):
    """The use case as well (the engine read 0 and false as "omitted"): 422 `invalid-option` over HTTP."""
    talon: Matches = matches_on(r)
    with pytest.raises(OptionError) as refused:
        talon.create_match("sixty-six", {"takeover_after": value}, HUMAN_AND_BOT["seats"])
    assert refused.value.field == "takeover_after"
    assert talon.create_match("sixty-six", {}, HUMAN_AND_BOT["seats"]).takeover_after == 2


@pytest.mark.parametrize("name", ["a\x00b", "Ana\r\nSet-Cookie: x", "Ana\n", "\tAna", "a\x7f", "a\x85",
                                  "\u202eanA", "a\u202a", "a\u202b", "a\u202c", "a\u202d", "a\u2066b", "a\u2067",
                                  "a\u2068", "a\u2069", "", "x" * 41])
def test_finding_11_names_with_control_or_bidi_characters_are_refused(client, r, name):
    game_id = client.post("/v1/games", json=HUMAN_AND_BOT).get_json()["game_id"]
    version = EventStore(r).version(game_id)
    refused = client.post(f"/v1/games/{game_id}/players", json={"name": name})
    assert refused.status_code == 400, refused.get_data(as_text=True)
    assert refused.get_json()["errors"][0]["field"] == "name"
    assert EventStore(r).version(game_id) == version


def test_finding_11_names_are_stored_nfc_normalized(client):
    game_id = client.post("/v1/games", json=HUMAN_AND_BOT).get_json()["game_id"]
    decomposed = "Zoe\u0308 " + "e\u0301" * 17  # 40 code points, 22 once composed
    claimed = client.post(f"/v1/games/{game_id}/players", json={"name": decomposed})
    assert claimed.status_code == 201, claimed.get_data(as_text=True)
    assert claimed.get_json()["view"]["players"][0]["name"] == "Zoë " + "é" * 17
