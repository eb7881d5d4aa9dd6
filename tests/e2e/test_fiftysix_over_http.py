"""Fifty-Six over HTTP against the real processes (Redis, gunicorn, one rq worker).

1. Eight bots: the match runs to its end by itself, the worker alone dealing, bidding, playing,
   scoring and eliminating teams. A spectator's event log shows no hand.
2. Six seats, two of them humans played by random legal clients (one seeded random.Random), four
   bots: the match finishes, and neither human's views or event log show another seat's cards.

Both matches start with 2 tables per team (RULES §1.10 `starting_tables`), so that a match is a few
deals long: with the default 12, basic bots trade tables for a hundred deals and more.
"""

from __future__ import annotations

import random
import time

import pytest
import requests

from tests.e2e.client import bearer, create, event_log, next_view, spectate, spectator_sees_no_hand

pytestmark = pytest.mark.slow

MATCH_TIMEOUT_S = 50.0
STARTING_TABLES = 2


def check_hidden(shown: list[dict], full: list[dict], seat: int | None) -> int:
    """Event by event: what `seat` saw against the operator's log. Returns the number of deals."""
    assert [e["version"] for e in shown] == [e["version"] for e in full]
    deals = 0
    for seen, truth in zip(shown, full):
        kind, data, visible = truth["type"], truth["data"], seen["data"]
        if kind == "dealt":
            deals += 1
            assert visible["hands"] == [h if i == seat else None for i, h in enumerate(data["hands"])]
            assert visible["hand_sizes"] == [len(h) for h in data["hands"]]
        elif kind in ("match_created", "seat_claimed"):
            assert "seed" not in visible and "token_hash" not in visible
        else:
            assert visible == data, kind
    return deals


def check_end(view: dict, full: list[dict]) -> None:
    assert view["status"] == "finished" and view["legal_actions"] == [] and view["to_act"] == []
    assert full[-1]["type"] == "match_ended" and full[-1]["data"]["winner"] == view["winner"]
    tables = {tuple(team["seats"]): team["score"] for team in view["standing"]}
    assert tables[tuple(view["winner"])] == STARTING_TABLES * len(tables)
    assert sum(tables.values()) == STARTING_TABLES * len(tables)
    assert view["last_result"]["tables"] == [team["score"] for team in view["standing"]]


def test_eight_bots_play_a_whole_match_by_themselves(service):
    http = requests.Session()
    seats = [{"kind": "bot", "level": "basic"}] * 6 + [{"kind": "bot", "level": "random"}] * 2
    game_id = create(http, service, "fifty-six", seats, {"starting_tables": STARTING_TABLES}, seed=5608)
    view = spectate(http, service, game_id, MATCH_TIMEOUT_S, check=spectator_sees_no_hand)
    full = event_log(http, service, game_id, bearer(service.operator_token), ops=True)
    spectator = event_log(http, service, game_id, {})
    assert check_hidden(spectator, full, None) >= 1
    check_end(view, full)
    assert len(view["standing"]) == 4  # eliminated teams stay, with 0 tables
    # The seed was picked for a match that loses a team at 8 and another at 6 players: every deal
    # after an elimination is dealt to the seats left (48 cards once 8s and 7s are out).
    players = [len(e["data"]["active"]) for e in full if e["type"] == "dealt"]
    assert players == sorted(players, reverse=True) and set(players) == {8, 6, 4}, players
    http.close()


def test_two_random_humans_and_four_bots_finish_a_six_player_match(service):
    rng = random.Random(5656)
    http = requests.Session()
    humans = (0, 3)
    seats = [{"kind": "human"} if s in humans else {"kind": "bot", "level": "basic"} for s in range(6)]
    game_id = create(http, service, "fifty-six", seats, {"starting_tables": STARTING_TABLES}, seed=20261130)
    tokens = {}
    for s in humans:
        claimed = http.post(
            service.url(f"/v1/games/{game_id}/players"), json={"name": f"Rand {s}", "seat": s}, timeout=5
        )
        assert claimed.status_code == 201, claimed.text
        tokens[s] = bearer(claimed.json()["token"])
    deadline, actions = time.monotonic() + MATCH_TIMEOUT_S, 0
    view = http.get(service.url(f"/v1/games/{game_id}"), headers=tokens[0], timeout=5).json()
    while view["status"] != "finished":
        assert time.monotonic() < deadline, f"the match did not finish within {MATCH_TIMEOUT_S} s"
        waiting = [s for s in view["to_act"] if s in humans]
        if not waiting:
            view = next_view(http, service, game_id, view, tokens[0])
            continue
        seat = waiting[0]
        mine = http.get(service.url(f"/v1/games/{game_id}"), headers=tokens[seat], timeout=5).json()
        rnd = mine["round"]
        assert mine["to_act"] == [seat] and len(rnd["hand"]) == rnd["hand_sizes"][seat]
        action = rng.choice(mine["legal_actions"])
        if action["type"] == "bid" and rng.random() < 0.3:
            action = {**action, "convention": rng.choice(["number_first", "suit_first"])}
        posted = http.post(
            service.url(f"/v1/games/{game_id}/actions"),
            json=action,
            timeout=5,
            headers={**tokens[seat], "If-Match": f'"{mine["version"]}"'},
        )
        assert posted.status_code == 201, (action, posted.text)
        actions += 1
        view = http.get(service.url(f"/v1/games/{game_id}"), headers=tokens[0], timeout=5).json()
    assert actions >= 8
    full = event_log(http, service, game_id, bearer(service.operator_token), ops=True)
    for s in humans:
        assert check_hidden(event_log(http, service, game_id, tokens[s]), full, s) >= 1
    check_end(view, full)
    http.close()
