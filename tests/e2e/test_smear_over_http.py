"""Smear over HTTP against the real processes (Redis, gunicorn, one rq worker).

1. Four bots: the match runs to its end by itself, the workers alone dealing, bidding, discarding,
   playing and scoring. A spectator's event log shows no hand, no undealt pile, no widow, no discard.
2. One human seat played by a random legal client (seeded) and three bots: the match finishes, and
   nothing the human's seat may not see (the bots' hands, the widow a bot took, its discard and
   named trump) reaches it, in its views or in its event log.
"""

from __future__ import annotations

import random
import time

import pytest
import requests

from tests.e2e.client import bearer, create, event_log, next_view, spectate, spectator_sees_no_hand

pytestmark = pytest.mark.slow

MATCH_TIMEOUT_S = 50.0
HUMAN = 0


def check_hidden(shown: list[dict], full: list[dict], seat: int | None) -> int:
    """Event by event: what `seat` saw against the operator's log. Returns the number of deals."""
    assert [e["version"] for e in shown] == [e["version"] for e in full]
    deals = 0
    for seen, truth in zip(shown, full):
        kind, data, visible = truth["type"], truth["data"], seen["data"]
        if kind == "dealt":
            deals += 1
            assert "undealt" not in visible and visible["undealt_size"] == 8
            assert visible["hands"] == [h if i == seat else None for i, h in enumerate(data["hands"])]
        elif kind in ("widow_taken", "discarded"):
            mine = data["seat"] == seat
            assert visible == (data if mine else {"seat": data["seat"], "count": len(data["cards"])}), kind
        elif kind in ("match_created", "seat_claimed"):
            assert "seed" not in visible and "token_hash" not in visible
        else:
            assert visible == data, kind
    return deals


def check_end(view: dict, full: list[dict]) -> None:
    assert view["status"] == "finished" and view["legal_actions"] == [] and view["to_act"] == []
    assert full[-1]["type"] == "match_ended" and full[-1]["data"]["winner"] == view["winner"]
    standing = {tuple(side["seats"]): side["score"] for side in view["standing"]}
    assert standing[tuple(view["winner"])] >= view["options"]["match_target"]


def test_four_bots_play_a_whole_match_by_themselves(service):
    http = requests.Session()
    seats = [{"kind": "bot", "level": "basic"}] * 4
    game_id = create(http, service, "smear", seats, {"widow_size": 2, "match_target": 11}, seed=561)
    view = spectate(http, service, game_id, MATCH_TIMEOUT_S, check=spectator_sees_no_hand)
    full = event_log(http, service, game_id, bearer(service.operator_token), ops=True)
    spectator = event_log(http, service, game_id, {})
    assert check_hidden(spectator, full, None) >= 2
    check_end(view, full)
    assert view["last_result"]["scores"] == [s["score"] for s in view["standing"]]
    http.close()


def test_a_random_human_and_three_bots_finish_a_match(service):
    rng = random.Random(5656)
    http = requests.Session()
    seats = [
        {"kind": "human"},
        {"kind": "bot", "level": "basic"},
        {"kind": "bot", "level": "basic"},
        {"kind": "bot", "level": "random"},
    ]
    game_id = create(
        http, service, "smear", seats, {"widow_size": 3, "match_target": 7, "all_pass": "stick_dealer"}, seed=20261130
    )
    claimed = http.post(service.url(f"/v1/games/{game_id}/players"), json={"name": "Rand"}, timeout=5)
    assert claimed.status_code == 201, claimed.text
    seat = bearer(claimed.json()["token"])
    deadline, actions = time.monotonic() + MATCH_TIMEOUT_S, 0
    view = http.get(service.url(f"/v1/games/{game_id}"), headers=seat, timeout=5).json()
    while view["status"] != "finished":
        assert time.monotonic() < deadline, f"the match did not finish within {MATCH_TIMEOUT_S} s"
        rnd = view["round"]
        if rnd is not None and rnd["bidder"] not in (None, HUMAN):
            assert rnd["widow"] is None and rnd["discard"] is None
            assert rnd["trump_public"] or rnd["trump"] is None
        if not view["legal_actions"]:
            view = next_view(http, service, game_id, view, seat)
            continue
        assert view["to_act"] == [HUMAN] and len(rnd["hand"]) == rnd["hand_sizes"][HUMAN]
        action = rng.choice(view["legal_actions"])
        posted = http.post(
            service.url(f"/v1/games/{game_id}/actions"),
            json=action,
            timeout=5,
            headers={**seat, "If-Match": f'"{view["version"]}"'},
        )
        assert posted.status_code == 201, (action, posted.text)
        view, actions = posted.json(), actions + 1
    assert actions >= 6
    full = event_log(http, service, game_id, bearer(service.operator_token), ops=True)
    mine = event_log(http, service, game_id, seat)
    assert check_hidden(mine, full, HUMAN) >= 1
    check_end(view, full)
    http.close()
