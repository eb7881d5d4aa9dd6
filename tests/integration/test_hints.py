"""GET /v1/games/{id}/hint on a real Redis: the expert's suggestion for the seat to act, and nothing more."""

from __future__ import annotations

import pytest

from tests.support.talon import auth, make_app
from tests.support.talon import start_match as start


@pytest.fixture
def client(r, redis_url):
    return make_app(redis_url).test_client()


def test_hint_suggests_a_legal_action_with_a_value_for_each(client):
    game_id, tokens = start(client)
    view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[1])).json  # dealer 0: seat 1 leads
    hint = client.get(f"/v1/games/{game_id}/hint", headers=auth(tokens[1]))
    assert hint.status_code == 200, hint.json
    body = hint.json
    assert body["suggestion"] in view["legal_actions"]
    assert [row["action"] for row in body["values"]] == view["legal_actions"]
    assert body["searched"]
    meldable = {a["suit"] for a in view["legal_actions"] if a["type"] == "meld"}
    for row in body["values"]:  # a value for each, but for the moves the expert proved dominated
        action = row["action"]
        dominated = (
            action.get("card", "  ")[0] in "KQ"
            and action.get("card", "  ")[1] in meldable
            or {"type": "exchange"} in view["legal_actions"]
            and action["type"] != "exchange"
        )
        assert isinstance(row["value"], float) or (row["value"] is None and dominated), row
    assert body["version"] == view["version"]


def test_hint_is_409_when_not_the_seats_turn_and_changes_nothing(client):
    game_id, tokens = start(client)
    before = client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json["version"]
    refused = client.get(f"/v1/games/{game_id}/hint", headers=auth(tokens[0]))
    assert refused.status_code == 409
    assert refused.headers["Content-Type"].startswith("application/problem+json")
    assert client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json["version"] == before


def test_hint_needs_a_seat_token(client):
    game_id, _ = start(client)
    assert client.get(f"/v1/games/{game_id}/hint").status_code == 401
    assert client.get("/v1/games/nosuchgame/hint", headers=auth("x")).status_code in (401, 404)


def test_hint_reveals_no_card_the_seat_cannot_see(client):
    game_id, tokens = start(client)
    view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[1])).json
    text = client.get(f"/v1/games/{game_id}/hint", headers=auth(tokens[1])).get_data(as_text=True)
    own = set(view["round"]["hand"]) | {view["round"]["trump_card"]}
    from games.sixtysix import RULES

    hidden = set(RULES.deck(RULES.normalize_options({}, 2))) - own
    assert not [card for card in hidden if f'"{card}"' in text]
