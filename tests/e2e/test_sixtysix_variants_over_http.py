"""Sixty-Six for three and four players over HTTP against the real processes (Redis, gunicorn, an rq
worker): a 4p match with two human seats (random legal clients, seeded) and two basic bots, and a 3p
match of three bots, each played to its end. Checked against the operator's full log: what each human
saw of every event hid the other hands and the dead cards, and the standing is one entry per side.
"""

from __future__ import annotations

import random
import time

import pytest
import requests

from tests.e2e.client import bearer, event_log, next_view
from tests.e2e.conftest import Service

pytestmark = pytest.mark.slow

MATCH_TIMEOUT_S = 50.0


class Client:
    def __init__(self, service: Service, http: requests.Session):
        self.service, self.http = service, http

    def create(self, options: dict, seats: list[dict], seed: int) -> str:
        response = self.http.post(
            self.service.url("/v1/games"),
            headers=bearer(self.service.operator_token),
            json={"game": "sixty-six", "options": options, "seats": seats, "seed": seed},
            timeout=5,
        )
        assert response.status_code == 201, response.text
        return response.json()["game_id"]

    def claim(self, game_id: str, seat: int) -> str:
        response = self.http.post(
            self.service.url(f"/v1/games/{game_id}/players"), json={"name": f"human {seat}", "seat": seat}, timeout=5
        )
        assert response.status_code == 201, response.text
        return response.json()["token"]

    def view(self, game_id: str, token: str | None = None) -> dict:
        response = self.http.get(
            self.service.url(f"/v1/games/{game_id}"), headers=bearer(token) if token else {}, timeout=5
        )
        assert response.status_code == 200, response.text
        return response.json()

    def act(self, game_id: str, token: str, view: dict, action: dict) -> dict:
        response = self.http.post(
            self.service.url(f"/v1/games/{game_id}/actions"),
            json=action,
            timeout=5,
            headers={**bearer(token), "If-Match": f'"{view["version"]}"'},
        )
        assert response.status_code == 201, (action, response.text)
        return response.json()

    def events(self, game_id: str, token: str | None = None, operator: bool = False) -> list[dict]:
        headers = bearer(self.service.operator_token if operator else token) if (operator or token) else {}
        return event_log(self.http, self.service, game_id, headers, ops=operator, max_pages=100)


def check_hidden(seen: list[dict], truth: list[dict], seat: int | None) -> int:
    """The seat's copy of the log against the operator's: hands of others, the stock and dead cards
    hidden, drawn cards of others hidden unless face up, everything else the same. Returns the deals."""
    assert [e["version"] for e in seen] == [e["version"] for e in truth]
    deals = 0
    for shown, event in zip(seen, truth):
        assert shown["type"] == event["type"]
        data, got = event["data"], shown["data"]
        if event["type"] == "dealt":
            deals += 1
            assert got["hands"] == [h if i == seat else None for i, h in enumerate(data["hands"])]
            assert "stock" not in got and "dead" not in got
            assert got["trump_card"] == data["trump_card"]
        elif event["type"] == "drew":
            for d_seen, d in zip(got["draws"], data["draws"], strict=True):
                assert d_seen["card"] == (d["card"] if d["face_up"] or d["seat"] == seat else None)
        elif event["type"] not in ("match_created", "seat_claimed"):
            assert got == data, event["type"]
    return deals


def play_until_finished(client: Client, game_id: str, tokens: dict[int, str], rng: random.Random) -> dict:
    """Each human picks a random legal action when it may act; a spectator long-polls otherwise."""
    deadline = time.monotonic() + MATCH_TIMEOUT_S
    view = client.view(game_id)
    while view["status"] != "finished":
        assert time.monotonic() < deadline, f"the match did not finish within {MATCH_TIMEOUT_S} s"
        humans = [s for s in view["to_act"] if s in tokens]
        if humans:
            seat = humans[0]
            mine = client.view(game_id, tokens[seat])
            assert mine["to_act"] == [seat] and mine["legal_actions"], mine
            assert len(mine["round"]["hand"]) == mine["round"]["hand_sizes"][seat]
            client.act(game_id, tokens[seat], mine, rng.choice(mine["legal_actions"]))
            view = client.view(game_id)
        else:
            view = next_view(client.http, client.service, game_id, view)
    return view


def test_a_four_player_match_with_two_humans_and_two_bots(service):
    rng = random.Random(4)
    with requests.Session() as http:
        client = Client(service, http)
        game_id = client.create(
            {"variant": "4p", "match_target": 3},
            [
                {"kind": "human"},
                {"kind": "human"},
                {"kind": "bot", "level": "basic"},
                {"kind": "bot", "level": "basic"},
            ],
            seed=404,
        )
        tokens = {seat: client.claim(game_id, seat) for seat in (0, 1)}
        first = client.view(game_id, tokens[0])
        assert first["status"] == "active" and [p["team"] for p in first["players"]] == [0, 1, 0, 1]
        assert first["round"]["hand_sizes"] == [7, 7, 7, 7] and first["round"]["stock_size"] == 20
        assert len(first["round"]["hand"]) == 7
        final = play_until_finished(client, game_id, tokens, rng)
        truth = client.events(game_id, operator=True)
        seen = {seat: client.events(game_id, token) for seat, token in tokens.items()}
        spectator = client.events(game_id)

    assert final["status"] == "finished" and final["to_act"] == []
    standing = final["standing"]
    assert [side["seats"] for side in standing] == [[0, 2], [1, 3]]
    assert final["winner"] in ([0, 2], [1, 3])
    won = next(side["score"] for side in standing if side["seats"] == final["winner"])
    lost = next(side["score"] for side in standing if side["seats"] != final["winner"])
    assert won >= 3 > lost or won > lost >= 3
    assert truth[-1]["type"] == "match_ended" and truth[-1]["data"]["winner"] == final["winner"]
    deals = check_hidden(spectator, truth, None)
    for seat, log in seen.items():
        assert check_hidden(log, truth, seat) == deals
    assert deals >= 1
    humans_played = {e["actor"] for e in truth if e["type"] == "played"} & {0, 1}
    assert humans_played == {0, 1}
    scored = [e["data"] for e in truth if e["type"] == "round_scored"]
    assert len(scored) == deals and all(len(s["totals"]) == 2 for s in scored)
    assert all(s["case"] in ("A1", "A2", "B1", "B2", "C1", "C2") for s in scored)


def test_a_three_player_match_of_bots(service):
    with requests.Session() as http:
        client = Client(service, http)
        game_id = client.create(
            {"variant": "3p", "match_target": 3},
            [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "basic"}],
            seed=303,
        )
        final = play_until_finished(client, game_id, {}, random.Random(3))
        truth = client.events(game_id, operator=True)
        spectator = client.events(game_id)

    assert final["status"] == "finished"
    assert [side["seats"] for side in final["standing"]] == [[0], [1], [2]]
    assert [p["team"] for p in final["players"]] == [None, None, None]
    top = max(side["score"] for side in final["standing"])
    assert top >= 3 and [s["score"] for s in final["standing"]].count(top) == 1
    assert final["winner"] == next(side["seats"] for side in final["standing"] if side["score"] == top)
    deals = check_hidden(spectator, truth, None)
    dealt = [e["data"] for e in truth if e["type"] == "dealt"]
    assert len(dealt) == deals >= 1
    assert all(len(d["dead"]) == 2 and len(d["stock"]) == 8 for d in dealt)  # the operator sees them
    dead: set[str] = set()
    for event in truth:  # the dead cards are out of play for their whole deal
        if event["type"] == "dealt":
            dead = set(event["data"]["dead"])
        elif event["type"] == "played":
            assert event["data"]["card"] not in dead
    assert truth[-1]["type"] == "match_ended"
